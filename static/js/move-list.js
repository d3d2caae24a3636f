/* Sumito: the list of moves of a live game and of a table, one row per turn.
 *
 *   renderMoveList(list, moves, {
 *     perTurn,     moves in a turn: 2 on the game page, the players at a table;
 *     offset,      plies before the first move within its turn (1: a custom start gave White
 *                  the first move, which then stands in White's column);
 *     emptyText,   shown while there is no move;
 *     lastPly,     the move marked "last" (the last one unless a replay shows another);
 *     follow,      scroll to the newest move;
 *     drawMove,    (move) => the element of one move (a span, a button);
 *   })
 *
 * Each row starts with its turn's number (span.move-no), then one element per move, carrying
 * data-ply and class "move"; a row that starts after its turn began has blank places first.
 */

export function renderMoveList(list, moves, {
  perTurn = 2,
  offset = 0,
  emptyText = "",
  lastPly = moves.length ? moves[moves.length - 1].ply : null,
  follow = true,
  drawMove,
}) {
  list.replaceChildren();
  if (!moves.length) {
    const empty = document.createElement("li");
    empty.className = "empty muted";
    empty.textContent = emptyText;
    list.appendChild(empty);
    return;
  }
  let row = null;
  for (const move of moves) {
    const turn = move.ply + offset; // counted from 1, as if the turn began with its first place
    const place = (turn - 1) % perTurn;
    if (place === 0 || !row) {
      row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "move-no";
      number.textContent = `${Math.ceil(turn / perTurn)}.`;
      row.appendChild(number);
      for (let blank = 0; blank < place; blank++) row.appendChild(document.createElement("span"));
      list.appendChild(row);
    }
    const item = drawMove(move);
    item.classList.add("move");
    item.dataset.ply = String(move.ply);
    if (move.ply === lastPly) item.classList.add("last");
    row.appendChild(item);
  }
  if (follow) list.scrollTop = list.scrollHeight;
}
