/* Sumito: the projector view of a tournament (tournaments.printouts.projector). Shows its
 * screens in turn (the round's pairings, then the standings, a screenful of rows each),
 * data-cycle seconds each, and reads the page again every few seconds so that results and new
 * rounds appear by themselves. */
const root = document.getElementById("projector");
const cycle = (Number(root && root.dataset.cycle) || 15) * 1000;
let shown = 0;

function screens() {
  return [...root.querySelectorAll(".screen")];
}

function show(index) {
  const all = screens();
  if (!all.length) return;
  shown = index % all.length;
  all.forEach((screen, at) => {
    screen.hidden = at !== shown;
  });
}

async function refresh() {
  try {
    const answer = await fetch(window.location.href, {
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    });
    if (!answer.ok) return;
    const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
    const next = fresh.getElementById("projector");
    if (!next) return;
    const ids = (element) => [...element.querySelectorAll(".screen")].map((s) => s.id).join(" ");
    if (ids(next) !== ids(root)) {
      // another round or another number of screens: take the new ones, start from the first
      root.innerHTML = next.innerHTML;
      show(0);
      return;
    }
    for (const screen of screens()) {
      const part = next.querySelector(`#${CSS.escape(screen.id)}`);
      if (part && part.innerHTML !== screen.innerHTML) screen.innerHTML = part.innerHTML;
    }
  } catch (error) {
    /* the hall's network hiccups: the next tick tries again */
  }
}

if (root) {
  show(0);
  window.setInterval(() => show(shown + 1), cycle);
  window.setInterval(refresh, 5000);
}
