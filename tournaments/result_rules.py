"""Which board results are possible, with the marbles pushed off (pure: no Django).

A game ends when one side has pushed off ``marbles_to_win`` of the other's marbles, or earlier by
resignation, time, agreement or the move cap. So a result with marbles is possible when:

- nobody pushed off more than ``marbles_to_win``;
- the loser (or, in a draw, either side) pushed off fewer than ``marbles_to_win``: had they
  reached it, they would have won;
- the winner pushed off at most ``marbles_to_win`` (fewer: the game ended another way);
- both counts are given, or neither;
- a forfeit (``+-``, ``-+``, ``--``) has no marbles: no game was played.
"""

from __future__ import annotations

WINS = {"1-0": "black", "0-1": "white"}
DRAW = "1/2-1/2"
FORFEITS = ("+-", "-+", "--")


def marbles_problem(
    result: str, black: int | None, white: int | None, marbles_to_win: int
) -> str | None:
    """Why ``result`` with Black's and White's marbles pushed off cannot be, or None."""
    if black is None and white is None:
        return None
    if result in FORFEITS:
        return "A forfeit has no marbles: no game was played. Leave the marbles empty."
    if black is None or white is None:
        return "Give the marbles pushed off by both players, or by neither."
    for side, count in (("Black", black), ("White", white)):
        if not 0 <= count <= marbles_to_win:
            return (
                f"{side} cannot have pushed off {count}: a game to {marbles_to_win} ends when "
                f"one side has pushed off {marbles_to_win}."
            )
    winner = WINS.get(result)
    if winner is None:  # a draw
        for side, count in (("Black", black), ("White", white)):
            if count == marbles_to_win:
                return (
                    f"A draw with {side} having pushed off {count} cannot be: {side} would have "
                    "won."
                )
        return None
    loser, loser_count = ("White", white) if winner == "black" else ("Black", black)
    if loser_count == marbles_to_win:
        return (
            f"{result} with {loser} having pushed off {loser_count} cannot be: {loser} reached "
            f"{marbles_to_win} and would have won."
        )
    return None
