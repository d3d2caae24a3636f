/* Sumito: the result page of an analysis (/analysis/<id>/).
 *
 * The page embeds the analysis document; while it is queued or running the page reads it again
 * every half second and draws what has arrived. A game's analysis is drawn as a chart of the
 * evaluation after each ply (an SVG polyline, Black's view, in marbles, cut at +-5 so one push-off
 * does not flatten the rest), with the plies of the biggest drops as red dots, listed under the
 * chart with a link that opens the game on the analysis board at that ply. Clicking the chart (or
 * the arrow keys on it) picks a ply and offers the same link (chart.js draws it). A position's analysis is
 * drawn as its table of lines.
 */
import { COLOUR_NAME } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { FINAL, follow } from "sumito/analysis/follow.js";
import { drawChart as chartOf, pointTitle } from "sumito/analysis/chart.js";
import { element, formatScore, renderLines } from "sumito/analysis/lines.js";

const $ = (id) => document.getElementById(id);

const root = $("analysis-result");
const data = $("analysis-doc");
let doc = root && data ? JSON.parse(data.textContent) : null;
let picked = null; // the ply picked on the chart

/** The analysis board on the game, at the position after `ply` (the game's moves on it). */
const boardLink = (ply) => `${root.dataset.boardUrl}?game=${doc.game}&ply=${ply}`;
const mover = (ply) => {
  const before = doc.evaluations.find((entry) => entry.ply === ply - 1);
  return before ? before.position[0] : "";
};

function drawChart() {
  const chart = chartOf($("chart"), doc, { onPick: pick });
  if (picked !== null) {
    chart.mark(picked);
    pick(picked);
  }
}

function pick(ply) {
  const entry = doc.evaluations.find((item) => item.ply === ply);
  if (!entry) return;
  picked = ply;
  const caption = $("chart-pick");
  caption.replaceChildren(`${pointTitle(entry)} · `,
    element("a", { href: boardLink(ply), id: "chart-pick-link" }, gettext("Open on the analysis board")));
  caption.dataset.ply = String(ply);
}

function drawDrops() {
  const list = $("drops");
  list.replaceChildren();
  const done = doc.status === "done";
  $("drops-empty").hidden = !done || doc.drops.length > 0;
  for (const ply of doc.drops) {
    const after = doc.evaluations.find((entry) => entry.ply === ply);
    const before = doc.evaluations.find((entry) => entry.ply === ply - 1);
    if (!after || !before) continue;
    const text = format(gettext("ply %(ply)s (%(move)s, %(colour)s), from %(before)s to %(after)s"), {
      ply, move: after.move, colour: COLOUR_NAME[mover(ply)] || "?",
      before: formatScore(before.score), after: formatScore(after.score),
    });
    const link = element("a", { href: boardLink(ply), "data-ply": String(ply), class: "drop-link" }, text);
    link.title = gettext("Open the position after this move on the analysis board");
    list.appendChild(element("li")).appendChild(link);
  }
}

function drawPosition() {
  renderLines($("lines-body"), doc.lines);
  const best = $("best-move");
  best.textContent = doc.best ? format(gettext("Best move: %(move)s"), { move: doc.best }) : "";
}

function drawStatus(error = "") {
  root.dataset.status = doc.status;
  const progress = $("result-progress");
  progress.replaceChildren();
  const note = $("result-status");
  note.classList.remove("error");
  if (!FINAL.has(doc.status)) {
    const text = doc.status === "queued" ? gettext("Waiting for the engine…")
      : doc.kind === "game" ? format(gettext("Evaluating the game… %(count)s positions so far"), { count: doc.evaluations.length })
        : gettext("Searching…");
    progress.append(element("span", { class: "spinner", "aria-hidden": "true" }), element("span", {}, text));
  }
  if (error) {
    note.textContent = error;
    note.classList.add("error");
  } else if (doc.status === "failed") {
    note.textContent = format(gettext("The analysis failed: %(error)s"), { error: doc.error || "?" });
    note.classList.add("error");
  } else {
    note.textContent = doc.status === "done" && doc.kind === "game"
      ? format(gettext("%(count)s positions evaluated."), { count: doc.evaluations.length }) : "";
  }
}

function draw(next) {
  doc = next;
  drawStatus();
  if (doc.kind === "game") {
    drawChart();
    drawDrops();
  } else {
    drawPosition();
  }
}

if (doc) {
  follow(root.dataset.apiUrl, doc, draw, (error) => drawStatus(error.message));
  root.dataset.ready = "true";
}
