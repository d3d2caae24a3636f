/* Sumito, the analysis board: reading a move from its notation, and the helpers of picking one
 * on the board (as on the game page). */
import { DIRECTIONS, moveCells, parseCell, step } from "sumito/board.js";
import { gettext } from "sumito/i18n.js";
import { element } from "sumito/analysis/lines.js";

/**
 * A move's marbles and destinations, read from its notation in the position it is played in:
 * an in-line move names its trailing marble and that marble's destination, and moves the run
 * of own marbles ahead of it (at most three); a broadside names both ends and where the first
 * goes (board.js moveCells); a placement names its cell.
 */
export function describe(notation, occupancy, side) {
  if (notation.startsWith("@")) return { marbles: [], destinations: [notation.slice(1)], inline: true, push: false };
  if (notation.length === 6) {
    const cells = moveCells(notation);
    return { marbles: cells.from, destinations: cells.to, inline: false, push: false };
  }
  const trailing = notation.slice(0, 2);
  const [r0, d0] = parseCell(trailing);
  const [r1, d1] = parseCell(notation.slice(2, 4));
  const direction = [r1 - r0, d1 - d0];
  const marbles = [trailing];
  for (let ahead = step(trailing, direction); ahead && marbles.length < 3 && occupancy.get(ahead) === side;
    ahead = step(ahead, direction)) marbles.push(ahead);
  const destinations = marbles.map((cell) => step(cell, direction));
  const lead = destinations[destinations.length - 1];
  return { marbles, destinations, inline: true, push: Boolean(occupancy.get(lead)) && occupancy.get(lead) !== side };
}

/** Two own marbles two steps apart on a line, with an own marble between: the three of them. */
export function filledLine(marbles, side, occupancy) {
  if (marbles.length !== 2) return marbles;
  for (const direction of Object.values(DIRECTIONS)) {
    const middle = step(marbles[0], direction);
    if (middle && step(middle, direction) === marbles[1] && occupancy.get(middle) === side) {
      return [marbles[0], middle, marbles[1]];
    }
  }
  return marbles;
}

/** Two broadsides can share a destination: ask which one. */
export function showDirectionChoice(box, moves, onPick) {
  box.replaceChildren(element("span", { class: "direction-prompt" }, gettext("Which move?")));
  for (const move of moves) {
    const button = element("button", { type: "button", class: "small", "data-move": move.notation }, move.notation);
    button.addEventListener("click", () => {
      hideDirectionChoice();
      tryMove(move);
    });
    box.appendChild(button);
  }
  const cancel = element("button", { type: "button", class: "small secondary" }, gettext("Cancel"));
  cancel.addEventListener("click", () => hideDirectionChoice(box));
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector("button").focus();
}

export function hideDirectionChoice(box) {
  box.hidden = true;
  box.replaceChildren();
}
