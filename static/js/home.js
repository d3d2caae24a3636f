/*
 * The home page stays current without polling: the tab's one socket (/ws/me/?topics=site,
 * opened by notify.js for a logged-in player, by this script for a visitor) says when something
 * happened (a notification, your move, a game started or ended), and the page fetches its live
 * part again (GET /?part=live) and puts it in place.
 */
(function () {
  "use strict";

  const holder = document.getElementById("home-live");
  if (!holder) return;
  const url = holder.dataset.liveUrl;
  const REFRESHING = new Set(["notification", "notifications", "turn", "site", "unread"]);
  let timer = null;
  let busy = false;
  let again = false;

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    holder.classList.add("refreshing");
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok) {
        const html = await response.text();
        const focused = document.activeElement && holder.contains(document.activeElement);
        if (!focused) holder.innerHTML = html; // never pull a form from under the player's hand
      }
    } catch (offline) {
      /* the next event tries again */
    } finally {
      busy = false;
      holder.classList.remove("refreshing");
      holder.dataset.refreshed = String(Date.now());
      if (again) {
        again = false;
        schedule();
      }
    }
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 250); // a burst of events is one fetch
  }

  // The site's events are sent at most every few seconds: a second look a little later
  // catches the changes that came after the one announced.
  const SITE_SECOND_LOOK_MS = 4000;
  let secondLook = null;

  document.addEventListener("sumito:live", (event) => {
    const message = event.detail || {};
    if (!REFRESHING.has(message.type)) return;
    schedule();
    if (message.type === "site") {
      window.clearTimeout(secondLook);
      secondLook = window.setTimeout(schedule, SITE_SECOND_LOOK_MS);
    }
  });

  // A visitor has no notify.js: this page opens the site's socket itself.
  if (!window.SumitoNotify && !document.querySelector('script[src*="notify.js"]')) {
    let attempts = 0;
    const connect = () => {
      const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      const socket = new WebSocket(scheme + window.location.host + "/ws/me/?topics=site");
      socket.addEventListener("open", () => {
        if (attempts > 0) schedule(); // back after a gap: catch up
        attempts = 0;
      });
      socket.addEventListener("message", (event) => {
        try {
          const message = JSON.parse(event.data);
          document.dispatchEvent(new CustomEvent("sumito:live", { detail: message }));
        } catch (parseError) {
          /* not ours */
        }
      });
      socket.addEventListener("close", () => {
        attempts += 1;
        window.setTimeout(connect, Math.min(30000, 1000 * 2 ** attempts));
      });
    };
    connect();
  }
})();
