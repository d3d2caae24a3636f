/* Sumito, a table's page: the clocks.
 *
 * The clock of the seat to move counts down from doc.deadline as seen from doc.server_time,
 * measured on the monotonic clock from the moment the document arrived. At zero the page waits
 * for the server's decision (a flag is adjudicated on the server), asking again only if none
 * arrives.
 */
import { formatClock } from "sumito/clock.js";
import { refresh } from "sumito/table/server.js";
import { arrivedAt, current, over } from "sumito/table/state.js";

const ZERO_GRACE_MS = 15000; // a clock at zero: ask once if the server's decision has not come
let zeroAskedFor = null;

function elapsed() {
  return Math.max(0, performance.now() - arrivedAt());
}

/** The time left on a seat's clock now, in ms (null: no clock). */
function remaining(doc, seat) {
  if (doc.base_seconds === null || doc.base_seconds === undefined) return null;
  if (doc.status === "started" && seat.colour === doc.side_to_move && doc.deadline) {
    return Math.max(0, Date.parse(doc.deadline) - Date.parse(doc.server_time) - elapsed());
  }
  return seat.clock_ms;
}

export function renderClocks() {
  const doc = current();
  let moverLeft = null;
  for (const seat of doc.seats) {
    const clock = document.getElementById(`clock-${seat.index}`);
    if (!clock) continue;
    const left = remaining(doc, seat);
    const active = doc.status === "started" && seat.colour === doc.side_to_move;
    clock.textContent = left === null ? "∞" : formatClock(left);
    clock.dataset.ms = left === null ? "" : String(Math.round(left));
    clock.classList.toggle("active", active);
    clock.classList.toggle("low", left !== null && left < 20000 && doc.status === "started");
    clock.classList.toggle("flagged", over() && doc.termination === "time" && Boolean(seat.out));
    if (active) moverLeft = left;
  }
  // At zero the server decides; if its word has not come after a while, ask (a read).
  if (moverLeft === 0) {
    const key = `${doc.ply}:${doc.deadline}`;
    if (zeroAskedFor !== key && Date.parse(doc.server_time) + elapsed() - Date.parse(doc.deadline) > ZERO_GRACE_MS) {
      zeroAskedFor = key;
      refresh();
    }
  }
}

export function startClocks() {
  window.setInterval(renderClocks, 100);
}
