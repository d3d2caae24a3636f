/* Sumito: the board of a table for three or four players.
 *
 * Geometry and the drawing of the 61 cells come from board.js; this script adds Red and Green
 * marbles and a mark per colour besides its colour (Black none, White a ring, Red a triangle,
 * Green a square), and move input by clicking: select 1-3 marbles, then a cell that one of the
 * listed legal moves reaches. Moves arrive as notations only (doc.legal_moves); their marbles
 * and destinations are read from the notation and the position (an in-line move takes the run
 * of its team's marbles ahead of the trailing one, at most three).
 *
 * `create(container, choiceBox, { onPlay, onStatus })` returns a board whose
 * `setTurn(degrees)` turns it (`turnFor(players, colour)`: each seat's side at the bottom) and whose
 * `update(view)` draws a view { position, legalMoves, mover, players, interactive, busy, last,
 * replaying }; a chosen move is handed to `onPlay(notation)`.
 */
import {
  askDirection, cellName, create as createBoard, DIRECTIONS, hideDirections, parseCell, step,
} from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";

export const COLOURS = ["b", "w", "r", "g"];
export const COLOUR_NAME = { b: gettext("Black"), w: gettext("White"), r: gettext("Red"), g: gettext("Green") };
const MARBLE_NAME = {
  b: gettext("black marble"), w: gettext("white marble"), r: gettext("red marble"), g: gettext("green marble"),
};
const PARTNER = { b: "r", r: "b", w: "g", g: "w" }; // the four-player teams
// Where each direction points on the screen, in degrees clockwise from "right", the board not
// turned; and the arrow drawn for each of the six screen directions.
const SCREEN_ANGLE = { E: 0, SE: 60, SW: 120, W: 180, NW: 240, NE: 300 };
const ARROW_AT = { 0: "→", 60: "↘", 120: "↙", 180: "←", 240: "↖", 300: "↗" };
// The turn that puts each seat's side at the bottom of its player's board (the three- and
// four-player starts, games.engine.multi), degrees clockwise.
const TURNS = { 3: { b: 0, w: 240, r: 120 }, 4: { b: 0, w: 300, r: 180, g: 120 } };

/** The turn of the board for the player of `colour` at a table of `players` (0: Black's view,
 * which spectators get). */
export function turnFor(players, colour) {
  return (TURNS[players] || {})[colour] || 0;
}
const UNIT = 50; // board.js's distance between cell centres
const SVG_NS = "http://www.w3.org/2000/svg";

function directionBetween(from, to) {
  const [r0, d0] = parseCell(from);
  const [r1, d1] = parseCell(to);
  return Object.keys(DIRECTIONS).find((name) => DIRECTIONS[name][0] === r1 - r0
    && DIRECTIONS[name][1] === d1 - d0) || null;
}

/** Cell -> colour for "<side>|<Black's cells>|<White's>|<Red's>[|<Green's>]". */
export function parsePosition(position) {
  const map = new Map();
  (position || "").split("|").slice(1).forEach((list, index) => {
    for (const cell of list.split(",").filter(Boolean)) map.set(cell, COLOURS[index]);
  });
  return map;
}

/** A move's marbles and destinations from its notation and the position it is played in
 * (`position`: cell -> colour); a placement (`@e5`) puts a marble on an empty cell. In the
 * team game a pushing column may hold the partner's marbles. */
export function describe(notation, position, mover, players) {
  if (notation.startsWith("@")) {
    return { notation, kind: "placement", direction: null, marbles: [], destinations: [notation.slice(1, 3)] };
  }
  const from = notation.slice(0, 2);
  const team = players === 4 ? [mover, PARTNER[mover]] : [mover];
  let marbles = [from];
  let direction;
  let kind = "inline";
  if (notation.length === 4) {
    direction = directionBetween(from, notation.slice(2, 4));
    if (!direction) return null;
    let next = step(from, direction);
    while (next && team.includes(position.get(next)) && marbles.length < 3) {
      marbles.push(next);
      next = step(next, direction);
    }
  } else {
    kind = "broadside";
    direction = directionBetween(from, notation.slice(4, 6));
    if (!direction) return null;
    const [r0, d0] = parseCell(from);
    const [re, de] = parseCell(notation.slice(2, 4));
    const length = Math.max(Math.abs(re - r0), Math.abs(de - d0)) || 1;
    marbles = [];
    for (let i = 0; i <= length; i++) {
      marbles.push(cellName(r0 + ((re - r0) / length) * i, d0 + ((de - d0) / length) * i));
    }
  }
  return { notation, kind, direction, marbles, destinations: marbles.map((cell) => step(cell, direction)) };
}

const groupKey = (marbles) => [...marbles].sort().join(",");

function svg(tag, attributes, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  parent.appendChild(node);
  return node;
}

function gradient(defs, id, stops) {
  const node = svg("radialGradient", { id, cx: "35%", cy: "30%", r: "70%" }, defs);
  for (const [offset, colour] of stops) svg("stop", { offset, "stop-color": colour }, node);
}

export function create(container, choiceBox, { onPlay, onStatus }) {
  const board = createBoard(container);
  const cells = board.cells;
  let view = { position: "", legalMoves: [], mover: "", players: 3, interactive: false, busy: false,
    last: { from: [], to: [] }, replaying: false };
  let occupancy = new Map();
  let groups = new Map(); // sorted marble set -> its legal moves
  let placements = new Map(); // empty cell -> [its placement]
  let movable = new Set(); // cells whose marble some legal move moves
  let selection = [];

  const defs = board.svg.querySelector("defs");
  gradient(defs, "marble-r", [["0%", "#f29a8c"], ["45%", "#c0392b"], ["100%", "#6d160f"]]);
  gradient(defs, "marble-g", [["0%", "#9be0aa"], ["45%", "#2e8b4a"], ["100%", "#0f4523"]]);
  const size = UNIT * 0.17;
  const fixed = (value) => value.toFixed(1);
  for (const group of cells.values()) {
    const mark = svg("g", { class: "mark", "aria-hidden": "true" }, group);
    svg("circle", { class: "mark-ring", r: fixed(UNIT * 0.2) }, mark);
    svg("polygon", { class: "mark-triangle", points: `0,${fixed(-size * 1.15)} ${fixed(size)},`
      + `${fixed(size * 0.75)} ${fixed(-size)},${fixed(size * 0.75)}` }, mark);
    svg("rect", { class: "mark-square", x: fixed(-size * 0.8), y: fixed(-size * 0.8),
      width: fixed(size * 1.6), height: fixed(size * 1.6) }, mark);
  }
  board.svg.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) onCellClick(cell.dataset.cell);
    else clearSelection();
  });
  board.svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = event.target.closest("[data-cell]");
    if (!cell) return;
    event.preventDefault();
    onCellClick(cell.dataset.cell);
  });

  function prepare() {
    occupancy = parsePosition(view.position);
    groups = new Map();
    placements = new Map();
    movable = new Set();
    for (const notation of view.interactive ? view.legalMoves : []) {
      const move = describe(notation, occupancy, view.mover, view.players);
      if (!move) continue;
      if (move.kind === "placement") {
        placements.set(move.destinations[0], [move]);
        continue;
      }
      const key = groupKey(move.marbles);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(move);
      for (const cell of move.marbles) movable.add(cell);
    }
    if (selection.length && !fits(selection)) selection = [];
  }

  const selectable = () => view.interactive && !view.busy;

  function targets() {
    if (placements.size) return placements;
    const found = new Map();
    for (const move of groups.get(groupKey(selection)) || []) {
      const reached = move.kind === "inline" ? move.destinations.slice(-1) : move.destinations;
      for (const cell of reached) {
        if (!found.has(cell)) found.set(cell, []);
        found.get(cell).push(move);
      }
    }
    return found;
  }

  /** Marbles that are a legal move's set, or part of one (a marble that cannot move alone
   * but can with its neighbours). */
  function fits(marbles) {
    if (!marbles.length) return false;
    if (groups.has(groupKey(marbles))) return true;
    for (const moves of groups.values()) {
      if (marbles.every((cell) => moves[0].marbles.includes(cell))) return true;
    }
    return false;
  }

  /** Two marbles two steps apart on a line, with a movable marble between: the three. */
  function filledLine(marbles) {
    if (marbles.length !== 2) return marbles;
    for (const direction of Object.keys(DIRECTIONS)) {
      const middle = step(marbles[0], direction);
      if (middle && step(marbles[0], direction, 2) === marbles[1] && movable.has(middle)) {
        return [marbles[0], middle, marbles[1]];
      }
    }
    return marbles;
  }

  function onCellClick(cell) {
    hideChoice();
    if (!selectable()) return;
    const reachable = selection.length || placements.size ? targets().get(cell) : null;
    if (reachable) {
      choose(reachable, cell);
      return;
    }
    if (!movable.has(cell)) {
      clearSelection();
      return;
    }
    let candidate = selection.includes(cell)
      ? selection.filter((other) => other !== cell)
      : filledLine([...selection, cell]);
    if (!fits(candidate)) candidate = fits([cell]) && !selection.includes(cell) ? [cell] : [];
    onStatus(candidate.length || selection.includes(cell) ? ""
      : format(gettext("%(cell)s cannot move."), { cell }));
    selection = candidate;
    draw();
  }

  function clearSelection() {
    hideChoice();
    if (!selection.length) return;
    selection = [];
    draw();
  }

  function choose(moves, cell) {
    if (moves.length === 1) {
      onPlay(moves[0].notation);
      return;
    }
    // Two broadsides can share a destination: ask which way.
    askDirection(choiceBox, moves, {
      arrowOf: (move) => ARROW_AT[(((SCREEN_ANGLE[move.direction] + board.turn()) % 360) + 360) % 360],
      anchor: cells.get(cell),
      width: choiceBox.parentElement.getBoundingClientRect().width,
      onPick: (move) => onPlay(move.notation),
    });
  }

  function hideChoice() {
    hideDirections(choiceBox);
  }

  function draw() {
    const interactive = selectable();
    const reachable = interactive ? targets() : new Map();
    const selected = new Set(selection);
    const { from, to } = view.last;
    container.classList.toggle("interactive", interactive);
    container.classList.toggle("busy", view.busy);
    container.classList.toggle("replaying", view.replaying);
    for (const [name, group] of cells) {
      const owner = occupancy.get(name) || "";
      const target = reachable.has(name);
      const canMove = interactive && movable.has(name);
      for (const colour of COLOURS) group.classList.toggle(colour, owner === colour);
      if (owner) group.dataset.marble = owner;
      else delete group.dataset.marble;
      group.classList.toggle("selected", selected.has(name));
      group.classList.toggle("target", target);
      group.classList.toggle("push", target && Boolean(owner));
      group.classList.toggle("movable", canMove);
      group.classList.toggle("last-from", from.includes(name) && !to.includes(name));
      group.classList.toggle("last-to", to.includes(name));
      const content = owner ? MARBLE_NAME[owner] : gettext("empty");
      const extra = selected.has(name) ? gettext(", selected") : target ? gettext(", move here") : "";
      group.setAttribute("aria-label", `${name}, ${content}${extra}`);
      group.setAttribute("role", target || canMove ? "button" : "img");
      if (target || canMove) group.setAttribute("tabindex", "0");
      else group.removeAttribute("tabindex");
    }
  }

  /** Draw `next` (the fields it has replace the current view's). A selection that no longer
   * fits the moves on offer is dropped. */
  function update(next) {
    const turnChanged = next.position !== undefined && next.position !== view.position;
    view = { ...view, ...next };
    if (turnChanged || !view.interactive) {
      selection = [];
      hideChoice();
    }
    prepare();
    draw();
  }

  return { update, clearSelection, cells, setTurn: board.setTurn, turn: board.turn };
}
