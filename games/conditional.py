"""Conditional moves of a correspondence game ("if he plays X, I play Y"), as lichess's
conditional premoves: pure logic, no Django.

A player saves, on their opponent's turn, lines of moves from the position on the board: each
line alternates the opponent's move and the player's answer, so it has an even number of moves
(X1 Y1 X2 Y2 ...). Together the lines are a tree: where two lines agree up to an opponent's
move, they give the same answer (:func:`conflict`). When the opponent moves, the lines that
foresaw that move give the answer, which the server plays at once, and what follows the answer
is kept for the next turn (:func:`follow`); any other move drops them.
"""

from __future__ import annotations

from collections.abc import Sequence

#: At most this many lines, each of at most this many moves.
MAX_LINES = 20
MAX_LINE_MOVES = 20

Line = list[str]


def normalised(lines: Sequence[Sequence[str]]) -> list[Line]:
    """The lines written in the engine's case without blanks, each once, in their order."""
    kept: list[Line] = []
    for line in lines:
        clean = [move.strip().lower() for move in line]
        if clean not in kept:
            kept.append(clean)
    return kept


def conflict(lines: Sequence[Line]) -> tuple[Line, str, str] | None:
    """Two lines that agree up to an opponent's move and then answer it differently: the moves
    they share (ending with the opponent's), and the two answers; None if the lines are a tree."""
    answers: dict[tuple[str, ...], str] = {}
    for line in lines:
        for index in range(1, len(line), 2):
            before = tuple(line[:index])
            answer = answers.setdefault(before, line[index])
            if answer != line[index]:
                return list(before), answer, line[index]
    return None


def follow(lines: Sequence[Line], played: Sequence[str]) -> tuple[str | None, list[Line]]:
    """What the lines say after the moves ``played`` since they were saved: the answer to play
    now (``played`` ends with an opponent's move the lines foresaw; else None), and the lines
    left for afterwards (each trimmed to what follows that answer, or to what follows
    ``played`` when it ends with the player's own move; lines that went another way dropped).
    """
    played = list(played)
    answer = None
    if len(played) % 2 == 1:
        answer = next((line[len(played)] for line in lines if line[: len(played)] == played), None)
        if answer is None:
            return None, []
        played.append(answer)
    left = [line[len(played) :] for line in lines if line[: len(played)] == played]
    return answer, [line for line in left if line]
