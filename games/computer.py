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
while. It spends a share of its remaining time and increment, read from the game's clock just
before it thinks (``games.engine.thinking_time``: an estimate of the moves left, a reserve for
the worker's latency and for the moves to the cap, the level's own thinking time as a cap).
Each move logs its timings (``games.computer`` logger): how long the task waited for a
worker, loaded the game, thought (and its budget) and took to write the move.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from accounts.computer_names import computer_username
from core.errors import ServiceError, Unprocessable
from core.jobs import enqueue
from games import engine
from games.computer_players import MOVE_TASK, _remember, computer_level_of
from games.engine.levels import LEVELS, best_move
from games.engine.search import Searcher
from games.engine.thinking_time import thinking_seconds
from games.models import Game
from games.options import options_from_choices

logger = logging.getLogger(__name__)

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


def _budget(game: Game, level: int, plies: int, now: datetime) -> float:
    """The seconds the computer of ``level`` may think at ``now`` (``plies``: the moves played
    after any placement phase, for the move cap)."""
    cap = LEVELS[level].seconds
    if not game.time_control.has_clock and not game.clock.in_first_moves:
        return thinking_seconds(cap=cap, remaining_ms=None)
    clock = game.clock
    first_move_left = None
    if clock.in_first_moves and clock.running:
        first_move_left = max(0, clock.first_move_ms - int(_ms_between(clock.turn_started_at, now)))
    return thinking_seconds(
        cap=cap,
        remaining_ms=clock.remaining_ms(game.side_to_move, now)
        if game.time_control.has_clock
        else None,
        increment_ms=clock.increment_ms,
        ply=plies,
        max_plies=game.max_plies,
        first_move_left_ms=first_move_left,
    )


def _plies_to_a_drawn_cap(engine_game) -> int | None:
    """The plies left before the move cap when the cap ends the game as a draw (else None: at
    a cap that the side with more marbles wins, a lead needs no hurry)."""
    settings = engine_game.settings
    if settings.max_plies_result != "draw":
        return None
    return settings.max_plies - (engine_game.ply - settings.placements)


def _ms_between(earlier: datetime, later: datetime) -> float:
    return (later - earlier).total_seconds() * 1000


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

    started = timezone.now()
    begun = time.perf_counter()
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_active or game.ply != ply:
        return None
    mover_id = game.black_id if game.side_to_move == engine.BLACK else game.white_id
    level = computer_level_of(mover_id)
    if level is None:
        return None
    engine_game = engine_game_of(game)
    rng = random.Random()
    loaded = clock_read = time.perf_counter()
    budget = 0.0
    searcher = None  # kept until the move is written: freeing a large table is not free
    if engine_game.in_placement:
        notation = _placement(engine_game, rng)
    else:
        plies = engine_game.ply - engine_game.settings.placements
        clock_read = time.perf_counter()
        budget = _budget(game, level, plies, timezone.now())
        searcher = Searcher(marbles_to_win=game.marbles_to_win, seed=rng.randrange(2**32))
        result = best_move(
            engine_game.position,
            level=level,
            seconds=budget,
            marbles_to_win=game.marbles_to_win,
            searcher=searcher,
            rng=rng,
            history=engine_game.positions[:-1],
            plies_left=_plies_to_a_drawn_cap(engine_game),
        )
        if result.move is None:
            return None
        notation = result.move.notation
    thought = time.perf_counter()
    computer = get_user_model().objects.get(pk=mover_id)
    try:
        game_move_apply(
            game_id=game_id, player=computer, move=notation, expected_ply=ply, now=timezone.now()
        )
    except ServiceError:
        return None  # the game moved on meanwhile (a flag, a resignation): nothing to do
    written = time.perf_counter()
    logger.info(
        "computer level %s played %s in game %s at ply %s: waited %.0f ms for a worker, "
        "loaded in %.0f ms, thought %.0f ms (budget %.0f ms), wrote in %.0f ms; "
        "%.0f ms beyond the budget from reading the clock to the move written",
        level,
        notation,
        game_id,
        ply,
        _ms_between(game.turn_started_at, started) if game.turn_started_at else 0.0,
        (loaded - begun) * 1000,
        (thought - loaded) * 1000,
        budget * 1000,
        (written - thought) * 1000,
        (written - clock_read - budget) * 1000,
    )
    del searcher
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
