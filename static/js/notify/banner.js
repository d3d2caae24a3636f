/* Sumito, the bell: the banner of a game that is ready ("Your game is ready. Go to your game"),
 * until it is followed or dismissed (dismissed ones are remembered for the tab's session). */
import { gettext } from "sumito/i18n.js";

// A ready game's banner is shown again on the next page while its first move may still be due.
const DEFAULT_FIRST_MOVE_SECONDS = 60;
const DISMISSED_KEY = "sumito-dismissed-banners";
const banner = document.getElementById("notification-banner");

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

/** The banner of a ready game; `onGo(event, doc)` handles a click on its link. */
export function showBanner(doc, onGo) {
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
  go.addEventListener("click", (event) => onGo(event, doc));
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
export function showWaitingGames(docs, onGo) {
  const skip = dismissed();
  for (const doc of docs) {
    if (doc.kind !== "game_started" || doc.read || skip.includes(doc.id)) continue;
    const subjects = doc.subjects || {};
    const dueSeconds = Number(subjects.first_move_seconds) || DEFAULT_FIRST_MOVE_SECONDS;
    if (Date.now() - Date.parse(doc.created) < dueSeconds * 1000) showBanner(doc, onGo);
  }
}
