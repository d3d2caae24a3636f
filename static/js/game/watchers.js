/* Sumito: how many spectators watch the live game ("2 watching"; hidden when none).
 * The game's socket sends {"type": "watchers", "game": id, "count": n} to a
 * player on connect, and to every socket on the game whenever the count changes
 * (games.watchers).
 */
import { interpolate, ngettext } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const badge = document.getElementById("watchers");
  if (!game || !badge) return;

  game.onMessage((message) => {
    if (message.type !== "watchers" || message.game !== game.state().id) return;
    const count = Math.max(0, Number(message.count) || 0);
    badge.textContent = interpolate(ngettext("%(count)s watching", "%(count)s watching", count), { count }, true);
    badge.dataset.count = String(count);
    badge.hidden = count === 0;
  });
}

start();
