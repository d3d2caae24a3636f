/* Sumito: the placement phase of the placement variant on the live game page.
 *
 * A game with the "placement" start begins on an empty board; Black and White place their
 * marbles one a turn (notation @e5) before the first move. The state says so in `placement`
 * ({black_left, white_left}: marbles each side has still to place; null otherwise) and lists
 * the placements as its legal moves, so input.js lets a click on an empty cell play one. This
 * script only says what is going on: "Place a marble (n left)".
 */
import { COLOUR_NAME } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const hint = document.getElementById("placement-hint");
  if (!game || !hint) return;
  const input = document.getElementById("move-input");
  const placeholder = input ? input.placeholder : "";

  function render(state) {
    const phase = state.status === "started" ? state.placement : null;
    hint.hidden = !phase;
    if (input) input.placeholder = phase ? gettext("e.g. @e5") : placeholder;
    if (!phase) {
      hint.textContent = "";
      return;
    }
    const side = state.side_to_move;
    const left = side === "b" ? phase.black_left : phase.white_left;
    hint.dataset.left = String(left);
    hint.textContent = game.myTurn()
      ? format(gettext("Place a marble (%(left)s left): click an empty cell."), { left })
      : format(gettext("%(colour)s places a marble (%(left)s left)."), { colour: COLOUR_NAME[side], left });
  }

  render(game.state());
  game.onState((state) => render(state));
}

start();
