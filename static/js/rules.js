/* Sumito: the diagrams of the rules page; the board is board.js's.
 *
 * Every `.rules-board` holds what to draw in data attributes, written by the server from
 * abalone_site/rules.py (Diagram), where the rules engine worked the move out:
 * - data-position: a position string; two colours, or three or four (Red, Green) for the
 *   multi-player starts;
 * - data-group / data-pushed: the mover's marbles in the move and the opponent's it pushes,
 *   ringed; the other marbles are faded so the eye goes to the move;
 * - data-arrows: `<cell> <direction> <steps>` separated by `;`, each an arrow from a cell's centre
 *   along a direction (E W NE SW NW SE) for a number of cell steps (off the board for a push-off);
 * - data-refused: the arrows show a move the rules refuse (a pac, a blocked push): dashed, barred
 *   where the two columns meet; data-blocker: the marble behind the column that blocks the push;
 * - data-move / data-after / data-destinations: a legal move; the figure's button plays it (shows
 *   data-after) and takes it back.
 */
import * as Board from "sumito/board.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// Direction -> (row step, diagonal step), as in the engine (games/engine/board.py).
const STEPS = { E: [0, 1], W: [0, -1], NE: [1, 1], SW: [-1, -1], NW: [1, 0], SE: [-1, 0] };
// Colours past Black and White in a multi-player position string, in turn order.
const EXTRA_COLOURS = [
  ["r", [["0%", "#f08a7e"], ["50%", "#c0392b"], ["100%", "#6e1a12"]]],
  ["g", [["0%", "#8fd6a3"], ["50%", "#2e8b57"], ["100%", "#123d22"]]],
];

function svg(tag, attributes, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  parent.appendChild(node);
  return node;
}

function list(text) {
  return (text || "").split(",").filter(Boolean);
}

/** The centre of a cell in SVG units, read from the translate() board.js gave its group. */
function centre(board, cell) {
  const match = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(board.cells.get(cell).getAttribute("transform"));
  return [Number(match[1]), Number(match[2])];
}

/** SVG vectors of one step along a row (E) and one step up a diagonal (NW). */
function unitVectors(board) {
  const [x0, y0] = centre(board, "a1");
  const [xe, ye] = centre(board, "a2");
  const [xn, yn] = centre(board, "b1");
  return { along: [xe - x0, ye - y0], up: [xn - x0, yn - y0] };
}

function stepVector(units, direction) {
  const [rows, diagonals] = STEPS[direction];
  return [rows * units.up[0] + diagonals * units.along[0], rows * units.up[1] + diagonals * units.along[1]];
}

/** Draws a position: board.js draws Black and White; Red and Green are added here. */
function showPosition(board, position) {
  const parts = position.split("|");
  board.setPosition(parts.slice(0, 3).join("|"));
  for (const group of board.cells.values()) group.classList.remove("r", "g");
  EXTRA_COLOURS.forEach(([colour], index) => {
    for (const cell of list(parts[3 + index])) {
      const group = board.cells.get(cell);
      if (!group) continue;
      group.classList.add(colour);
      group.dataset.marble = colour;
    }
  });
}

function addGradients(board) {
  const defs = board.svg.querySelector("defs");
  for (const [colour, stops] of EXTRA_COLOURS) {
    const gradient = svg("radialGradient", { id: `rules-marble-${colour}`, cx: "35%", cy: "30%", r: "70%" }, defs);
    for (const [offset, stopColour] of stops) svg("stop", { offset, "stop-color": stopColour }, gradient);
  }
}

/** Rings the marbles of the move and fades every other marble (none faded without a move). */
function mark(board, { group = [], pushed = [], landed = [], blocker = [] }) {
  const focus = new Set([...group, ...pushed, ...landed, ...blocker]);
  for (const [name, cell] of board.cells) {
    cell.classList.toggle("rules-group", group.includes(name));
    cell.classList.toggle("rules-pushed", pushed.includes(name));
    cell.classList.toggle("rules-blocker", blocker.includes(name));
    cell.classList.toggle("rules-faded", focus.size > 0 && Boolean(cell.dataset.marble) && !focus.has(name));
  }
}

function arrowHead(layer, [x, y], [dx, dy], size, className) {
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const [px, py] = [-uy, ux];
  const points = [
    [x, y],
    [x - ux * size + px * size * 0.55, y - uy * size + py * size * 0.55],
    [x - ux * size - px * size * 0.55, y - uy * size - py * size * 0.55],
  ];
  svg("polygon", { points: points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), class: className }, layer);
}

/** The arrows of a move (or of a refused move, dashed and barred where the columns meet). */
function drawArrows(board, spec, { refused, groupSize }) {
  const units = unitVectors(board);
  const unit = Math.hypot(...units.along);
  const layer = svg("g", { class: `rules-arrows${refused ? " refused" : ""}`, "aria-hidden": "true" }, board.svg);
  for (const item of spec.split(";").filter(Boolean)) {
    const [cell, direction, stepsText] = item.trim().split(/\s+/);
    const steps = Number(stepsText);
    if (!board.cells.has(cell) || !STEPS[direction] || !(steps > 0)) continue;
    const [x0, y0] = centre(board, cell);
    const [vx, vy] = stepVector(units, direction);
    const begin = steps === 1 ? 0.18 : 0;
    const end = steps === 1 ? 0.82 : steps - 0.15;
    const from = [x0 + vx * begin, y0 + vy * begin];
    const to = [x0 + vx * end, y0 + vy * end];
    const shaft = { x1: from[0].toFixed(1), y1: from[1].toFixed(1), x2: to[0].toFixed(1), y2: to[1].toFixed(1) };
    svg("line", { ...shaft, class: "rules-arrow-halo" }, layer);
    svg("line", { ...shaft, class: "rules-arrow-line" }, layer);
    arrowHead(layer, to, [vx, vy], unit * 0.42, "rules-arrow-head");
    if (refused) {
      // A bar across the line where the mover's column meets the opponent's.
      const at = [x0 + vx * (groupSize - 0.5), y0 + vy * (groupSize - 0.5)];
      const [px, py] = [-vy * 0.45, vx * 0.45];
      svg("line", { x1: (at[0] + px).toFixed(1), y1: (at[1] + py).toFixed(1), x2: (at[0] - px).toFixed(1),
        y2: (at[1] - py).toFixed(1), class: "rules-bar" }, layer);
    }
  }
  return layer;
}

function draw(holder) {
  const board = Board.create(holder);
  // The figure's caption says what the diagram shows; the cells' own labels would only repeat it.
  board.svg.setAttribute("aria-hidden", "true");
  board.svg.setAttribute("focusable", "false");
  addGradients(board);
  const data = holder.dataset;
  const before = { group: list(data.group), pushed: list(data.pushed), blocker: list(data.blocker) };
  const refused = Boolean(data.refused);
  showPosition(board, data.position);
  mark(board, before);
  let arrows = data.arrows ? drawArrows(board, data.arrows, { refused, groupSize: before.group.length }) : null;
  holder.dataset.drawn = "true";

  const button = holder.closest(".rules-figure")?.querySelector(".rules-play");
  if (!button || !data.move || !data.after) return;
  let played = false;
  button.hidden = false;
  button.addEventListener("click", () => {
    played = !played;
    if (played) {
      showPosition(board, data.after);
      mark(board, { landed: list(data.destinations) });
      board.highlight(before.group, list(data.destinations));
      arrows?.remove();
      arrows = null;
    } else {
      showPosition(board, data.position);
      mark(board, before);
      board.highlight([], []);
      arrows = drawArrows(board, data.arrows, { refused, groupSize: before.group.length });
    }
    holder.dataset.shown = played ? "after" : "before";
    button.textContent = played ? button.dataset.labelUndo : button.dataset.labelPlay;
  });
}

for (const holder of document.querySelectorAll(".rules-board[data-position]")) draw(holder);
