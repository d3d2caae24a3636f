/* Sumito: the bell in the header, its panel, the banner of a game that is ready, the flashing
 * title and desktop alerts. Plain ES2019, no build step, loaded for logged-in players only.
 *
 * Messages (notifications.consumers): {"type": "notifications", "unread": n, "latest": [...]}
 * when a socket connects, then {"type": "notification", "notification": {...}, "unread": n} for
 * each new one and {"type": "unread", "unread": n} when some were marked read (in any tab). They
 * come from /ws/me/, which this script opens, except on a game page (<body data-live-socket=
 * "game">): there the game's socket carries them and game.js hands them to
 * window.SumitoNotify.receive, so a tab has one socket. Marking read goes over HTTP; the server's
 * count that comes back is what the badge shows. The database is the truth: a tab that missed a
 * push gets the newest again on its next connect, or from the API when the panel opens.
 */
(function () {
  "use strict";

  const API = "/api/v1/me/notifications/";
  const PANEL_SIZE = 10;
  // A ready game's banner is shown again on the next page while its first move may still be due.
  const DEFAULT_FIRST_MOVE_SECONDS = 60;
  const DISMISSED_KEY = "sumito-dismissed-banners";
  const NAVIGATE_AFTER_MS = 1500; // the longest a click waits for its "mark read" before leaving

  const $ = (id) => document.getElementById(id);
  const bell = $("notification-bell");
  const badge = $("notification-count");
  const panel = $("notification-panel");
  const panelList = $("notification-panel-list");
  const readAllButton = $("notification-read-all");
  const permissionRow = $("notification-permission");
  const permissionButton = $("notification-permission-button");
  const banner = $("notification-banner");
  const pageList = $("notification-list"); // the /notifications/ page
  const pageUnread = $("notifications-unread");

  const known = new Map(); // id -> notification document
  let loaded = false; // the panel has had the server's newest (socket snapshot or API)
  let unread = badge ? Number(badge.textContent) || 0 : 0;
  const originalTitle = document.title;
  let flashTimer = null;
  let flashLabel = "";

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

  // --- a game is ready: the banner ----------------------------------------------------------------

  function dismissed() {
    try {
      return JSON.parse(window.sessionStorage.getItem(DISMISSED_KEY) || "[]");
    } catch (storageError) {
      return [];
    }
  }

  function dismiss(id) {
    try {
      const ids = dismissed().concat([id]).slice(-50);
      window.sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(ids));
    } catch (storageError) {
      /* private mode: dismissed for this page only */
    }
  }

  function removeBanner(id) {
    if (!banner) return;
    const alert = banner.querySelector(`[data-id="${id}"]`);
    if (alert) alert.remove();
    banner.hidden = !banner.children.length;
  }

  function showBanner(doc) {
    if (!banner || !doc.url || banner.querySelector(`[data-id="${doc.id}"]`)) return;
    if (window.location.pathname === doc.url) return; // already on that game's page
    const alert = document.createElement("div");
    alert.className = "notify-alert";
    alert.setAttribute("role", "alert");
    alert.dataset.id = String(doc.id);
    const text = document.createElement("p");
    text.className = "notify-alert-text";
    const title = document.createElement("strong");
    title.textContent = `${gettext("Your game is ready.")} `;
    text.append(title, document.createTextNode(doc.text));
    const actions = document.createElement("div");
    actions.className = "notify-alert-actions";
    const go = document.createElement("a");
    go.className = "button notify-go";
    go.href = doc.url;
    go.textContent = gettext("Go to your game");
    go.addEventListener("click", (event) => openMarkingRead(event, doc.id, go.href, !doc.read));
    const close = document.createElement("button");
    close.type = "button";
    close.className = "secondary notify-dismiss";
    close.textContent = gettext("Dismiss");
    close.addEventListener("click", () => {
      dismiss(doc.id);
      removeBanner(doc.id);
    });
    actions.append(go, close);
    alert.append(text, actions);
    banner.append(alert);
    banner.hidden = false;
  }

  /** Unread ready games from a snapshot whose first move may still be due (a page opened
   * after the push, or a socket that was down when it came). */
  function showWaitingGames(docs) {
    const skip = dismissed();
    for (const doc of docs) {
      if (doc.kind !== "game_started" || doc.read || skip.includes(doc.id)) continue;
      const subjects = doc.subjects || {};
      const dueSeconds = Number(subjects.first_move_seconds) || DEFAULT_FIRST_MOVE_SECONDS;
      if (Date.now() - Date.parse(doc.created) < dueSeconds * 1000) showBanner(doc);
    }
  }

  // --- a background tab: the title and desktop alerts ---------------------------------------------

  function flashTitle(label) {
    flashLabel = label;
    if (flashTimer !== null) return;
    let marked = false;
    const tick = () => {
      marked = !marked;
      document.title = marked ? `(${unread}) ${flashLabel}` : originalTitle;
    };
    tick();
    flashTimer = window.setInterval(tick, 1000);
  }

  function stopFlashing() {
    if (flashTimer === null) return;
    window.clearInterval(flashTimer);
    flashTimer = null;
    document.title = originalTitle;
  }

  function desktopAlert(doc) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") return;
    const icon = document.querySelector("link[rel=icon]");
    try {
      const shown = new window.Notification("Sumito", {
        body: doc.text,
        tag: `sumito-notification-${doc.id}`, // one per notification, however many tabs are open
        icon: icon ? icon.href : undefined,
      });
      shown.addEventListener("click", () => {
        window.focus();
        shown.close();
        if (doc.url) goMarkingRead(doc.id, doc.url);
      });
    } catch (unsupported) {
      /* some mobile browsers show notifications only from a service worker */
    }
  }

  function showPermissionOffer() {
    if (!permissionRow) return;
    permissionRow.hidden = !("Notification" in window) || window.Notification.permission !== "default";
  }

  // --- messages -----------------------------------------------------------------------------------

  function isDocument(doc) {
    return doc !== null && typeof doc === "object" && typeof doc.id === "number" && typeof doc.text === "string";
  }

  function remember(docs) {
    for (const doc of docs) if (isDocument(doc)) known.set(doc.id, doc);
  }

  function receive(message) {
    if (!message || typeof message !== "object") return;
    // Other scripts of the page (the home page) hear every event of the socket too.
    document.dispatchEvent(new CustomEvent("sumito:live", { detail: message }));
    if (message.type === "notifications") {
      const latest = Array.isArray(message.latest) ? message.latest.filter(isDocument) : [];
      remember(latest);
      loaded = true;
      setUnread(message.unread);
      renderPanel();
      showWaitingGames(latest);
    } else if (message.type === "notification" && isDocument(message.notification)) {
      const doc = message.notification;
      const isNew = !known.has(doc.id);
      remember([doc]);
      setUnread(message.unread);
      renderPanel();
      if (!isNew) return;
      prependToPage(doc);
      const ready = doc.kind === "game_started" && doc.url;
      if (ready) showBanner(doc);
      if (document.hidden) {
        flashTitle(ready ? gettext("Your game is ready!") : gettext("New notification"));
        desktopAlert(doc);
      }
    } else if (message.type === "unread") {
      setUnread(message.unread);
    }
  }

  // --- talking to the server ------------------------------------------------------------------------

  const { csrfToken } = window.SumitoApi;

  /** Mark ids (all when null) read; resolves when the server has answered (or failed). */
  function markRead(ids, { keepalive = false } = {}) {
    return fetch(API + "read/", {
      method: "POST",
      credentials: "same-origin",
      keepalive,
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(ids ? { ids } : {}),
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => {
        if (!data) return;
        markShownRead(ids);
        setUnread(data.unread);
        renderPanel();
      })
      .catch(() => {
        /* offline: the notification stays unread, and says so */
      });
  }

  function loadLatest() {
    return fetch(`${API}?limit=${PANEL_SIZE}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
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
      showPermissionOffer();
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
        Promise.resolve(window.Notification.requestPermission()).then(showPermissionOffer, showPermissionOffer);
      });
    }
    if (panelList) panelList.addEventListener("click", onListClick);
  }

  // --- the socket (/ws/me/) ---------------------------------------------------------------------------

  let attempts = 0;

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    let socket;
    try {
      // The home page also hears the site's events (games starting and ending) on this socket.
      const topics = document.getElementById("home-live") ? "?topics=site" : "";
      socket = new WebSocket(scheme + window.location.host + "/ws/me/" + topics);
    } catch (refused) {
      return;
    }
    socket.addEventListener("open", () => {
      attempts = 0;
    });
    socket.addEventListener("message", (event) => {
      try {
        receive(JSON.parse(event.data));
      } catch (parseError) {
        /* not ours to read */
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4401) return; // logged out meanwhile: nothing to hear
      const delay = Math.min(30000, 1000 * 2 ** attempts) * (0.8 + Math.random() * 0.4);
      attempts += 1;
      window.setTimeout(connect, delay);
    });
  }

  // --- start ------------------------------------------------------------------------------------------

  window.SumitoNotify = { receive };
  bindPanel();
  if (pageList) pageList.addEventListener("click", onListClick);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) stopFlashing();
  });
  if (document.body.dataset.liveSocket !== "game") connect();
})();
