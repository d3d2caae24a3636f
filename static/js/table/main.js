/* Sumito: a live table for three or four players (/tables/<id>/). The page script.
 *
 * The concerns, each a module of this folder: the document and who is seated (state.js), the
 * server over HTTP (server.js), the drawing (render.js; the board itself is table-board.js) and
 * the clocks (clocks.js). This module binds the buttons and keys and follows the table over its
 * socket; while the socket is closed the page reads the table every few seconds instead.
 */
import { format, gettext } from "sumito/i18n.js";
import { openSocket, whenQuiet } from "sumito/socket.js";
import { startClocks } from "sumito/table/clocks.js";
import { render, showPly, startBoard } from "sumito/table/render.js";
import { act, play, refresh, setStatus } from "sumito/table/server.js";
import { apply, current, isBusy, myTurn, onChange, over, page, shownPly } from "sumito/table/state.js";

const POLL_MS = 3000; // reading the table while the socket is closed
const $ = (id) => document.getElementById(id);

// --- buttons, the move form, keys ---------------------------------------------------------------

function bind(board) {
  for (const seat of current().seats) {
    const join = $(`join-${seat.index}`);
    if (join) join.addEventListener("click", () => act("join/", { colour: join.dataset.colour }));
  }
  $("leave").addEventListener("click", () => act("leave/"));
  $("resign").addEventListener("click", () => {
    if (window.confirm(gettext("Resign? You finish last and the game ends."))) act("resign/");
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("move-input");
    const notation = input.value.trim().toLowerCase().replace(/[\s,-]/g, "");
    if (!notation || !myTurn() || isBusy()) return;
    play(notation).then((taken) => {
      if (taken) input.value = "";
    });
  });
  $("replay-first").addEventListener("click", () => showPly(0));
  $("replay-back").addEventListener("click", () => showPly(shownPly() - 1));
  $("replay-forward").addEventListener("click", () => showPly(shownPly() + 1));
  $("replay-last").addEventListener("click", () => showPly(Infinity));
  $("replay-ply").addEventListener("input", (event) => showPly(Number(event.target.value)));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") board.clearSelection();
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement && document.activeElement.tagName);
    if (typing || shownPly() === null) return;
    const keys = { ArrowLeft: () => showPly(shownPly() - 1), ArrowRight: () => showPly(shownPly() + 1),
      Home: () => showPly(0), End: () => showPly(Infinity) };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
}

// --- live updates -------------------------------------------------------------------------------

function setConnection(kind, text) {
  const badge = $("connection");
  badge.dataset.state = kind;
  badge.textContent = text;
}

function showStatus({ state, reconnecting, delay }) {
  if (state === "connecting") {
    setConnection("connecting", reconnecting ? gettext("Reconnecting…") : gettext("Connecting…"));
  } else if (state === "live") {
    setConnection("live", gettext("Live"));
    quiet.heard(true); // the table is read on (re)connection
  } else if (state === "offline") {
    setConnection("offline",
      format(gettext("Offline · retrying in %(seconds)s s"), { seconds: Math.ceil(delay / 1000) }));
  } else if (state === "closed") {
    setConnection("offline", gettext("Table not found")); // 4404: the one final code of a table
  } else if (state === "refused") {
    setConnection("offline", gettext("Offline · reading every few seconds"));
  }
}

// While the game goes on, a socket that carried no table for a while reads it again: an event
// lost with the web host that was to send it is no gap to a socket that stayed open (socket.js).
let socket = null;
const quiet = whenQuiet({ active: () => !over(), ask: () => socket && socket.live() && refresh() });

function handle(message) {
  if (message.type === "table") {
    const before = current().ply;
    apply(message.table);
    quiet.heard(current().ply !== before);
  } else if (message.type === "error") setStatus(message.detail || message.error, true);
}

// --- start --------------------------------------------------------------------------------------

function start() {
  const board = startBoard();
  onChange((doc, previous) => {
    if (doc.ply !== previous.ply || doc.status !== previous.status) board.clearSelection();
    render();
  });
  bind(board);
  render();
  startClocks();
  socket = openSocket(page.wsPath, { onMessage: handle, refetch: refresh, onStatus: showStatus });
  // Without the socket the page stays correct by reading the table every few seconds.
  window.setInterval(() => {
    if (!socket.live() && !over()) refresh();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

if (page) start();
