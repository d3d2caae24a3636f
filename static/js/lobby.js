/* Sumito: the lobby (/play/). Keeps the seek, challenge and game lists fresh, and takes the
 * challenger to the game as soon as someone accepts one of their challenges: at once when the
 * player's socket brings the "challenge accepted" notification, and by reading the challenge
 * every few seconds should that word be lost (the server is the only source of truth).
 */
import { call, page } from "sumito/api.js";
import { listen, subscribe } from "sumito/live.js";

const LISTS = ["seeks", "challenges", "ongoing", "my-games"];
const EVERY_MS = 3000;

/** The custom clock's minutes and increment, only while the clock chosen is "custom" (or
 * while one of them shows an error from the server). */
function bindCustomClock() {
  const preset = document.getElementById("id_preset");
  const customClock = document.getElementById("custom-clock");
  if (!preset || !customClock) return;
  preset.addEventListener("change", () => {
    customClock.hidden = preset.value !== "custom";
    if (!customClock.hidden) customClock.querySelector("input")?.focus();
  });
  // the browser may have restored the choice on the way back to the page
  if (preset.value === "custom") customClock.hidden = false;
}

async function refreshLists() {
  try {
    const html = await page(window.location.pathname, { headers: { "X-Requested-With": "fetch" } });
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const id of LISTS) {
      const list = fresh.getElementById(id);
      const current = document.getElementById(id);
      if (list && current) current.replaceWith(list);
    }
  } catch (error) {
    /* offline for a moment: try again on the next tick */
  }
}

async function checkMyChallenges(waiting) {
  for (const id of Array.from(waiting)) {
    let challenge;
    try {
      challenge = await call("GET", `/api/v1/challenges/${id}/`);
    } catch (error) {
      if (error.status) waiting.delete(id); // gone (or not ours): stop asking
      continue; // unreachable: try again later
    }
    if (!challenge) continue; // an answer without a body: asked again on the next tick
    if (challenge.status === "accepted" && challenge.game) {
      window.location.assign(`/games/${challenge.game}/`);
      return;
    }
    if (challenge.status !== "open") waiting.delete(id);
  }
}

/** The game of an accepted challenge of ours, as the socket tells it: go there now. */
function followAccepted(waiting) {
  subscribe((message) => {
    const note = message.type === "notification" ? message.notification : null;
    if (!note || note.kind !== "challenge_accepted") return;
    const subjects = note.subjects || {};
    if (!waiting.has(subjects.challenge) || !subjects.game) return;
    window.location.assign(`/games/${subjects.game}/`);
  });
  listen({ onReconnect: () => checkMyChallenges(waiting) });
}

function start(root) {
  bindCustomClock();
  const me = root.dataset.user || "";
  const waiting = new Set(JSON.parse(root.dataset.myChallenges || "[]"));
  if (me) followAccepted(waiting);
  window.setInterval(() => {
    refreshLists();
    if (me) checkMyChallenges(waiting);
  }, EVERY_MS);
}

const root = document.getElementById("lobby");
if (root) start(root);
