/* Sumito, the analysis board: the moves as a tree, as lichess keeps them.
 *
 * The root is the position the board starts from (a game's start, or a position given); each
 * node is the position after one move. A game's moves are its main line (`game: true`); a move
 * tried where the line goes on another way is a variation (a branch kept beside it, not instead
 * of it); trying a move already in the tree goes to it. The first child of a node is the line
 * that goes on; the others are variations.
 *
 * `renderTree(container, tree, current, onPick)` draws the main line with the variations in
 * brackets after the move they leave, each move a button (the current one marked).
 */
import { element } from "sumito/analysis/lines.js";

let nextId = 1;

function node(parent, position, notation, game = false) {
  const made = { id: nextId++, parent, position, notation, game, children: [], ply: parent ? parent.ply + 1 : 0 };
  if (parent) parent.children.push(made);
  return made;
}

/** A tree on `position`, with `gameMoves` ([{ notation, position }]) as its main line. */
export function createTree(position, gameMoves = []) {
  const root = node(null, position, null);
  let last = root;
  for (const move of gameMoves) last = node(last, move.position, move.notation, true);
  return root;
}

/** The child of `parent` after `notation`: the one in the tree, else a new one (a variation). */
export function childFor(parent, notation, position) {
  return parent.children.find((child) => child.notation === notation) || node(parent, position, notation);
}

/** The moves from the root to `target`, first to last. */
export function pathTo(target) {
  const path = [];
  for (let at = target; at && at.parent; at = at.parent) path.unshift(at);
  return path;
}

/** The game's node at `ply` (the root at 0), or the last of the game's line. */
export function gameNodeAt(root, ply) {
  let at = root;
  while (at.ply < ply && at.children.length && at.children[0].game) at = at.children[0];
  return at;
}

/** The last node of the line `from` is on (its first children, to the end). */
export function lineEnd(from) {
  let at = from;
  while (at.children.length) at = at.children[0];
  return at;
}

/** The node on the game's line `from` leaves it at (itself when on it), and the moves after. */
export function splitAtGame(from) {
  const tried = [];
  let at = from;
  while (at.parent && !at.game) {
    tried.unshift(at.notation);
    at = at.parent;
  }
  return { base: at, tried };
}

function moveNumber(ply, first) {
  const number = Math.ceil(ply / 2);
  if (ply % 2 === 1) return `${number}.`;
  return first ? `${number}…` : "";
}

function drawLine(container, start, current, onPick) {
  let at = start;
  let first = true;
  while (at) {
    const label = moveNumber(at.ply, first);
    if (label) container.appendChild(element("span", { class: "move-number" }, label));
    const button = element("button", { type: "button", class: `link move${at.game ? " game-move" : " tried-move"}`,
      "data-ply": String(at.ply), "data-node": String(at.id) }, at.notation);
    if (at === current) button.setAttribute("aria-current", "step");
    const target = at;
    button.addEventListener("click", () => onPick(target));
    container.appendChild(button);
    const parent = at.parent;
    const branches = parent && parent.children[0] === at ? parent.children.slice(1) : [];
    for (const variation of branches) {
      const branch = element("span", { class: "variation" });
      drawLine(branch, variation, current, onPick);
      container.appendChild(branch);
    }
    first = branches.length > 0; // after a variation, the line's next number is shown again
    at = at.children[0];
  }
}

export function renderTree(container, root, current, onPick) {
  container.replaceChildren();
  if (root.children.length) drawLine(container, root.children[0], current, onPick);
  // The current move kept in view inside the list's own box (never scrolling the page).
  const shown = container.querySelector('[aria-current="step"]');
  if (!shown) return;
  const top = shown.offsetTop;
  if (top < container.scrollTop || top + shown.offsetHeight > container.scrollTop + container.clientHeight) {
    container.scrollTop = Math.max(0, top - container.clientHeight / 2);
  }
}
