// Lobby: keep the seek, challenge and game lists fresh, and take the challenger to the game as
// soon as someone accepts one of their challenges (the server is the only source of truth).
(function () {
  "use strict";
  const root = document.getElementById("lobby");
  if (!root) return;

  // The custom clock's minutes and increment, only while the clock chosen is "custom" (or
  // while one of them shows an error from the server).
  const preset = document.getElementById("id_preset");
  const customClock = document.getElementById("custom-clock");
  if (preset && customClock) {
    preset.addEventListener("change", () => {
      customClock.hidden = preset.value !== "custom";
      if (!customClock.hidden) customClock.querySelector("input")?.focus();
    });
    // the browser may have restored the choice on the way back to the page
    if (preset.value === "custom") customClock.hidden = false;
  }

  const me = root.dataset.user || "";
  const waiting = new Set(JSON.parse(root.dataset.myChallenges || "[]"));

  async function refreshLists() {
    try {
      const response = await fetch(window.location.pathname, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const id of ["seeks", "challenges", "ongoing", "my-games"]) {
        const fresh = page.getElementById(id);
        const current = document.getElementById(id);
        if (fresh && current) current.replaceWith(fresh);
      }
    } catch (error) {
      /* offline for a moment: try again on the next tick */
    }
  }

  async function checkMyChallenges() {
    for (const id of Array.from(waiting)) {
      try {
        const response = await fetch(`/api/v1/challenges/${id}/`);
        if (!response.ok) { waiting.delete(id); continue; }
        const challenge = await response.json();
        if (challenge.status === "accepted" && challenge.game) {
          window.location.assign(`/games/${challenge.game}/`);
          return;
        }
        if (challenge.status !== "open") waiting.delete(id);
      } catch (error) { /* try again later */ }
    }
  }

  setInterval(() => { refreshLists(); if (me) checkMyChallenges(); }, 3000);
})();
