/* Sumito, the analysis pages: the evaluation chart of a game (the result page of a game's
 * analysis, and beside the board on the analysis board).
 *
 * An SVG polyline of the evaluation after each ply, Black's view, in marbles, cut at +-5 so one
 * push-off does not flatten the rest, with the plies of the biggest drops as red dots. A click
 * (or the arrow keys on the focused chart) picks a ply: `onPick(ply)`; `mark(ply)` moves the
 * dashed cursor to the ply shown without calling it back.
 *
 * `drawChart(box, { evaluations, drops }, { onPick })` returns { mark }.
 */
import { format, gettext } from "sumito/i18n.js";
import { formatScore } from "sumito/analysis/lines.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARBLE = 1000;
const CLAMP = 5; // marbles
const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 40, right: 14, top: 12, bottom: 30 };
const PLOT_WIDTH = WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = HEIGHT - PAD.top - PAD.bottom;

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

const marbles = (score) => Math.max(-CLAMP, Math.min(CLAMP, score / MARBLE));
const y = (score) => PAD.top + ((CLAMP - marbles(score)) / (2 * CLAMP)) * PLOT_HEIGHT;

/** Plies between the labels of the x axis: about eight labels, on round numbers. */
function tickStep(plies) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100]) if (plies / step <= 8) return step;
  return 200;
}

/** The title of one point: its ply, move and score. */
export function pointTitle(entry) {
  return entry.move
    ? format(gettext("ply %(ply)s, %(move)s: %(score)s"), { ply: entry.ply, move: entry.move, score: formatScore(entry.score) })
    : format(gettext("start: %(score)s"), { score: formatScore(entry.score) });
}

export function drawChart(box, { evaluations, drops }, { onPick = () => {} } = {}) {
  box.replaceChildren();
  box.dataset.points = String(evaluations.length);
  let picked = null;
  if (!evaluations.length) return { mark() {} };
  const lastPly = Math.max(1, ...evaluations.map((entry) => entry.ply));
  const x = (ply) => PAD.left + (ply / lastPly) * PLOT_WIDTH;
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
  const step = tickStep(lastPly);
  for (let ply = 0; ply <= lastPly; ply += step) {
    svg("line", { class: "tick", x1: x(ply), x2: x(ply), y1: PAD.top + PLOT_HEIGHT, y2: PAD.top + PLOT_HEIGHT + 4 }, grid);
    const label = svg("text", { x: x(ply), y: HEIGHT - PAD.bottom + 16, "text-anchor": "middle" }, grid);
    label.textContent = String(ply);
  }
  const points = evaluations.map((entry) => `${x(entry.ply).toFixed(1)},${y(entry.score).toFixed(1)}`);
  const first = x(evaluations[0].ply).toFixed(1);
  const last = x(evaluations[evaluations.length - 1].ply).toFixed(1);
  svg("polygon", { class: "eval-area", points: `${first},${y(0)} ${points.join(" ")} ${last},${y(0)}` }, chart);
  svg("polyline", { class: "eval-line", points: points.join(" ") }, chart);
  const dots = svg("g", { class: "points" }, chart);
  for (const entry of evaluations) {
    const dot = svg("circle", { class: "point", cx: x(entry.ply).toFixed(1), cy: y(entry.score).toFixed(1), r: 2.4, "data-ply": entry.ply }, dots);
    svg("title", {}, dot).textContent = pointTitle(entry);
  }
  const dropDots = svg("g", { class: "drops" }, chart);
  for (const ply of drops) {
    const entry = evaluations.find((item) => item.ply === ply);
    if (!entry) continue;
    const dot = svg("circle", { class: "drop", cx: x(ply).toFixed(1), cy: y(entry.score).toFixed(1), r: 5.5, "data-ply": ply }, dropDots);
    svg("title", {}, dot).textContent = pointTitle(entry);
  }
  const cursor = svg("line", { class: "cursor", y1: PAD.top, y2: PAD.top + PLOT_HEIGHT, x1: 0, x2: 0, visibility: "hidden" }, chart);

  function mark(ply) {
    if (ply === null || ply === undefined || !evaluations.some((entry) => entry.ply === ply)) {
      cursor.setAttribute("visibility", "hidden");
      picked = null;
      return;
    }
    picked = ply;
    cursor.setAttribute("x1", x(ply).toFixed(1));
    cursor.setAttribute("x2", x(ply).toFixed(1));
    cursor.setAttribute("visibility", "visible");
  }

  /** The ply under a click: the nearest on the x axis. */
  function plyAt(event) {
    const point = chart.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(chart.getScreenCTM().inverse());
    const ply = Math.round(((local.x - PAD.left) / PLOT_WIDTH) * lastPly);
    return Math.max(0, Math.min(lastPly, ply));
  }

  const pick = (ply) => {
    mark(ply);
    if (picked !== null) onPick(ply);
  };
  chart.addEventListener("click", (event) => pick(plyAt(event)));
  chart.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) return;
    event.preventDefault();
    event.stopPropagation(); // the chart's keys, not the board page's
    const from = picked === null ? 0 : picked;
    pick(Math.max(0, Math.min(lastPly, from + moves[event.key])));
  });
  box.appendChild(chart);
  return { mark };
}
