/* Sumito: quick play on the home page (lichess's quick pairing; docs/live-games.md).
 *
 * One click on a clock joins its pool (POST /api/v1/pools/join/); the card then says it is
 * looking for an opponent, with the time waited and a cancel button, until the player's socket
 * says the game is ready ({"type": "game_ready", "url": ...}, live.js), and the page goes there.
 * The pools are read again every few seconds, which keeps the waiting counts current and catches
 * a pairing whose word the socket lost (the player's seek then says "paired" and names the game).
 * Leaving the page leaves the pool.
 */
import { call } from "sumito/api.js";
import { format, gettext, ngettext } from "sumito/i18n.js";
import { listen, subscribe } from "sumito/live.js";

const EVERY_MS = 3000;

function start(card) {
  const status = card.querySelector("#pool-status");
  const statusText = card.querySelector("#pool-status-text");
  const cancel = card.querySelector("#pool-cancel");
  const buttons = new Map(
    Array.from(card.querySelectorAll("button[data-pool]"), (button) => [button.dataset.pool, button]),
  );
  const labels = new Map(Array.from(buttons, ([key, button]) => [key, button.dataset.label]));
  let waitingIn = null; // the pool this player waits in, or null
  let since = 0;
  let gone = false;

  function go(url) {
    if (gone || !url) return;
    gone = true;
    window.location.assign(url);
  }

  function show(mine) {
    waitingIn = mine && mine.status === "waiting" ? mine.pool : null;
    if (mine && mine.status === "paired" && mine.url && waitingIn === null && since) go(mine.url);
    for (const [key, button] of buttons) {
      button.setAttribute("aria-pressed", String(key === waitingIn));
      button.classList.toggle("searching", key === waitingIn);
    }
    status.hidden = waitingIn === null;
    if (waitingIn !== null && !since) since = Date.parse(mine.joined_at) || Date.now();
    if (waitingIn === null) since = 0;
    tick();
  }

  function tick() {
    if (waitingIn === null) return;
    const seconds = Math.max(0, Math.round((Date.now() - since) / 1000));
    statusText.textContent = format(gettext("Looking for an opponent for %(clock)s… %(seconds)s s"), {
      clock: labels.get(waitingIn) || waitingIn,
      seconds,
    });
  }

  function showCounts(pools) {
    for (const pool of pools) {
      const count = card.querySelector(`[data-waiting="${pool.key}"]`);
      if (!count) continue;
      count.textContent = pool.waiting
        ? format(ngettext("%(count)s waiting", "%(count)s waiting", pool.waiting), { count: pool.waiting })
        : "";
    }
  }

  function showError(error) {
    status.hidden = false;
    statusText.textContent = error.message || gettext("The server could not be reached; try again.");
  }

  async function refresh() {
    try {
      const answer = await call("GET", card.dataset.pools);
      showCounts(answer.pools);
      show(answer.mine);
    } catch (error) {
      /* offline for a moment: the next tick tries again */
    }
  }

  for (const [key, button] of buttons) {
    button.addEventListener("click", async () => {
      if (button.dataset.login) return; // a link for visitors
      try {
        since = Date.now();
        const answer = await call("POST", card.dataset.join, { pool: key });
        showCounts(answer.pools);
        show(answer.mine);
        if (answer.mine && answer.mine.status === "paired") go(answer.mine.url);
      } catch (error) {
        since = 0;
        showError(error);
      }
    });
  }
  cancel.addEventListener("click", async () => {
    try {
      const answer = await call("POST", card.dataset.leave);
      since = 0;
      show(answer.mine && answer.mine.status === "waiting" ? answer.mine : null);
    } catch (error) {
      showError(error);
    }
  });
  window.addEventListener("pagehide", () => {
    if (waitingIn !== null && !gone) call("POST", card.dataset.leave, null, { keepalive: true }).catch(() => {});
  });
  subscribe((message) => {
    if (message.type === "game_ready") go(message.url);
  });
  listen({ onReconnect: refresh });
  window.setInterval(refresh, EVERY_MS);
  window.setInterval(tick, 1000);
  refresh();
}

const card = document.getElementById("quick-play");
if (card && card.dataset.join) start(card);
