/* Sumito, the live game page: its WebSocket (/ws/games/<id>/).
 *
 * Every message goes first to the features that asked for it (onMessage: the chat, the
 * spectator count, the rematch offer), then: a "state" is applied (a gap in its moves means an
 * event was missed: the state is read again), an "error" shown. A logged-in player's
 * notifications share the tab's one socket; they are handed to the page (live.js's publish),
 * where the bell (notify.js) hears them. After a reconnection, and while the tab was hidden,
 * the state is read again; the features that asked (onLive: the chat) read theirs again each
 * time the socket is live. While the game goes on and its socket has carried no state for a
 * while, the state is asked for on the socket (`quiet`): an event lost with the web host that
 * was to send it is never seen as a gap by a socket that stayed open.
 */
import { ApiError } from "sumito/api.js";
import { format, gettext } from "sumito/i18n.js";
import { publish } from "sumito/live.js";
import { guarded, openSocket, whenQuiet } from "sumito/socket.js";
import { refresh, setStatus } from "sumito/game/server.js";
import { applyState, current, page, withEarlierMoves } from "sumito/game/state.js";

const NOTIFICATIONS = new Set(["notification", "unread", "notifications"]);
const POLL_MS = 3000; // reading the state while the browser refuses the socket
const messageListeners = [];
const liveListeners = [];
let socket = null;
// While the game goes on, a socket that carried no state for a while asks for it: an event lost
// with the web host that was to send it is no gap to a socket that stayed open (socket.js).
const quiet = whenQuiet({
  active: () => current().status === "started",
  ask: () => socket && socket.live() && socket.send({ type: "refresh" }),
});

/** fn(message) for every message of the game's socket, before this page handles it. */
export function onMessage(fn) {
  messageListeners.push(fn);
}

/** fn() each time the socket is live, the first time and after every reconnection: whatever
 * the socket carried before it joined (or while it was away) is to be read again. */
export function onLive(fn) {
  liveListeners.push(fn);
}

function handle(message) {
  for (const listener of messageListeners) guarded(listener, message);
  if (message.type === "state") {
    const before = current().version;
    applyState(withEarlierMoves(message.state));
    quiet.heard(current().version !== before);
  } else if (message.type === "ack") answered(message);
  else if (message.type === "error") {
    if (!answered(message)) setStatus(message.detail || message.error, true);
  } else if (NOTIFICATIONS.has(message.type)) publish(message);
}

// --- moves sent on the socket ---------------------------------------------------------------------

const ANSWER_MS = 10000; // no ack or refusal by then: the state is read again
const pending = new Map(); // the ply a move was sent at -> { resolve, reject, timer }

/** A move whose answer will not come: showError reads the state again. */
const noAnswer = () => new ApiError(0, "no_answer", gettext("No answer from the server: reading the game again."));

/**
 * Send a move on the socket: resolves to the ack ({ move, ply, version }) or rejects with the
 * refusal (an ApiError with its code), as the HTTP API would answer. Null when the socket is
 * not live (the caller posts the move instead).
 */
export function sendMove(move, ply) {
  if (!socket || !socket.live() || pending.has(ply)) return null;
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => {
      pending.delete(ply);
      reject(noAnswer());
    }, ANSWER_MS);
    pending.set(ply, { resolve, reject, timer });
    socket.send({ type: "move", move, ply });
  });
}

/** The answer to a move this page sent (an ack or a refusal naming its ply): whether it was one. */
function answered(message) {
  const waiting = typeof message.ply === "number" ? pending.get(message.ply) : null;
  if (!waiting) return false;
  pending.delete(message.ply);
  window.clearTimeout(waiting.timer);
  if (message.type === "ack") waiting.resolve(message);
  else waiting.reject(new ApiError(409, message.error, message.detail || message.error));
  return true;
}

/** The socket went away: the moves it carried have no answer to wait for (the state is read
 * again on reconnection). */
function dropPending() {
  for (const [ply, waiting] of pending) {
    pending.delete(ply);
    window.clearTimeout(waiting.timer);
    waiting.reject(noAnswer());
  }
}

function setConnection(kind, text) {
  const badge = document.getElementById("connection");
  badge.dataset.state = kind;
  badge.textContent = text;
}

function showStatus({ state, reconnecting, delay }) {
  if (state === "connecting") {
    setConnection("connecting", reconnecting ? gettext("Reconnecting…") : gettext("Connecting…"));
  } else if (state === "live") {
    setConnection("live", gettext("Live"));
    quiet.heard(true); // the whole state is read on (re)connection
    for (const listener of liveListeners) guarded(listener);
  } else if (state === "offline") {
    dropPending();
    setConnection("offline", format(gettext("Offline · retrying in %(seconds)s s"), { seconds: Math.ceil(delay / 1000) }));
  } else if (state === "closed") {
    setConnection("offline", gettext("Game not found")); // 4404: the one final code of a game
  } else if (state === "refused") {
    // No socket to wait for: the page stays correct by reading the state every few seconds.
    setConnection("offline", gettext("Offline · reading every few seconds"));
    window.setInterval(refresh, POLL_MS);
  }
}

export function connect() {
  socket = openSocket(page.wsPath, {
    onMessage: handle,
    missed: (message) => message.type === "state" && !withEarlierMoves(message.state),
    refetch: refresh,
    onStatus: showStatus,
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  return socket;
}
