"""Playing the computer: games against the search of ``games.engine.search``, level 1 to 8.

The computer players are eight accounts (``Sumito level 1`` ... ``Sumito level 8``: a name with
spaces, which sign-up never gives) made on first use with no usable password. A game against one
is an ordinary game, always unrated, so the clock, the archive and the replay treat it like any
other. Whenever a game's new state is published (``games.events.publish_game``: after every
move, and at the start) and the computer is to move, a Celery task is queued
(``games.tasks.computer_move``): the worker thinks (never a web process; in the embedded default
the in-process job runner) and plays through the same service as a player, at the ply it was
asked about, so a stale or doubled task plays nothing. A task lost with a worker is queued again
by the beat's sweep (``games.tasks.computer_sweep``) when the computer has been to move for a
while. It spends a share of its remaining time: a thirtieth of it plus most of the increment,
capped by the level's own thinking time.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from accounts.computer_names import computer_username
from core.errors import ServiceError, Unprocessable
from core.jobs import enqueue
from games import engine
from games.computer_players import MOVE_TASK, _remember, computer_level_of
from games.engine.search import LEVELS, best_move
from games.models import Game
from games.options import options_from_choices

#: The sweep queues the computer's move again after it has been to move this long.
STUCK_SECONDS = 20


def computer_user(level: int):
    """The account of the computer of ``level`` (made on first use)."""
    if level not in LEVELS:
        raise Unprocessable(f"The computer's level is 1 to 8, not {level}.", code="bad_level")
    user, created = get_user_model().objects.get_or_create(
        username=computer_username(level),
        defaults={"email": "", "display_name": f"Sumito {level}: {LEVELS[level].name}"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    _remember(user.pk, level)
    return user


def computer_game_create(*, player, level: int, colour: str, choices: dict, now: datetime) -> Game:
    """A game of ``player`` against the computer of ``level`` (unrated); ``colour`` is the
    player's: black, white or random."""
    from games.services import game_create

    if colour not in ("black", "white", "random"):
        raise Unprocessable("colour must be black, white or random.", code="bad_colour")
    computer = computer_user(level)
    options = options_from_choices({**choices, "rated": False}).validated()
    if colour == "random":
        colour = random.SystemRandom().choice(("black", "white"))
    black, white = (player, computer) if colour == "black" else (computer, player)
    return game_create(black=black, white=white, options=options, now=now)


def _budget(game: Game, level: int, now: datetime) -> float:
    cap = max(LEVELS[level].seconds, 0.05)
    if not game.time_control.has_clock:
        return cap
    left_ms = game.clock.remaining_ms(game.side_to_move, now)
    share = left_ms / 1000 / 30 + 0.7 * game.increment_seconds
    return max(0.05, min(cap, share))


def _placement(engine_game, rng: random.Random) -> str:
    """During the placement phase: a free cell near the centre, by lot among the nearest."""
    free = [p.notation for p in engine_game.legal_moves()]

    def distance(notation: str) -> int:
        row, digit = "abcdefghi".index(notation[1]) - 4, int(notation[2]) - 5
        return max(abs(row), abs(digit), abs(row - digit))

    nearest = min(distance(n) for n in free)
    return rng.choice([n for n in free if distance(n) <= nearest + 1])


def computer_move_play(*, game_id: int, ply: int) -> str | None:
    """Think and play the computer's move in ``game_id`` if it is still to move at ``ply``;
    returns the move played, or None (nothing to do, or the move was refused)."""
    from games.records import engine_game_of
    from games.services import game_move_apply

    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_active or game.ply != ply:
        return None
    mover_id = game.black_id if game.side_to_move == engine.BLACK else game.white_id
    level = computer_level_of(mover_id)
    if level is None:
        return None
    engine_game = engine_game_of(game)
    rng = random.Random()
    if engine_game.in_placement:
        notation = _placement(engine_game, rng)
    else:
        result = best_move(
            engine_game.position,
            level=level,
            seconds=_budget(game, level, timezone.now()),
            marbles_to_win=game.marbles_to_win,
            rng=rng,
            history=engine_game.positions[:-1],
        )
        if result.move is None:
            return None
        notation = result.move.notation
    computer = get_user_model().objects.get(pk=mover_id)
    try:
        game_move_apply(
            game_id=game_id, player=computer, move=notation, expected_ply=ply, now=timezone.now()
        )
    except ServiceError:
        return None  # the game moved on meanwhile (a flag, a resignation): nothing to do
    return notation


def computer_sweep(*, now: datetime) -> int:
    """Queue again the computer's move in games where it has been to move for a while (its
    task was lost with a worker or the broker)."""
    names = [computer_username(level) for level in LEVELS]
    ids = list(get_user_model().objects.filter(username__in=names).values_list("pk", flat=True))
    if not ids:
        return 0
    stuck = Game.objects.filter(
        status=Game.Status.STARTED,
        turn_started_at__lt=now - timedelta(seconds=STUCK_SECONDS),
    ).filter(
        Q(black_id__in=ids, position__startswith="b")
        | Q(white_id__in=ids, position__startswith="w")
    )
    count = 0
    for game_id, game_ply in stuck.values_list("pk", "ply"):
        enqueue(MOVE_TASK, game_id, game_ply)
        count += 1
    return count
