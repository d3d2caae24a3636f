"""Demo games for ``manage.py seed_demo``: finished games with full records and a few in progress.

Moves are chosen by a small greedy policy (push a marble off if possible, else push, else a random
legal move) so the games end by marbles rather than by the move cap. Everything goes through the
same services as real play, with ``now`` advancing a few seconds per move.
"""

import random
from datetime import datetime, timedelta

from games import engine, services
from games.models import Game


def _choose(position: engine.Position, rng: random.Random) -> str:
    moves = engine.legal_moves(position)
    for wanted in (lambda m: m.pushed_off, lambda m: m.pushed):
        candidates = [m for m in moves if wanted(m)]
        if candidates:
            return rng.choice(candidates).notation
    return rng.choice(moves).notation


def play_demo_game(
    *, black, white, options, start_at: datetime, plies: int | None, rng: random.Random
) -> Game:
    """Play ``plies`` moves (``None``: to the end) starting at ``start_at``."""
    game = services.game_create(black=black, white=white, options=options, now=start_at)
    now = start_at
    while game.is_active and (plies is None or game.ply < plies):
        now += timedelta(seconds=rng.uniform(1.5, 6.0))
        player = black if game.side_to_move == "b" else white
        game = services.game_move_apply(
            game_id=game.pk,
            player=player,
            move=_choose(engine.Position.from_string(game.position), rng),
            expected_ply=game.ply,
            now=now,
        )
    return game
