"""The computer's levels, 1 to 8, and the move each plays (:func:`best_move`). Pure, no Django.

Levels 1 and 2 do not search (a random move; the best evaluation one move ahead, with noise);
3 to 7 search to a fixed depth (3 and 4 with a quiescence of push-offs only, and now and then a
quick noisy one-ply move instead of the search's), and 8 deepens until its time is up. Each
has a thinking-time cap; the caller (the server's worker, ``games.computer``) may give less.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.messages import gettext_noop
from games.engine.evaluation import evaluate, ordered_moves
from games.engine.movegen import Move
from games.engine.position import Position
from games.engine.search import QUIESCENCE_PLIES, Iteration, Searcher, SearchResult


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    depth: int  # 0: no search (levels 1-2)
    seconds: float  # the most it thinks on a move (the clock may give it less)
    noise: int  # random noise added to the one-ply scores of its occasional quick move
    blunder: float = 0.0  # how often it plays that quick one-ply move instead of the search's
    quiescence: int = QUIESCENCE_PLIES  # plies of pushes played out (3 or less: push-offs only)


LEVELS = {
    1: Level(1, gettext_noop("Beginner: moves at random"), 0, 0.0, 0),
    2: Level(2, gettext_noop("Novice: takes what it sees"), 0, 0.0, 400),
    3: Level(3, gettext_noop("Casual: looks one move ahead"), 1, 0.3, 60, 0.25, 3),
    4: Level(4, gettext_noop("Club player: two moves ahead"), 2, 0.6, 20, 0.25, 3),
    5: Level(5, gettext_noop("Strong club player"), 2, 1.0, 0),
    6: Level(6, gettext_noop("Expert"), 3, 2.0, 0),
    7: Level(7, gettext_noop("Master"), 4, 3.0, 0),
    8: Level(8, gettext_noop("Grandmaster: its full search"), 64, 5.0, 0),
}


def greedy_move(position: Position, rng: random.Random, noise: int = 0) -> Move | None:
    """The one-ply choice: a push-off if there is one, else the move with the best evaluation
    right after it (plus up to ``noise`` at random)."""
    own, opp = position.own_and_opponent_bits()
    offs, others, quiet = ordered_moves(own, opp)
    if offs:
        return rng.choice(offs)
    moves = others + quiet
    if not moves:
        return None
    return max(
        moves,
        key=lambda m: -evaluate(opp ^ m.opp_xor, own ^ m.own_xor) + rng.randint(0, noise),
    )


def best_move(
    position: Position,
    *,
    level: int = 8,
    seconds: float | None = None,
    marbles_to_win: int = 6,
    searcher: Searcher | None = None,
    rng: random.Random | None = None,
    on_iteration: Callable[[Iteration], None] | None = None,
    history: Iterable[Position] = (),
    plies_left: int | None = None,
) -> SearchResult:
    """The move the computer of ``level`` (1-8) plays in ``position``; ``seconds`` caps its
    thinking time (default: the level's; level 8 takes ``seconds`` as given). ``history``: the
    game's earlier positions, which it treats as draws if reached again; ``plies_left``: the
    plies to a move cap that ends the game as a draw (``Searcher.search``)."""
    if level not in LEVELS:
        raise ValueError(f"level must be from 1 to 8, not {level!r}")
    spec = LEVELS[level]
    rng = rng or random.Random()
    if spec.depth == 0:
        own, opp = position.own_and_opponent_bits()
        if level == 1:
            offs, others, quiet = ordered_moves(own, opp)
            moves = offs + others + quiet
            move = rng.choice(moves) if moves else None
        else:
            move = greedy_move(position, rng, spec.noise)
        return SearchResult(move, 0, 0, [move.notation] if move else [])
    searcher = searcher or Searcher(marbles_to_win=marbles_to_win, seed=rng.randrange(2**32))
    budget = spec.seconds if seconds is None else min(seconds, spec.seconds)
    if level == 8 and seconds is not None:
        budget = seconds
    result = searcher.search(
        position,
        seconds=budget,
        max_depth=spec.depth,
        on_iteration=on_iteration,
        history=history,
        quiescence=spec.quiescence,
        plies_left=plies_left,
    )
    if spec.blunder and result.move is not None and rng.random() < spec.blunder:
        # weaker levels: now and then a quick one-ply move instead (never instead of a push-off)
        own, opp = position.own_and_opponent_bits()
        offs, others, quiet = ordered_moves(own, opp)
        if not offs:
            result.move = max(
                others + quiet,
                key=lambda m: (
                    -evaluate(opp ^ m.opp_xor, own ^ m.own_xor) + rng.randint(0, spec.noise)
                ),
            )
    return result
