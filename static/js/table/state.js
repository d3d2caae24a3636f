/* Sumito, a table's page: the table document, as the server last sent it.
 *
 * The server is the only authority: the page draws the table document it sends (embedded in
 * the page as #table-data, answered by GET /api/v1/tables/<id>/, pushed over /ws/tables/<id>/
 * as {"type": "table", "table": doc}), offers only the moves listed in doc.legal_moves, and
 * sends each move with the ply it was drawn from. A newer document replaces the one shown.
 */
import { navigationResponseStart } from "sumito/clock.js";

const STATUS_RANK = { open: 0, started: 1, finished: 2, aborted: 2 };

export const root = document.getElementById("table");
const embedded = document.getElementById("table-data");

/** The page's table, or null on a page without one. */
export const page = root && embedded ? {
  apiBase: root.dataset.apiBase,
  wsPath: root.dataset.wsPath,
  myUserId: root.dataset.userId ? Number(root.dataset.userId) : null,
} : null;

let doc = page ? JSON.parse(embedded.textContent) : null;
let receivedAt = navigationResponseStart();
let busy = false; // a request of this page is under way
let replayPly = null; // the ply shown once the game is over (null: the last)
const changeListeners = [];

export const current = () => doc;
export const arrivedAt = () => receivedAt;
export const isBusy = () => busy;
export const over = () => doc.status === "finished" || doc.status === "aborted";

export function setBusy(value) {
  busy = value;
}

// --- who I am, whose turn -----------------------------------------------------------------------

export function mySeat() {
  if (page.myUserId === null) return null;
  return doc.seats.find((seat) => seat.user && seat.user.id === page.myUserId) || null;
}

export const seatOf = (colour) => doc.seats.find((seat) => seat.colour === colour) || null;

export function myTurn() {
  const seat = mySeat();
  return Boolean(seat) && !seat.out && doc.status === "started" && doc.side_to_move === seat.colour;
}

// --- applying a document ------------------------------------------------------------------------

/** fn(doc, previous) when a newer document is applied. */
export function onChange(fn) {
  changeListeners.push(fn);
}

function isNewer(next, shown) {
  if (next.ply !== shown.ply) return next.ply > shown.ply;
  const rank = (STATUS_RANK[next.status] ?? 0) - (STATUS_RANK[shown.status] ?? 0);
  if (rank) return rank > 0;
  return Date.parse(next.server_time) >= Date.parse(shown.server_time);
}

export function apply(next, at = performance.now()) {
  if (!next || next.id !== doc.id || !isNewer(next, doc)) return false;
  const previous = doc;
  doc = next;
  receivedAt = at;
  for (const listener of changeListeners) listener(doc, previous);
  return true;
}

// --- the replay of a finished game --------------------------------------------------------------

/** The ply shown: null while there is nothing to replay (the game goes on), else the one chosen
 * (the last by default). */
export function shownPly() {
  const positions = doc.positions || [];
  if (!over() || positions.length < 2) return null; // nothing to replay
  return replayPly === null ? positions.length - 1 : Math.min(replayPly, positions.length - 1);
}

/** Choose the ply shown; false when there is nothing to replay. */
export function choosePly(ply) {
  const last = (doc.positions || []).length - 1;
  if (last < 0) return false;
  replayPly = Math.max(0, Math.min(last, ply));
  return true;
}
