/* Sumito: drawing the Abalone board as SVG, and its geometry.
 *
 * Shared by the pages that show a board (the game, the tables, the replay, the analysis board,
 * the rules, the board editor). `create(container, { flipped, turn })` builds the
 * board once (`flipped`: White's side at the bottom; `turn`: turned clockwise by that many degrees,
 * a multiple of 60) and returns an object whose `setPosition(positionString)`, `highlight(from,
 * to)` and `setTurn(degrees)` update it in place. Every cell is a `<g class="cell" data-cell="e5">`; a cell with a marble has the
 * class `b` or `w` and the attribute `data-marble="b"`/`"w"` (empty cells have no data-marble).
 */
import { gettext } from "sumito/i18n.js";

const ROWS = "abcdefghi";
const SVG_NS = "http://www.w3.org/2000/svg";
const UNIT = 50; // distance between neighbouring cell centres in SVG units
const ROW_HEIGHT = UNIT * Math.sqrt(3) / 2;
const MARGIN = UNIT * 1.05;
export const COLOUR_NAME = { b: gettext("Black"), w: gettext("White") };
const MARBLE_NAME = { b: gettext("black marble"), w: gettext("white marble") };

export function cellName(row, diagonal) {
  return ROWS[row] + (diagonal + 1);
}

export function parseCell(name) {
  return [ROWS.indexOf(name[0]), Number(name.slice(1)) - 1];
}

export function isCell(row, diagonal) {
  return row >= 0 && row <= 8 && diagonal >= 0 && diagonal <= 8 && Math.abs(diagonal - row) <= 4;
}

/** The six directions as (row, diagonal) steps. */
export const DIRECTIONS = { E: [0, 1], W: [0, -1], NE: [1, 1], SW: [-1, -1], NW: [1, 0], SE: [-1, 0] };

/** The cell `times` steps from `name` along `direction` (a name of DIRECTIONS, or a step); null
 * off the board. */
export function step(name, direction, times = 1) {
  const [row, diagonal] = parseCell(name);
  const [dr, dd] = typeof direction === "string" ? DIRECTIONS[direction] : direction;
  const r = row + dr * times;
  const d = diagonal + dd * times;
  return isCell(r, d) ? cellName(r, d) : null;
}

/** Cell name -> "b" or "w" for a position string "b|a1,a2,...|i9,...". */
export function parsePosition(position) {
  const [, black, white] = position.split("|");
  const map = new Map();
  for (const cell of (black || "").split(",").filter(Boolean)) map.set(cell, "b");
  for (const cell of (white || "").split(",").filter(Boolean)) map.set(cell, "w");
  return map;
}

/** The cells a move left and reached, from its notation alone (pushed marbles not included). */
export function moveCells(notation) {
  if (!notation) return { from: [], to: [] };
  if (notation.startsWith("@")) return { from: [], to: [notation.slice(1)] }; // a placement
  const from = notation.slice(0, 2);
  if (notation.length === 4) return { from: [from], to: [notation.slice(2, 4)] };
  // Broadside: both ends of the group and where the first one went.
  const [end, destination] = [notation.slice(2, 4), notation.slice(4, 6)];
  const [r0, d0] = parseCell(from);
  const [r1, d1] = parseCell(destination);
  const shift = [r1 - r0, d1 - d0];
  const [re, de] = parseCell(end);
  const length = Math.max(Math.abs(re - r0), Math.abs(de - d0));
  const unit = [(re - r0) / (length || 1), (de - d0) / (length || 1)];
  const marbles = [];
  for (let i = 0; i <= length; i++) marbles.push([r0 + unit[0] * i, d0 + unit[1] * i]);
  return {
    from: marbles.map(([r, d]) => cellName(r, d)),
    to: marbles.filter(([r, d]) => isCell(r + shift[0], d + shift[1]))
      .map(([r, d]) => cellName(r + shift[0], d + shift[1])),
  };
}

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

function gradient(defs, id, stops) {
  const node = svg("radialGradient", { id, cx: "35%", cy: "30%", r: "70%" }, defs);
  for (const [offset, colour] of stops) svg("stop", { offset, "stop-color": colour }, node);
}

export function create(container, { flipped = false, turn = null } = {}) {
  const cells = new Map(); // cell name -> its <g>
  // The board turned clockwise by this many degrees around its centre (a multiple of 60: the
  // hexagon maps onto itself): 180 is White's view; a table turns it to each seat's side.
  let angle = turn !== null ? turn : flipped ? 180 : 0;
  const centre = [MARGIN + 4 * UNIT, MARGIN + 4 * ROW_HEIGHT];

  /** SVG coordinates of (row, diagonal), which may lie just off the board (for labels), moved
   * by `offset` before the board is turned. */
  function point(row, diagonal, offset = [0, 0]) {
    const dx = (diagonal - row / 2 - 2) * UNIT + offset[0]; // from the centre
    const dy = (4 - row) * ROW_HEIGHT + offset[1];
    const radians = (angle * Math.PI) / 180;
    const cos = Math.cos(radians);
    const sin = Math.sin(radians);
    return [centre[0] + dx * cos - dy * sin, centre[1] + dx * sin + dy * cos];
  }

  const width = 2 * MARGIN + 8 * UNIT;
  const height = 2 * MARGIN + 8 * ROW_HEIGHT;
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg" });
  const defs = svg("defs", {}, drawing);
  gradient(defs, "marble-b", [["0%", "#6b6f76"], ["45%", "#2a2d32"], ["100%", "#0c0d0f"]]);
  gradient(defs, "marble-w", [["0%", "#ffffff"], ["55%", "#f1ede6"], ["100%", "#c9c1b3"]]);

  // The frame: a hexagon around the six corner cells, rounded by a thick stroke.
  const frame = svg("polygon", { class: "frame" }, drawing);

  // Coordinates: row letters beside each row, diagonal numbers beyond each diagonal.
  const labels = svg("g", { class: "coords", "aria-hidden": "true" }, drawing);
  const placedLabels = []; // [text node, row, diagonal, offset]
  for (let row = 0; row <= 8; row++) {
    const label = svg("text", { "dominant-baseline": "central", "text-anchor": "middle" }, labels);
    label.textContent = ROWS[row];
    placedLabels.push([label, row, Math.max(0, row - 4) - 1, [8, 0]]);
  }
  for (let diagonal = 0; diagonal <= 8; diagonal++) {
    const label = svg("text", { "dominant-baseline": "central", "text-anchor": "middle" }, labels);
    label.textContent = String(diagonal + 1);
    placedLabels.push([label, Math.max(0, diagonal - 4) - 1, diagonal, [0, -12]]);
  }

  /** Put the frame, the labels and every cell where the current turn of the board puts them. */
  function layout() {
    const [cx, cy] = point(4, 4);
    const corners = [[0, 0], [0, 4], [4, 8], [8, 8], [8, 4], [4, 0]].map(([r, d]) => {
      const [x, y] = point(r, d);
      const length = Math.hypot(x - cx, y - cy);
      const grow = (length + UNIT * 0.62) / length;
      return `${(cx + (x - cx) * grow).toFixed(1)},${(cy + (y - cy) * grow).toFixed(1)}`;
    });
    frame.setAttribute("points", corners.join(" "));
    for (const [label, row, diagonal, offset] of placedLabels) {
      const [x, y] = point(row, diagonal, offset);
      label.setAttribute("x", x.toFixed(1));
      label.setAttribute("y", y.toFixed(1));
    }
    for (const [name, group] of cells) {
      const [row, diagonal] = parseCell(name);
      const [x, y] = point(row, diagonal);
      group.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
    }
  }

  for (let row = 0; row <= 8; row++) {
    for (let diagonal = 0; diagonal <= 8; diagonal++) {
      if (!isCell(row, diagonal)) continue;
      const name = cellName(row, diagonal);
      const group = svg("g", { class: "cell", role: "img", "data-cell": name }, drawing);
      svg("circle", { class: "hole", r: UNIT * 0.4 }, group);
      svg("circle", { class: "marble", r: UNIT * 0.43 }, group);
      svg("circle", { class: "ring", r: UNIT * 0.47 }, group);
      svg("circle", { class: "dot", r: UNIT * 0.13 }, group);
      cells.set(name, group);
    }
  }
  layout();
  container.appendChild(drawing);

  /** Turn the board by `degrees` clockwise (0: Black's side at the bottom). */
  function setTurn(degrees) {
    if (degrees === angle) return;
    angle = degrees;
    layout();
  }

  function setPosition(position) {
    const occupancy = parsePosition(position);
    for (const [name, group] of cells) {
      const owner = occupancy.get(name) || "";
      group.classList.toggle("b", owner === "b");
      group.classList.toggle("w", owner === "w");
      if (owner) group.dataset.marble = owner;
      else delete group.dataset.marble;
      group.setAttribute("aria-label",
        `${name}, ${owner ? MARBLE_NAME[owner] : gettext("empty")}`);
    }
    return occupancy;
  }

  function highlight(from = [], to = []) {
    const fromSet = new Set(from);
    const toSet = new Set(to);
    for (const [name, group] of cells) {
      group.classList.toggle("last-from", fromSet.has(name) && !toSet.has(name));
      group.classList.toggle("last-to", toSet.has(name));
    }
  }

  return { svg: drawing, cells, setPosition, highlight, setTurn, turn: () => angle };
}

/**
 * Ask which way to play when two broadsides share a destination: in `box`, a prompt, a button
 * per move (`arrowOf(move)` the arrow drawn for its direction) and Cancel, placed under
 * `anchor` (the cell's element) and kept within `width` pixels of the box's parent. A button
 * hides the box and calls `onPick(move)`; Cancel only hides it.
 */
export function askDirection(box, moves, { arrowOf, anchor, width, onPick }) {
  box.replaceChildren();
  const prompt = document.createElement("span");
  prompt.className = "direction-prompt";
  prompt.textContent = gettext("Which way?");
  box.appendChild(prompt);
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small";
    button.dataset.move = move.notation;
    button.dataset.direction = move.direction;
    button.setAttribute("aria-label", `${move.direction} (${move.notation})`);
    button.textContent = `${arrowOf(move)} ${move.direction} · ${move.notation}`;
    button.addEventListener("click", () => {
      hideDirections(box);
      onPick(move);
    });
    box.appendChild(button);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "small secondary";
  cancel.textContent = gettext("Cancel");
  cancel.addEventListener("click", () => hideDirections(box));
  box.appendChild(cancel);
  const cellBox = anchor.getBoundingClientRect();
  const parentBox = box.parentElement.getBoundingClientRect();
  box.hidden = false;
  const left = cellBox.left + cellBox.width / 2 - parentBox.left - box.offsetWidth / 2;
  box.style.left = `${Math.max(0, Math.min(left, width - box.offsetWidth))}px`;
  box.style.top = `${cellBox.bottom - parentBox.top + 6}px`;
  box.querySelector("button").focus();
}

export function hideDirections(box) {
  if (box && !box.hidden) {
    box.hidden = true;
    box.replaceChildren();
  }
}
