/* Sumito: the bell in the header, its panel, the banner of a game that is ready, the flashing
 * title and desktop alerts. Loaded for logged-in players only.
 *
 * Messages (notifications.consumers): {"type": "notifications", "unread": n, "latest": [...]}
 * when a socket connects, then {"type": "notification", "notification": {...}, "unread": n} for
 * each new one and {"type": "unread", "unread": n} when some were marked read (in any tab). They
 * are the tab's live events (live.js): from /ws/me/, which this script asks for, except on a
 * game page (<body data-live-socket="game">), where the game's socket carries them, so a tab
 * has one socket. Marking read goes over HTTP; the server's count that comes back is what the
 * badge shows. The database is the truth: a tab that missed a push gets the newest again on its
 * next connect, or from the API when the panel opens.
 */
import { call } from "sumito/api.js";
import { gettext, interpolate, ngettext } from "sumito/i18n.js";
import { listen, subscribe } from "sumito/live.js";
import { desktopAlert, flashTitle, showPermissionOffer, stopFlashing } from "sumito/notify/alerts.js";
import { showBanner, showWaitingGames } from "sumito/notify/banner.js";

const API = "/api/v1/me/notifications/";
const PANEL_SIZE = 10;
const NAVIGATE_AFTER_MS = 1500; // the longest a click waits for its "mark read" before leaving

const $ = (id) => document.getElementById(id);
const bell = $("notification-bell");
const badge = $("notification-count");
const panel = $("notification-panel");
const panelList = $("notification-panel-list");
const readAllButton = $("notification-read-all");
const permissionRow = $("notification-permission");
const permissionButton = $("notification-permission-button");
const pageList = $("notification-list"); // the /notifications/ page
const pageUnread = $("notifications-unread");

const known = new Map(); // id -> notification document
let loaded = false; // the panel has had the server's newest (socket snapshot or API)
let unread = badge ? Number(badge.textContent) || 0 : 0;

// --- drawing ----------------------------------------------------------------------------------

function setUnread(count) {
  if (typeof count !== "number" || count < 0) return;
  unread = count;
  if (badge) {
    badge.textContent = count > 99 ? "99+" : String(count);
    badge.hidden = count === 0;
  }
  if (bell) {
    bell.setAttribute("aria-label", count
      ? interpolate(ngettext("Notifications, %(count)s unread", "Notifications, %(count)s unread", count), { count }, true)
      : gettext("Notifications"));
  }
  if (readAllButton) readAllButton.disabled = count === 0;
  if (pageUnread) pageUnread.textContent = String(count);
  if (count === 0) markShownRead(null);
}

/** Mark ids (all when null) read in the panel and on the list page. */
function markShownRead(ids) {
  for (const doc of known.values()) {
    if (ids === null || ids.includes(doc.id)) doc.read = true;
  }
  for (const item of document.querySelectorAll("[data-id].unread")) {
    if (ids === null || ids.includes(Number(item.dataset.id))) item.classList.remove("unread");
  }
}

function newestFirst(a, b) {
  if (a.created !== b.created) return a.created < b.created ? 1 : -1;
  return b.id - a.id;
}

function ago(iso) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const seconds = (Date.now() - at) / 1000;
  if (seconds < 60) return gettext("just now");
  if (seconds < 3600) return interpolate(gettext("%(minutes)s min ago"), { minutes: Math.floor(seconds / 60) }, true);
  if (seconds < 86400) return interpolate(gettext("%(hours)s h ago"), { hours: Math.floor(seconds / 3600) }, true);
  return new Date(at).toLocaleDateString(document.documentElement.lang || []);
}

function renderPanel() {
  if (!panelList) return;
  const docs = [...known.values()].sort(newestFirst).slice(0, PANEL_SIZE);
  const items = docs.map((doc) => {
    const item = document.createElement("li");
    item.className = "notify-entry" + (doc.read ? "" : " unread");
    item.dataset.id = String(doc.id);
    item.dataset.kind = doc.kind;
    const body = document.createElement(doc.url ? "a" : "div");
    body.className = "notify-entry-body";
    if (doc.url) body.href = doc.url;
    const marker = document.createElement("span");
    marker.className = "notify-unread-mark";
    marker.textContent = `${gettext("Unread:")} `;
    const text = document.createElement("span");
    text.className = "notify-entry-text";
    text.textContent = doc.text;
    const time = document.createElement("time");
    time.className = "notify-entry-time";
    time.dateTime = doc.created;
    time.textContent = ago(doc.created);
    body.append(marker, text, time);
    item.append(body);
    return item;
  });
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "notify-empty muted";
    empty.textContent = loaded ? gettext("No notifications yet.") : gettext("Loading…");
    items.push(empty);
  }
  panelList.replaceChildren(...items);
}

/** A new notification on the list page (its first page only), as the page draws one. */
function prependToPage(doc) {
  if (!pageList || pageList.querySelector(`[data-id="${doc.id}"]`)) return;
  const pageNumber = new URLSearchParams(window.location.search).get("page");
  if (pageNumber && pageNumber !== "1") return;
  const placeholder = pageList.querySelector("li:not([data-id])");
  if (placeholder) placeholder.remove();
  const item = document.createElement("li");
  item.className = "notification" + (doc.read ? "" : " unread");
  item.dataset.id = String(doc.id);
  item.dataset.kind = doc.kind;
  if (doc.url) {
    const link = document.createElement("a");
    link.href = doc.url;
    link.textContent = doc.text;
    item.append(link);
  } else {
    item.append(document.createTextNode(doc.text));
  }
  const time = document.createElement("time");
  time.className = "muted";
  time.dateTime = doc.created;
  time.textContent = doc.created.slice(0, 16).replace("T", " ");
  item.append(" ", time);
  pageList.prepend(item);
}

// --- messages -----------------------------------------------------------------------------------

function isDocument(doc) {
  return doc !== null && typeof doc === "object" && typeof doc.id === "number" && typeof doc.text === "string";
}

function remember(docs) {
  for (const doc of docs) if (isDocument(doc)) known.set(doc.id, doc);
}

function receive(message) {
  if (message.type === "notifications") {
    const latest = Array.isArray(message.latest) ? message.latest.filter(isDocument) : [];
    remember(latest);
    loaded = true;
    setUnread(message.unread);
    renderPanel();
    showWaitingGames(latest, followBanner);
  } else if (message.type === "notification" && isDocument(message.notification)) {
    const doc = message.notification;
    const isNew = !known.has(doc.id);
    remember([doc]);
    setUnread(message.unread);
    renderPanel();
    if (!isNew) return;
    prependToPage(doc);
    const ready = doc.kind === "game_started" && doc.url;
    if (ready) showBanner(doc, followBanner);
    if (document.hidden) {
      flashTitle(ready ? gettext("Your game is ready!") : gettext("New notification"), () => unread);
      desktopAlert(doc, (clicked) => {
        if (clicked.url) goMarkingRead(clicked.id, clicked.url);
      });
    }
  } else if (message.type === "unread") {
    setUnread(message.unread);
  }
}

// --- talking to the server ------------------------------------------------------------------------

/** Mark ids (all when null) read; resolves when the server has answered (or failed). */
function markRead(ids, { keepalive = false } = {}) {
  return call("POST", `${API}read/`, ids ? { ids } : {}, { keepalive })
    .then((data) => {
      if (!data) return;
      markShownRead(ids);
      setUnread(data.unread);
      renderPanel();
    })
    .catch(() => {
      /* offline or refused: the notification stays unread, and says so */
    });
}

function loadLatest() {
  return call("GET", `${API}?limit=${PANEL_SIZE}`)
    .then((data) => {
      if (!data || !Array.isArray(data.results)) return;
      remember(data.results);
      loaded = true;
      setUnread(data.unread);
      renderPanel();
    })
    .catch(() => {
      /* offline: the panel keeps what it has */
    });
}

/** Follow a link to an unread notification after marking it read, so the page it opens
 * counts it read; a click that opens another tab or window just marks it on the way. */
function openMarkingRead(event, id, href, isUnread) {
  if (!isUnread) return;
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
    markRead([id], { keepalive: true });
    return;
  }
  event.preventDefault();
  goMarkingRead(id, href);
}

function goMarkingRead(id, href) {
  const waited = new Promise((resolve) => window.setTimeout(resolve, NAVIGATE_AFTER_MS));
  Promise.race([markRead([id], { keepalive: true }), waited]).then(() => window.location.assign(href));
}

/** A click on a ready game's banner link. */
function followBanner(event, doc) {
  openMarkingRead(event, doc.id, new URL(doc.url, window.location.href).href, !doc.read);
}

function onListClick(event) {
  const link = event.target.closest("a[href]");
  const item = link && link.closest("[data-id]");
  if (!item) return;
  openMarkingRead(event, Number(item.dataset.id), link.href, item.classList.contains("unread"));
}

// --- the panel ----------------------------------------------------------------------------------

function panelOpen() {
  return Boolean(panel) && !panel.hidden;
}

function setPanel(open) {
  if (!panel || !bell) return;
  panel.hidden = !open;
  bell.setAttribute("aria-expanded", String(open));
  if (open) {
    showPermissionOffer(permissionRow);
    renderPanel();
    loadLatest(); // the server's word on what is read, whatever this tab missed
  }
}

function bindPanel() {
  if (!bell || !panel) return;
  bell.setAttribute("role", "button");
  bell.setAttribute("aria-expanded", "false");
  bell.addEventListener("click", (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setPanel(!panelOpen());
  });
  bell.addEventListener("keydown", (event) => {
    if (event.key === " ") { // a button opens on Space too; a link would scroll
      event.preventDefault();
      setPanel(!panelOpen());
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panelOpen()) {
      setPanel(false);
      bell.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (panelOpen() && !panel.contains(event.target) && !bell.contains(event.target)) setPanel(false);
  });
  if (readAllButton) readAllButton.addEventListener("click", () => markRead(null));
  if (permissionButton) {
    permissionButton.addEventListener("click", () => {
      // Asked only here, from the player's click, as browsers require.
      const offer = () => showPermissionOffer(permissionRow);
      Promise.resolve(window.Notification.requestPermission()).then(offer, offer);
    });
  }
  if (panelList) panelList.addEventListener("click", onListClick);
}

// --- start ------------------------------------------------------------------------------------------

bindPanel();
if (pageList) pageList.addEventListener("click", onListClick);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) stopFlashing();
});
subscribe(receive);
listen();
