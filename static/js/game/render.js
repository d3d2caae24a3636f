/* Sumito, the live game page: drawing the state (players and scores, whose turn, the moves,
 * the result). The board is input.js's, the buttons actions.js's, the clocks clocks.js's. */
import { COLOUR_NAME } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { renderMoveList } from "sumito/move-list.js";
import { renderActions } from "sumito/game/actions.js";
import { renderClocks } from "sumito/game/clocks.js";
import { renderBoard } from "sumito/game/input.js";
import { current, myTurn, page } from "sumito/game/state.js";

const YOUR_TURN = gettext("Your turn");
const $ = (id) => document.getElementById(id);

/** Draw the whole page from the state. */
export function render() {
  renderBoard();
  renderPlayers();
  renderMoves();
  renderResult();
  renderActions();
  renderClocks();
}

function renderPlayers() {
  const state = current();
  const active = state.status === "started" ? state.side_to_move : null;
  for (const colour of ["b", "w"]) {
    $(`player-${colour}`).classList.toggle("to-move", colour === active);
    $(`clock-${colour}`).classList.toggle("active", colour === active && state.clock.running);
    // A side's score is the opponent's marbles it pushed off.
    const score = colour === "b" ? state.pushed_off.white : state.pushed_off.black;
    const box = $(`score-${colour}`);
    box.querySelector(".score-count").textContent = String(score);
    const captured = box.querySelector(".captured");
    captured.replaceChildren();
    for (let i = 0; i < state.marbles_to_win; i++) {
      const slot = document.createElement("span");
      slot.className = `slot${i < score ? ` taken ${colour === "b" ? "w" : "b"}` : ""}`;
      captured.appendChild(slot);
    }
    box.setAttribute("aria-label", format(gettext("%(colour)s pushed off %(score)s of %(total)s"),
      { colour: COLOUR_NAME[colour], score, total: state.marbles_to_win }));
  }
  const turn = $("turn");
  if (state.status !== "started") {
    turn.textContent = "";
    turn.hidden = true;
  } else {
    turn.hidden = false;
    turn.dataset.side = state.side_to_move;
    const thinking = Boolean(page.computer) && state.side_to_move === page.computer;
    turn.classList.toggle("thinking", thinking);
    turn.textContent = state.side_to_move === page.myColour ? YOUR_TURN
      : thinking ? format(gettext("%(name)s is thinking…"), { name: page.computerName })
      : format(gettext("%(colour)s to move"), { colour: COLOUR_NAME[state.side_to_move] });
  }
  const prefix = `${YOUR_TURN} · `;
  const base = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
  document.title = myTurn() ? `${prefix}${base}` : base;
}

function renderMoves() {
  const state = current();
  const whiteFirst = state.first_mover === "w";
  renderMoveList($("moves"), state.moves || [], {
    perTurn: 2,
    // Black's moves in the first column: a custom start may give White the first move.
    offset: whiteFirst ? 1 : 0,
    emptyText: whiteFirst ? gettext("No moves yet. White moves first.")
      : gettext("No moves yet. Black moves first."),
    drawMove(move) {
      const item = document.createElement("span");
      item.textContent = move.notation;
      if (move.pushed_off) {
        item.classList.add("pushed-off");
        item.title = gettext("pushed a marble off");
      }
      return item;
    },
  });
}

function resultText(state) {
  if (state.status === "aborted") return gettext("Game aborted");
  const winnerSide = state.result === "1-0" ? "b" : state.result === "0-1" ? "w" : null;
  const names = winnerSide
    ? { winner: COLOUR_NAME[winnerSide], loser: COLOUR_NAME[winnerSide === "b" ? "w" : "b"] }
    : {};
  const say = (text) => format(text, names);
  switch (state.termination) {
    case "marbles": return say(gettext("%(winner)s wins by marbles pushed off"));
    case "resignation": return say(gettext("%(winner)s wins by resignation"));
    case "time": return say(gettext("%(winner)s wins on time"));
    case "agreement": return gettext("Draw agreed");
    case "repetition": return gettext("Draw by threefold repetition");
    case "move_cap": return winnerSide ? say(gettext("%(winner)s wins at the move limit"))
      : gettext("Draw at the move limit");
    case "no_legal_moves": return say(gettext("%(winner)s wins: %(loser)s has no legal move"));
    case "abandoned": return say(gettext("%(winner)s wins: %(loser)s did not make a first move"));
    case "forfeit": return winnerSide ? say(gettext("%(winner)s wins by forfeit")) : gettext("Forfeit");
    default: return winnerSide ? say(gettext("%(winner)s wins")) : gettext("Draw");
  }
}

function renderResult() {
  const state = current();
  const banner = $("result");
  if (state.status === "started") {
    banner.hidden = true;
    return;
  }
  const score = { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½" }[state.result] || "–";
  banner.querySelector(".result-score").textContent = score;
  banner.querySelector(".result-text").textContent = resultText(state);
  banner.dataset.result = state.result || "";
  const changes = state.rating_changes || {};
  const sign = (d) => (d > 0 ? `+${d}` : `${d}`);
  const parts = [["black", "b"], ["white", "w"]]
    .filter(([side]) => changes[side])
    .map(([side]) => `${state[side].username} ${changes[side].after} (${sign(changes[side].delta)})`);
  let line = banner.querySelector(".result-ratings");
  if (!line) {
    line = document.createElement("span");
    line.className = "result-ratings muted";
    banner.appendChild(line);
  }
  line.textContent = parts.join(" · ");
  const analyse = $("analyse-link"); // a finished game opens on the analysis board
  if (analyse) analyse.hidden = state.status !== "finished";
  banner.hidden = false;
}
