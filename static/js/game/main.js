/* Sumito: the live game page (/games/<id>/). The page script: it draws the game, takes the
 * player's moves and follows the game live.
 *
 * The server is the only authority: the page draws the state document it sends, offers only the
 * legal moves listed in it, and sends moves with the version (ply) it was drawn from (state.js).
 * The concerns, each a module of this folder: the board and playing on it (input.js), the
 * drawing of the rest (render.js), the buttons (actions.js), the clocks (clocks.js), the server
 * over HTTP (server.js) and the socket (live.js).
 *
 * The page's other features (chat, rematch, premoves, sound, placement, the spectator count:
 * their own module scripts in this folder, loaded after this one) use only the interface this
 * module exports as `game` (null on a page without a game). The socket connects once they have
 * all registered their listeners (DOMContentLoaded comes after every module script has run).
 */
import { call } from "sumito/api.js";
import { bindActions } from "sumito/game/actions.js";
import { remaining, startClocks } from "sumito/game/clocks.js";
import { onNewState, play, selectFrom, startBoard } from "sumito/game/input.js";
import { connect, onLive, onMessage } from "sumito/game/live.js";
import { render } from "sumito/game/render.js";
import { setStatus } from "sumito/game/server.js";
import * as model from "sumito/game/state.js";

export const game = model.page ? {
  state: model.current,
  myColour: model.page.myColour,
  /** The remaining time of a colour's clock now, in ms (as drawn). */
  remaining,
  myTurn: model.myTurn,
  /** fn(state, previous) after every newer state is applied (not for the embedded one). */
  onState: model.onState,
  /** fn(message) for every message of the game's socket, before this page handles it. */
  onMessage,
  /** fn() each time the socket is live (first connection and every reconnection). */
  onLive,
  play,
  /** The API with the session: api("POST", url, body) resolves to the JSON or throws an
   * ApiError (status, code, message, retryAfter). `gameApi` is this game's base URL. */
  api: call,
  gameApi: model.page.apiBase,
  /**
   * On the opponent's turn, let the player select one of `moves` (legal-move documents) on
   * the board; `onChoose(move)` gets the choice. null: the board is inert on their turn.
   */
  selectFrom,
  setStatus,
  /** The page's data: the player's username, whether the game is a tournament's. */
  username: model.page.username,
  tournament: model.page.tournament,
} : null;

function start() {
  startBoard();
  model.onChange(onNewState);
  model.onChange(render);
  bindActions();
  render();
  startClocks();
  document.addEventListener("DOMContentLoaded", connect, { once: true });
}

if (game) start();
