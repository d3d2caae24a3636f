/* Sumito, the live game page: the game's state, as the server last sent it.
 *
 * The server is the only authority: the page draws the state document it sends (embedded in
 * the page as #game-state, answered by the API, pushed over the WebSocket) and sends moves with
 * the version (ply) it was drawn from. A newer document replaces the one shown; an older one
 * (a late answer overtaken by a push) is dropped.
 */
import { moveCells } from "sumito/board.js";
import { navigationResponseStart } from "sumito/clock.js";
import { guarded } from "sumito/socket.js";

export const root = document.getElementById("game");
const embedded = document.getElementById("game-state");

/** The page's game, or null on a page without one. */
export const page = root && embedded ? {
  myColour: root.dataset.myColour || "",
  apiBase: root.dataset.apiBase,
  wsPath: root.dataset.wsPath,
  username: root.dataset.username,
  tournament: root.dataset.tournament === "1",
  // the computer's colour and name in a game against it (it thinks on the server)
  computer: root.dataset.computer || "",
  computerName: root.dataset.computerName || "",
} : null;

let state = page ? JSON.parse(embedded.textContent) : null;
// When the state left the server, on the performance.now() timeline: for the embedded one, the
// first byte of the page's response (the local wall clock is never used for timing).
let receivedAt = navigationResponseStart();
let lastMove = lastMoveCells(state, null);
let busy = false; // a request of this page is under way: the board and buttons wait
const changeListeners = []; // the page's own drawing, in order
const stateListeners = []; // the features' (game/*.js), after the drawing

export const current = () => state;
export const arrivedAt = () => receivedAt;
export const lastMoveShown = () => lastMove;
export const isBusy = () => busy;

export function setBusy(value) {
  busy = value;
}

export function myTurn() {
  return Boolean(page.myColour) && state.status === "started" && state.side_to_move === page.myColour;
}

/** fn(state, previous, { moved }) when a newer state is applied: the page's own drawing. */
export function onChange(fn) {
  changeListeners.push(fn);
}

/** fn(state, previous) after every newer state is applied (not for the embedded one). */
export function onState(fn) {
  stateListeners.push(fn);
}

function isNewer(next, shown) {
  if (next.version !== shown.version) return next.version > shown.version;
  return Date.parse(next.clock.server_now) >= Date.parse(shown.clock.server_now);
}

/** Show `next` if it is newer than the state shown; whether it was. */
export function applyState(next, at = performance.now()) {
  if (!next || next.id !== state.id || !isNewer(next, state)) return false;
  const previous = state;
  state = next;
  receivedAt = at;
  const moved = next.version !== previous.version;
  if (moved) lastMove = lastMoveCells(next, previous);
  for (const listener of changeListeners) listener(state, previous, { moved });
  for (const listener of stateListeners) guarded(listener, state, previous);
  wakeWaiters();
  return true;
}

/**
 * A socket event carries what changed (the position, the clocks, the result...), without the
 * players and settings, and lists only the moves after its `moves_after`: the rest is what this
 * page has. Its legal moves come only to the player to move. The whole state, put together with
 * the one shown; null when the page lacks one of the earlier moves (it missed an event).
 */
export function withEarlierMoves(next) {
  if (!next || !("moves_after" in next)) return next; // a whole state (the API's answer)
  const earlier = (state.moves || []).filter((move) => move.ply <= next.moves_after);
  if (earlier.length !== next.moves_after) return null;
  const { moves_after: _after, ...changed } = next;
  return { ...state, legal_moves: [], last_move: null, ...changed, moves: earlier.concat(next.moves) };
}

// Moves sent on the socket wait for their state: version -> resolvers (untilVersion).
const versionWaiters = new Map();

/** Resolves to true once a state at `version` or later is shown, false after `ms`. */
export function untilVersion(version, ms) {
  if (state.version >= version) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = window.setTimeout(() => resolve(false), ms);
    const list = versionWaiters.get(version) || [];
    list.push(() => {
      window.clearTimeout(timer);
      resolve(true);
    });
    versionWaiters.set(version, list);
  });
}

function wakeWaiters() {
  for (const [version, list] of versionWaiters) {
    if (version > state.version) continue;
    versionWaiters.delete(version);
    for (const resolve of list) resolve();
  }
}

/** The cells of the last move: exact when the event or the previous state named its marbles,
 * else from its notation. */
function lastMoveCells(next, previous) {
  const moves = (next && next.moves) || [];
  if (!moves.length) return { from: [], to: [] };
  const notation = moves[moves.length - 1].notation;
  if (notation.startsWith("@")) return { from: [], to: [notation.slice(1)] }; // a placement
  if (next.last_move) return { from: next.last_move.marbles, to: next.last_move.destinations };
  if (previous && next.version === previous.version + 1) {
    const known = (previous.legal_moves || []).find((move) => move.notation === notation);
    if (known) return { from: known.marbles, to: known.destinations };
  }
  return moveCells(notation);
}
