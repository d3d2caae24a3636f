/* Sumito: the result page of an analysis (/analysis/<id>/).
 *
 * The page embeds the analysis document; while it is queued or running the page reads it again
 * every half second and draws what has arrived. A game's analysis is drawn as a chart of the
 * evaluation after each ply (an SVG polyline, Black's view, in marbles, cut at +-5 so one push-off
 * does not flatten the rest), with the plies of the biggest drops as red dots, listed under the
 * chart with a link that opens the position after that ply on the analysis board. Clicking the
 * chart (or the arrow keys on it) picks a ply and offers the same link. A position's analysis is
 * drawn as its table of lines.
 */
import { COLOUR_NAME } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { FINAL, follow } from "sumito/analysis/follow.js";
import { element, formatScore, renderLines } from "sumito/analysis/lines.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARBLE = 1000;
const CLAMP = 5; // marbles
const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 40, right: 14, top: 12, bottom: 30 };
const PLOT_WIDTH = WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = HEIGHT - PAD.top - PAD.bottom;
const $ = (id) => document.getElementById(id);

const root = $("analysis-result");
const data = $("analysis-doc");
let doc = root && data ? JSON.parse(data.textContent) : null;
let picked = null; // the ply picked on the chart

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

const lastPly = () => Math.max(1, ...doc.evaluations.map((entry) => entry.ply));
const x = (ply) => PAD.left + (ply / lastPly()) * PLOT_WIDTH;
const marbles = (score) => Math.max(-CLAMP, Math.min(CLAMP, score / MARBLE));
const y = (score) => PAD.top + ((CLAMP - marbles(score)) / (2 * CLAMP)) * PLOT_HEIGHT;
const boardLink = (position) => `${root.dataset.boardUrl}?position=${encodeURIComponent(position)}`;
const mover = (ply) => {
  const before = doc.evaluations.find((entry) => entry.ply === ply - 1);
  return before ? before.position[0] : "";
};

/** Plies between the labels of the x axis: about eight labels, on round numbers. */
function tickStep(plies) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100]) if (plies / step <= 8) return step;
  return 200;
}

function drawChart() {
  const box = $("chart");
  const evaluations = doc.evaluations;
  box.replaceChildren();
  box.dataset.points = String(evaluations.length);
  if (!evaluations.length) return;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart-svg", tabindex: "0",
    "aria-label": gettext("Evaluation chart: use the arrow keys to pick a move") });
  svg("rect", { class: "plot-area", x: PAD.left, y: PAD.top, width: PLOT_WIDTH, height: PLOT_HEIGHT }, chart);
  const grid = svg("g", { class: "grid", "aria-hidden": "true" }, chart);
  for (const level of [CLAMP, CLAMP / 2, 0, -CLAMP / 2, -CLAMP]) {
    const height = y(level * MARBLE);
    svg("line", { class: level === 0 ? "zero" : "", x1: PAD.left, x2: WIDTH - PAD.right, y1: height, y2: height }, grid);
    const label = svg("text", { x: PAD.left - 6, y: height, "text-anchor": "end", "dominant-baseline": "central" }, grid);
    label.textContent = level > 0 ? `+${level}` : String(level);
  }
  const step = tickStep(lastPly());
  for (let ply = 0; ply <= lastPly(); ply += step) {
    svg("line", { class: "tick", x1: x(ply), x2: x(ply), y1: PAD.top + PLOT_HEIGHT, y2: PAD.top + PLOT_HEIGHT + 4 }, grid);
    const label = svg("text", { x: x(ply), y: HEIGHT - PAD.bottom + 16, "text-anchor": "middle" }, grid);
    label.textContent = String(ply);
  }
  const points = evaluations.map((entry) => `${x(entry.ply).toFixed(1)},${y(entry.score).toFixed(1)}`);
  svg("polygon", { class: "eval-area", points: `${x(evaluations[0].ply).toFixed(1)},${y(0)} ${points.join(" ")} ${x(evaluations[evaluations.length - 1].ply).toFixed(1)},${y(0)}` }, chart);
  svg("polyline", { class: "eval-line", points: points.join(" ") }, chart);
  const dots = svg("g", { class: "points" }, chart);
  for (const entry of evaluations) {
    const dot = svg("circle", { class: "point", cx: x(entry.ply).toFixed(1), cy: y(entry.score).toFixed(1), r: 2.4, "data-ply": entry.ply }, dots);
    svg("title", {}, dot).textContent = pointTitle(entry);
  }
  const drops = svg("g", { class: "drops" }, chart);
  for (const ply of doc.drops) {
    const entry = evaluations.find((item) => item.ply === ply);
    if (!entry) continue;
    const dot = svg("circle", { class: "drop", cx: x(ply).toFixed(1), cy: y(entry.score).toFixed(1), r: 5.5, "data-ply": ply }, drops);
    svg("title", {}, dot).textContent = pointTitle(entry);
  }
  svg("line", { class: "cursor", id: "chart-cursor", y1: PAD.top, y2: PAD.top + PLOT_HEIGHT, x1: 0, x2: 0, visibility: "hidden" }, chart);
  chart.addEventListener("click", (event) => pick(plyAt(chart, event)));
  chart.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const from = picked === null ? 0 : picked;
    pick(Math.max(0, Math.min(lastPly(), from + moves[event.key])));
  });
  box.appendChild(chart);
  if (picked !== null) pick(picked);
}

function pointTitle(entry) {
  return entry.move
    ? format(gettext("ply %(ply)s, %(move)s: %(score)s"), { ply: entry.ply, move: entry.move, score: formatScore(entry.score) })
    : format(gettext("start: %(score)s"), { score: formatScore(entry.score) });
}

/** The ply under a click: the nearest on the x axis. */
function plyAt(chart, event) {
  const point = chart.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const local = point.matrixTransform(chart.getScreenCTM().inverse());
  const ply = Math.round(((local.x - PAD.left) / PLOT_WIDTH) * lastPly());
  return Math.max(0, Math.min(lastPly(), ply));
}

function pick(ply) {
  const entry = doc.evaluations.find((item) => item.ply === ply);
  if (!entry) return;
  picked = ply;
  const cursor = $("chart-cursor");
  if (cursor) {
    cursor.setAttribute("x1", x(ply).toFixed(1));
    cursor.setAttribute("x2", x(ply).toFixed(1));
    cursor.setAttribute("visibility", "visible");
  }
  const caption = $("chart-pick");
  caption.replaceChildren(`${pointTitle(entry)} · `,
    element("a", { href: boardLink(entry.position), id: "chart-pick-link" }, gettext("Open on the analysis board")));
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
    const link = element("a", { href: boardLink(after.position), "data-ply": String(ply), class: "drop-link" }, text);
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
