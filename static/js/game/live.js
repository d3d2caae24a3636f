/* Sumito, the live game page: its WebSocket (/ws/games/<id>/).
 *
 * Every message goes first to the features that asked for it (onMessage: the chat, the
 * spectator count, the rematch offer), then: a "state" is applied (a gap in its moves means an
 * event was missed: the state is read again), an "error" shown. A logged-in player's
 * notifications share the tab's one socket; they are handed to the page (live.js's publish),
 * where the bell (notify.js) hears them. After a reconnection, and while the tab was hidden,
 * the state is read again; the features that asked (onLive: the chat) read theirs again each
 * time the socket is live.
 */
import { format, gettext } from "sumito/i18n.js";
import { publish } from "sumito/live.js";
import { guarded, openSocket } from "sumito/socket.js";
import { refresh, setStatus } from "sumito/game/server.js";
import { applyState, page, withEarlierMoves } from "sumito/game/state.js";

const NOTIFICATIONS = new Set(["notification", "unread", "notifications"]);
const POLL_MS = 3000; // reading the state while the browser refuses the socket
const messageListeners = [];
const liveListeners = [];
let socket = null;

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
  if (message.type === "state") applyState(withEarlierMoves(message.state));
  else if (message.type === "error") setStatus(message.detail || message.error, true);
  else if (NOTIFICATIONS.has(message.type)) publish(message);
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
    for (const listener of liveListeners) guarded(listener);
  } else if (state === "offline") {
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
