/* Sumito, the live game page: the clocks, counting down locally from the server's values.
 *
 * At zero the page asks the server to decide: the opponent of the side whose time ran out
 * claims the flag; everyone else reads the state (a read adjudicates a passed deadline).
 */
import { formatClock } from "sumito/clock.js";
import { format, gettext } from "sumito/i18n.js";
import { post, refresh } from "sumito/game/server.js";
import { applyState, arrivedAt, current, page } from "sumito/game/state.js";

const $ = (id) => document.getElementById(id);
let flagHandledFor = null;

function elapsed() {
  return Math.max(0, performance.now() - arrivedAt());
}

/** The remaining time of a colour's clock now, in ms (as drawn). */
export function remaining(colour) {
  const state = current();
  const clock = state.clock;
  const stored = colour === "b" ? clock.black_ms : clock.white_ms;
  // A correspondence clock's days run from the first move on (they are its first-move time).
  const days = state.time_control.days_per_move;
  const ticking = state.status === "started" && clock.running && (!clock.first_moves || days)
    && colour === state.side_to_move;
  return ticking ? Math.max(0, stored - elapsed()) : stored;
}

export function renderClocks() {
  const state = current();
  const hasClock = state.time_control.base_seconds !== null;
  for (const colour of ["b", "w"]) {
    const clock = $(`clock-${colour}`);
    const left = remaining(colour);
    clock.textContent = hasClock ? formatClock(left) : "∞";
    clock.classList.toggle("low", hasClock && left < 20000 && state.status === "started");
    clock.classList.toggle("days", hasClock && left >= 86400000); // "2 days 23:59": a smaller hand
  }
  const turn = $("turn");
  if (state.status === "started" && state.clock.first_moves && state.clock.first_move_ms_left !== null
      && !state.time_control.days_per_move) {
    const left = Math.max(0, state.clock.first_move_ms_left - elapsed());
    let note = turn.querySelector(".first-move");
    if (!note) {
      note = document.createElement("span");
      note.className = "first-move";
      turn.appendChild(note);
    }
    note.textContent = ` · ${format(gettext("%(seconds)s s for the first move"), { seconds: Math.ceil(left / 1000) })}`;
  }
  checkFlag();
}

function checkFlag() {
  const state = current();
  if (state.status !== "started" || !state.clock.running) return;
  const left = state.clock.first_moves
    ? (state.clock.first_move_ms_left ?? Infinity) - elapsed()
    : remaining(state.side_to_move);
  const key = `${state.version}:${state.clock.server_now}`;
  if (left > 0 || flagHandledFor === key) return;
  flagHandledFor = key;
  if (page.myColour && page.myColour !== state.side_to_move) {
    // The server decides; if it disagrees (our count ran early) read again a moment later.
    post("claim-flag/").then((next) => applyState(next))
      .catch(() => window.setTimeout(refresh, 1000));
  } else {
    refresh(); // a read adjudicates a passed deadline
  }
}

export function startClocks() {
  window.setInterval(renderClocks, 100);
}
