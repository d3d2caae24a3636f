/* Sumito: the pages' WebSockets (a game, a table, the tables' lobby, the player's /ws/me/).
 *
 *   const socket = openSocket(path, {
 *     onMessage(message),   every message, parsed; a handler that throws is reported, and the
 *                           socket goes on with the next message;
 *     missed(message),      true when the page lacks an earlier event this message builds on
 *                           (a version or ply gap): the message is dropped and refetch() called;
 *     refetch(),            read the page's state again: after every reconnection (whatever was
 *                           missed while away) and on a gap;
 *     onStatus(status),     { state, reconnecting, delay, code }: state "connecting", "live",
 *                           "offline" (retrying in `delay` ms), "closed" (the server said not
 *                           to come back: `code`) or "refused" (the browser would not open it);
 *     baseDelay, maxDelay,  the back-off: baseDelay × 2^attempts, at most maxDelay, ±20 %;
 *   });
 *   socket.live()  whether it is open now;  socket.send(object);  socket.close()  for good.
 *
 * Close codes (abalone_site.routing and the consumers): 4401 (nobody to listen for: logged out),
 * 4403 (not allowed) and 4404 (no such game or table) are final; 4503 (the server cannot reach
 * its live-update service) keeps backing off although the handshake had succeeded, until a
 * message proves the service back; any other close reconnects with back-off.
 */

const FINAL_CODES = new Set([4401, 4403, 4404]);
const UNAVAILABLE = 4503;
const OPEN = 1; // WebSocket.OPEN, spelled out: a wrapped WebSocket (a test's spy) may lack it

/** The URL of a socket path on this site (ws: or wss: as the page). */
export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  return scheme + window.location.host + path;
}

/** A handler's failure must not stop the page: reported, not swallowed. */
export function guarded(handler, ...args) {
  try {
    return handler(...args);
  } catch (error) {
    window.setTimeout(() => { throw error; });
    return undefined;
  }
}

export function openSocket(path, {
  onMessage = () => {},
  missed = () => false,
  refetch = () => {},
  onStatus = () => {},
  baseDelay = 500,
  maxDelay = 15000,
} = {}) {
  let socket = null;
  let attempts = 0; // failed connections in a row: the back-off's exponent
  let unavailable = 0; // 4503 closes since the live service last answered
  let everConnected = false;
  let timer = null;
  let stopped = false;

  function status(state, extra = {}) {
    guarded(onStatus, { state, reconnecting: everConnected, ...extra });
  }

  function connect() {
    window.clearTimeout(timer);
    if (stopped) return;
    status("connecting");
    try {
      socket = new WebSocket(socketUrl(path));
    } catch (refused) { // a malformed URL or a policy refusal: trying again changes nothing
      socket = null;
      status("refused");
      return;
    }
    socket.addEventListener("open", onOpen);
    socket.addEventListener("message", onSocketMessage);
    socket.addEventListener("close", onClose);
  }

  function onOpen() {
    const reconnected = everConnected;
    everConnected = true;
    attempts = 0;
    status("live");
    if (reconnected) guarded(refetch); // anything missed while away
  }

  function onSocketMessage(event) {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (parseError) {
      return; // not ours to read
    }
    if (!message || typeof message !== "object") return;
    unavailable = 0; // the live service answers again
    if (guarded(missed, message)) guarded(refetch);
    else guarded(onMessage, message);
  }

  function onClose(event) {
    socket = null;
    if (stopped) return;
    if (FINAL_CODES.has(event.code)) {
      status("closed", { code: event.code });
      return;
    }
    // Accepted, then closed: "open" reset the attempts; keep backing off instead of retrying
    // every half second while the service is down.
    if (event.code === UNAVAILABLE) attempts = Math.max(attempts, unavailable++);
    const delay = Math.min(maxDelay, baseDelay * 2 ** attempts) * (0.8 + Math.random() * 0.4);
    attempts += 1;
    status("offline", { delay, code: event.code });
    timer = window.setTimeout(connect, delay);
  }

  connect();

  return {
    live: () => Boolean(socket) && socket.readyState === OPEN,
    send(object) {
      if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(object));
    },
    close() {
      stopped = true;
      window.clearTimeout(timer);
      if (socket) socket.close();
    },
  };
}

/**
 * Ask for the page's state when its socket has been quiet. An event is published by the web
 * process that committed the change, after the commit; one that dies between the two (its host
 * killed) leaves the sockets on other hosts open with no gap to see, since nothing comes after
 * the lost event (the multi-host rehearsal, bench/hosts.py, found a player waiting for a move
 * the database had, their own clock running). So while active(), ask() is called when nothing
 * was heard for `after` ms; the pause doubles each time (up to `max`: an idle correspondence
 * game costs a message every few minutes) and is `after` again once the page has news.
 *
 *   const quiet = whenQuiet({ active, ask, after, max });
 *   quiet.heard(news)   a message came (news: it moved the game on); the quiet counts from now.
 */
export function whenQuiet({ active, ask, after = 10000, max = 300000 }) {
  let delay = after;
  let timer = null;
  function arm() {
    window.clearTimeout(timer);
    timer = null;
    if (!guarded(active)) return;
    timer = window.setTimeout(() => {
      timer = null;
      if (!guarded(active)) return; // over meanwhile (an answer over HTTP)
      guarded(ask);
      delay = Math.min(max, delay * 2);
      arm();
    }, delay);
  }
  return {
    heard(news) {
      if (news) delay = after;
      arm();
    },
  };
}
