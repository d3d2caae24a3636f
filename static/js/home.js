/* Sumito: the home page stays current without polling.
 *
 * The tab's one socket (/ws/me/?topics=site, live.js: for a visitor as for a player) says when
 * something happened (a notification, your move, a game started or ended), and the page reads
 * its live part again (GET /?part=live) and puts it in place; after a reconnection too, to
 * catch up on what was missed.
 */
import { page } from "sumito/api.js";
import { listen, subscribe } from "sumito/live.js";

const REFRESHING = new Set(["notification", "notifications", "turn", "site", "unread"]);
// The site's events are sent at most every few seconds: a second look a little later
// catches the changes that came after the one announced.
const SITE_SECOND_LOOK_MS = 4000;

function start(holder) {
  const url = holder.dataset.liveUrl;
  let timer = null;
  let busy = false;
  let again = false;
  let secondLook = null;

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    holder.classList.add("refreshing");
    try {
      const html = await page(url);
      const focused = document.activeElement && holder.contains(document.activeElement);
      if (!focused) holder.innerHTML = html; // never pull a form from under the player's hand
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

  subscribe((message) => {
    if (!REFRESHING.has(message.type)) return;
    schedule();
    if (message.type === "site") {
      window.clearTimeout(secondLook);
      secondLook = window.setTimeout(schedule, SITE_SECOND_LOOK_MS);
    }
  });
  listen({ onReconnect: schedule });
}

const holder = document.getElementById("home-live");
if (holder) start(holder);
