/* Sumito: the live events of the tab, whichever socket brings them.
 *
 * A tab has one socket that carries the player's events (notifications, the unread count,
 * analyses, and on the home page the site's events): the game's own on a game page (<body
 * data-live-socket="game">, see game/live.js), else /ws/me/, opened here by listen() for the
 * scripts that need it (the bell, the home page). Every event is published on the document as
 * a "sumito:live" CustomEvent (detail: the message), which any script of the page may hear:
 *
 *   publish(message)     hand an event to the page;
 *   subscribe(fn)        fn(message) for every event; returns the function that stops it;
 *   listen({ onReconnect })  open /ws/me/ if this page has no other socket for these events (once
 *                        per tab, however many scripts ask); onReconnect() after a reconnection.
 */
import { guarded, openSocket } from "sumito/socket.js";

const EVENT = "sumito:live";

export function publish(message) {
  document.dispatchEvent(new CustomEvent(EVENT, { detail: message }));
}

export function subscribe(fn) {
  const listener = (event) => guarded(fn, event.detail || {});
  document.addEventListener(EVENT, listener);
  return () => document.removeEventListener(EVENT, listener);
}

const reconnectListeners = [];
let socket = null;

export function listen({ onReconnect = null } = {}) {
  if (onReconnect) reconnectListeners.push(onReconnect);
  if (socket || document.body.dataset.liveSocket === "game") return;
  // The home page also hears the site's events (games starting and ending) on this socket.
  const topics = document.getElementById("home-live") ? "?topics=site" : "";
  socket = openSocket(`/ws/me/${topics}`, {
    onMessage: publish,
    refetch: () => reconnectListeners.forEach((fn) => guarded(fn)),
    baseDelay: 1000,
    maxDelay: 30000,
  });
}
