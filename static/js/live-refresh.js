/* Sumito: keep parts of a page live (a tournament's pages). Every few seconds the page is read
 * again and the elements whose ids its script tag lists in data-ids (space-separated) are
 * swapped for the new ones; data-every sets the period (ms). Forms being typed in are left alone.
 */
import { page } from "sumito/api.js";

// A module has no document.currentScript: its tag is the one that loaded this very file.
const tag = [...document.scripts].find((script) => script.src === import.meta.url);
const ids = (tag && tag.dataset.ids ? tag.dataset.ids : "").split(/\s+/).filter(Boolean);
const every = Number(tag && tag.dataset.every) || 5000;

async function refresh() {
  const active = document.activeElement;
  if (active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) return;
  try {
    const html = await page(window.location.href, { headers: { "X-Requested-With": "fetch" } });
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const id of ids) {
      const part = fresh.getElementById(id);
      const current = document.getElementById(id);
      if (part && current && part.innerHTML !== current.innerHTML) current.replaceWith(part);
    }
  } catch (error) {
    /* offline for a moment: the next tick tries again */
  }
}

if (ids.length) window.setInterval(refresh, every);
