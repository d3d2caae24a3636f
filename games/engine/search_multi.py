"""A computer player for three and four players (games.engine.multi): a short "paranoid"
search. Pure, no Django.

With more than two players there is no single opponent to minimise over; the paranoid reading
(every other player plays against the mover) makes it a two-sided search again. The mover tries
each move; each following player (up to ``plies``) answers with the move that is worst for the
mover by the evaluation below; the mover picks the best worst case. Evaluation, from the mover's
side: 1000 per marble it (or its team) pushed off minus 1000 per own (or team) marble lost, plus
the two-player centre and cohesion terms of its marbles (``games.engine.evaluation.evaluate`` against
everyone else). A push-off that reaches ``marbles_to_win`` wins at once.
"""

from __future__ import annotations

import time

from games.engine.evaluation import MARBLE, WIN, evaluate
from games.engine.multi import MultiPosition, apply_multi_move


def _score(position: MultiPosition, me: int, start_counts: tuple[int, ...]) -> int:
    team = {me, position.partner(me)} - {None}
    mine = 0
    for index in team:
        mine |= position.boards[index]
    others = position.occupied & ~mine
    lost = sum(start_counts[i] - position.boards[i].bit_count() for i in team)
    taken = sum(
        start_counts[i] - position.boards[i].bit_count()
        for i in range(position.players)
        if i not in team
    )
    return (
        MARBLE * (taken - lost)
        + evaluate(mine, others)
        - MARBLE * (mine.bit_count() - others.bit_count())
    )


def multi_best_move(
    position: MultiPosition, *, seconds: float = 1.0, marbles_to_win: int = 6, plies: int = 2
):
    """The move of the side to move by the paranoid search. ``marbles_to_win`` is accepted for
    the command line's sake; the position does not say who pushed off what, so every push-off
    is simply worth a marble."""
    deadline = time.perf_counter() + seconds
    me = position.to_move
    counts = tuple(b.bit_count() for b in position.boards)
    moves = position.legal_moves()
    if not moves:
        return None
    best, best_score = moves[0], -WIN * 10
    for move in moves:
        after, _ = apply_multi_move(position, move)
        score = _worst(after, me, counts, plies - 1, deadline)
        if score > best_score:
            best, best_score = move, score
        if time.perf_counter() > deadline:
            break
    return best


def _worst(position: MultiPosition, me: int, counts, plies: int, deadline: float) -> int:
    if plies <= 0 or position.to_move == me or time.perf_counter() > deadline:
        return _score(position, me, counts)
    worst = None
    for move in position.legal_moves():
        after, _ = apply_multi_move(position, move)
        score = _score(after, me, counts)
        if worst is None or score < worst:
            worst = score
    return _score(position, me, counts) if worst is None else worst
