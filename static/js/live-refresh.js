// Keep parts of a page live: every few seconds, fetch the page again and swap the elements whose
// ids the script tag lists in data-ids (space-separated). Forms being typed in are left alone.
(function () {
  "use strict";
  const script = document.currentScript;
  const ids = (script && script.dataset.ids ? script.dataset.ids : "").split(/\s+/).filter(Boolean);
  const every = Number(script && script.dataset.every) || 5000;
  if (!ids.length) return;

  async function refresh() {
    const active = document.activeElement;
    if (active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) return;
    try {
      const response = await fetch(window.location.href, { headers: { "X-Requested-With": "fetch" } });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const id of ids) {
        const fresh = page.getElementById(id);
        const current = document.getElementById(id);
        if (fresh && current && fresh.innerHTML !== current.innerHTML) current.replaceWith(fresh);
      }
    } catch (error) {
      /* offline for a moment: the next tick tries again */
    }
  }
  setInterval(refresh, every);
})();
