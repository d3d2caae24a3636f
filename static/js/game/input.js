/* Sumito, the live game page: the board, and playing on it.
 *
 * The page offers only the legal moves listed in the state (or, on the opponent's turn, the
 * moves a feature offers instead: premoves, see selectFrom). A click selects marbles, then a
 * cell one of their moves reaches; two broadsides sharing a destination ask which way.
 */
import { askDirection, create, hideDirections, parsePosition, step } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { render } from "sumito/game/render.js";
import { sendMove } from "sumito/game/live.js";
import { post, refresh, setStatus, showError } from "sumito/game/server.js";
import {
  applyState, current, isBusy, lastMoveShown, myTurn, page, setBusy, untilVersion,
} from "sumito/game/state.js";

// Arrows as seen from Black's side; White's view is turned by 180 degrees.
const ARROWS = { E: "→", W: "←", NE: "↗", SW: "↙", NW: "↖", SE: "↘" };
const TURNED = { E: "W", W: "E", NE: "SW", SW: "NE", NW: "SE", SE: "NW" };
const MARBLE_NAME = { b: gettext("black marble"), w: gettext("white marble") };

const $ = (id) => document.getElementById(id);
const cells = new Map(); // cell name -> its <g>
let occupancy = new Map();
let groups = new Map(); // sorted marble set -> legal moves
let selection = [];
// Moves offered on the board other than the legal moves of my turn (premoves): { moves, onChoose }.
let alternative = null;

const groupKey = (marbles) => [...marbles].sort().join(",");
const flipped = () => page.myColour === "w";

/** A placement phase: the offered moves place a marble (no marbles, one destination). */
const placing = () => groups.has(groupKey([]));

// --- what the board offers ----------------------------------------------------------------------

/** Offering the alternative moves: a player's game in play, on the opponent's turn. */
function choosingAlternative() {
  return Boolean(alternative) && Boolean(page.myColour) && current().status === "started" && !myTurn();
}

/** Whether the board takes a selection now, and of which moves. */
function selectable() {
  return (myTurn() || choosingAlternative()) && !isBusy();
}

function offeredMoves() {
  if (myTurn()) return current().legal_moves || [];
  return choosingAlternative() ? alternative.moves : [];
}

/** Read the position and group the offered moves by their marbles. */
function prepare() {
  occupancy = parsePosition(current().position);
  groups = new Map();
  for (const move of offeredMoves()) {
    const key = groupKey(move.marbles);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(move);
  }
}

function targets() {
  const found = new Map();
  for (const move of groups.get(groupKey(selection)) || []) {
    // In-line: the leading marble's destination; broadside: every destination.
    const cellsOfMove = move.kind === "inline" ? [move.destinations[move.destinations.length - 1]] : move.destinations;
    for (const cell of cellsOfMove) {
      if (!found.has(cell)) found.set(cell, []);
      found.get(cell).push(move);
    }
  }
  return found;
}

function isPartOfGroup(marbles) {
  for (const moves of groups.values()) {
    const members = moves[0].marbles;
    if (marbles.every((cell) => members.includes(cell))) return true;
  }
  return false;
}

/** Two own marbles two steps apart on a line, with an own marble between: the three of them. */
function filledLine(marbles) {
  if (marbles.length !== 2) return marbles;
  for (const direction of Object.keys(ARROWS)) {
    const middle = step(marbles[0], direction);
    if (middle && step(marbles[0], direction, 2) === marbles[1] && occupancy.get(middle) === page.myColour) {
      return [marbles[0], middle, marbles[1]];
    }
  }
  return marbles;
}

// --- choosing and playing -----------------------------------------------------------------------

function onCellClick(cell) {
  hideDirectionChoice();
  if (!selectable()) return;
  const reachable = selection.length || placing() ? targets().get(cell) : null;
  if (reachable) {
    choose(reachable, cell);
    return;
  }
  if (occupancy.get(cell) !== page.myColour) {
    clearSelection();
    return;
  }
  // A selection stays if it is the marble set of a legal move, or part of one (a marble that
  // cannot move alone but can with its neighbours); otherwise it starts again from this marble.
  const fits = (marbles) => marbles.length > 0
    && (groups.has(groupKey(marbles)) || isPartOfGroup(marbles));
  let candidate = selection.includes(cell)
    ? selection.filter((other) => other !== cell)
    : filledLine([...selection, cell]);
  if (!fits(candidate)) candidate = fits([cell]) && !selection.includes(cell) ? [cell] : [];
  if (candidate.length) setStatus("");
  else if (!selection.includes(cell)) setStatus(format(gettext("%(cell)s cannot move."), { cell }));
  selection = candidate;
  renderBoard();
}

export function clearSelection() {
  hideDirectionChoice();
  if (!selection.length) return;
  selection = [];
  renderBoard();
}

function choose(moves, cell) {
  if (moves.length === 1) {
    commit(moves[0]);
    return;
  }
  // Two broadsides can share a destination: ask which way.
  askDirection($("direction-choice"), moves, {
    arrowOf: (move) => ARROWS[flipped() ? TURNED[move.direction] : move.direction],
    anchor: cells.get(cell),
    width: $("board").getBoundingClientRect().width,
    onPick: commit,
  });
}

function hideDirectionChoice() {
  hideDirections($("direction-choice"));
}

/** A move chosen on the board: played on my turn, handed to the alternative's owner otherwise. */
function commit(move) {
  if (myTurn()) play(move.notation);
  else if (choosingAlternative()) {
    selection = [];
    alternative.onChoose(move);
    renderBoard();
  }
}

const STATE_AFTER_ACK_MS = 2000; // an ack whose state does not follow by then: read it again

/**
 * Play a move on the current ply; resolves to whether the server took it. On the game's socket
 * when it is live (the ack comes back on it, and the new state as the event every socket of
 * the game hears); else by the HTTP API, which answers the new state.
 */
export async function play(notation) {
  setBusy(true);
  setStatus("");
  renderBoard();
  const ply = current().version;
  try {
    const sent = sendMove(notation, ply);
    if (sent) {
      const ack = await sent;
      if (!(await untilVersion(ack.version, STATE_AFTER_ACK_MS))) await refresh();
    } else {
      applyState(await post("moves/", { move: notation, ply }));
    }
    selection = [];
    return true;
  } catch (error) {
    showError(error);
    return false;
  } finally {
    setBusy(false);
    render();
  }
}

/**
 * On the opponent's turn, let the player select one of `moves` (legal-move documents) on the
 * board; `onChoose(move)` gets the choice. null: the board is inert on their turn.
 */
export function selectFrom(moves, onChoose) {
  alternative = moves ? { moves, onChoose } : null;
  if (!myTurn()) selection = [];
  hideDirectionChoice();
  prepare();
  renderBoard();
}

/** A newer state: a move played drops the selection; one that no longer fits is dropped too. */
export function onNewState(state, previous, { moved }) {
  if (moved) {
    selection = [];
    hideDirectionChoice();
  }
  prepare();
  if (selection.length && !groups.has(groupKey(selection))) selection = [];
}

// --- drawing ------------------------------------------------------------------------------------

export function renderBoard() {
  const interactive = selectable();
  const reachable = interactive ? targets() : new Map();
  const selected = new Set(selection);
  const lastMove = lastMoveShown();
  const from = new Set(lastMove.from);
  const to = new Set(lastMove.to);
  const movable = new Set();
  if (interactive) for (const move of offeredMoves()) for (const cell of move.marbles) movable.add(cell);
  const board = $("board");
  board.classList.toggle("interactive", interactive);
  board.classList.toggle("choosing-alternative", interactive && !myTurn());
  board.classList.toggle("busy", isBusy());
  for (const [name, group] of cells) {
    const owner = occupancy.get(name) || "";
    const target = reachable.has(name);
    const clickable = target || movable.has(name);
    group.classList.toggle("b", owner === "b");
    group.classList.toggle("w", owner === "w");
    group.classList.toggle("selected", selected.has(name));
    group.classList.toggle("target", target);
    group.classList.toggle("push", target && Boolean(owner));
    group.classList.toggle("movable", movable.has(name));
    group.classList.toggle("last-from", from.has(name) && !to.has(name));
    group.classList.toggle("last-to", to.has(name));
    const content = owner ? MARBLE_NAME[owner] : gettext("empty");
    const extra = selected.has(name) ? gettext(", selected") : target ? gettext(", move here") : "";
    group.setAttribute("aria-label", `${name}, ${content}${extra}`);
    if (clickable) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
    } else {
      group.setAttribute("role", "img");
      group.removeAttribute("tabindex");
    }
  }
}

/** Build the board once (updated in place afterwards) and listen to it. */
export function startBoard() {
  const board = create($("board"), { flipped: flipped() });
  for (const [name, group] of board.cells) cells.set(name, group);
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
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") clearSelection();
  });
  prepare();
}
