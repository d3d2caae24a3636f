"""Playing the computer: games against the search of ``games.engine.search``, level 1 to 8.

The computer players are eight accounts (``Sumito level 1`` ... ``Sumito level 8``: a name with
spaces, which sign-up never gives) made on first use with no usable password. A game against one
is an ordinary game, always unrated, so the clock, the archive and the replay treat it like any
other. Whenever a game's new state is published (``games.events.publish_game``: after every
move, and at the start) and the computer is to move, a Celery task is queued
(``games.tasks.computer_move``): the worker thinks (never a web process; in the embedded default
the in-process job runner) and plays through the same service as a player, at the ply it was
asked about, so a stale or doubled task plays nothing. The turn is written before its task is
sent (``ComputerTurn``) and claimed by the worker that thinks on it: the beat's sweep
(``games.tasks.computer_sweep``) sends again a turn no worker took (the broker lost it, or Redis
was down) or whose claim ran out (the worker died), and a restarted worker sends again at once
the turns a gone process of its host held (:func:`turns_release_dead`). It spends a share of its remaining time and increment, read from the game's clock just
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
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.computer_names import computer_username
from core.errors import ServiceError, Unprocessable
from core.jobs import enqueue
from core.workers import gone, worker_name
from games import engine
from games.computer_players import MOVE_TASK, _remember, computer_level_of, turn_send
from games.engine.levels import LEVELS, best_move
from games.engine.search import Searcher
from games.engine.thinking_time import thinking_seconds
from games.models import ComputerTurn, Game
from games.options import options_from_choices

logger = logging.getLogger(__name__)

#: A turn sent this long ago and taken by no worker is sent again (lost with the broker, or
#: sent while Redis was down); a worker's claim runs for its thinking time and this margin (for
#: loading the game and writing the move), after which the turn is sent again (the worker died).
RESEND_SECONDS = 3.0
CLAIM_MARGIN_SECONDS = 3.0


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
    if not engine_game.in_placement:
        plies = engine_game.ply - engine_game.settings.placements
        clock_read = time.perf_counter()
        budget = _budget(game, level, plies, timezone.now())
    if not turn_claim(game_id, ply, seconds=budget, now=timezone.now()):
        return None  # another worker thinks on this turn (a task sent twice)
    if engine_game.in_placement:
        notation = _placement(engine_game, rng)
    else:
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
    ComputerTurn.objects.filter(game_id=game_id, ply=ply).delete()  # played
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


def turn_claim(game_id: int, ply: int, *, seconds: float, now: datetime) -> bool:
    """Take the computer's turn at ``ply`` for ``seconds`` of thinking (and the margin): True
    unless another worker holds it. A turn with no row (its write was lost) is written taken."""
    until = now + timedelta(seconds=seconds + CLAIM_MARGIN_SECONDS)
    me = worker_name()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lte=now)
    claim = {"claimed_until": until, "claimed_by": me}
    if ComputerTurn.objects.filter(free, game_id=game_id, ply=ply).update(**claim):
        return True
    # a row of an earlier ply (the write of this one was lost), or none at all
    taken = {"ply": ply, "sent_at": now, **claim}
    if ComputerTurn.objects.filter(game_id=game_id, ply__lt=ply).update(**taken):
        return True
    try:
        with transaction.atomic():
            ComputerTurn.objects.create(game_id=game_id, **taken)
    except IntegrityError:
        return False  # written meanwhile: held by another worker, or sent again
    return True


def turns_release_dead(*, host: str, now: datetime) -> int:
    """Send again at once the turns claimed by processes of ``host`` that are gone (called by a
    worker when it starts: one killed while it thought is restarted on the same host, and its
    turn need not wait for the claim to run out). Returns how many were sent."""
    count = 0
    held = ComputerTurn.objects.filter(claimed_by__startswith=f"{host}:", claimed_until__gt=now)
    for turn in held.values("game_id", "ply", "claimed_by", "claimed_until"):
        if not gone(turn["claimed_by"], host):
            continue
        again = ComputerTurn.objects.filter(
            game_id=turn["game_id"],
            claimed_by=turn["claimed_by"],
            claimed_until=turn["claimed_until"],
        ).update(sent_at=now, claimed_until=None, claimed_by="", sends=F("sends") + 1)
        if again:
            enqueue(MOVE_TASK, turn["game_id"], turn["ply"])
            count += 1
    return count


def computer_sweep(*, now: datetime) -> int:
    """Send again the computer's turns whose task was lost: sent ``RESEND_SECONDS`` ago and
    taken by no worker (the broker lost it, or Redis was down when it was sent), or taken by a
    worker whose claim ran out (it died while it thought); and the computer's turns with no row
    at all (the web process died between the commit and the write). Turns of games that moved
    on or ended are deleted. Returns how many were sent."""
    stale = ComputerTurn.objects.exclude(game__status=Game.Status.STARTED)
    stale.delete()
    ComputerTurn.objects.exclude(ply=F("game__ply")).delete()
    lost = Q(claimed_until__isnull=True, sent_at__lt=now - timedelta(seconds=RESEND_SECONDS))
    due = ComputerTurn.objects.filter(lost | Q(claimed_until__lt=now))
    count = 0
    for turn in due.values("game_id", "ply", "sent_at", "claimed_until"):
        # sent again by one sweep only (several web processes and beat may sweep at once)
        again = ComputerTurn.objects.filter(
            game_id=turn["game_id"], sent_at=turn["sent_at"], claimed_until=turn["claimed_until"]
        ).update(sent_at=now, claimed_until=None, claimed_by="", sends=F("sends") + 1)
        if again:
            enqueue(MOVE_TASK, turn["game_id"], turn["ply"])
            count += 1
    names = [computer_username(level) for level in LEVELS]
    ids = list(get_user_model().objects.filter(username__in=names).values_list("pk", flat=True))
    if not ids:
        return count
    unwritten = (
        Game.objects.filter(
            status=Game.Status.STARTED,
            turn_started_at__lt=now - timedelta(seconds=RESEND_SECONDS),
        )
        .filter(
            Q(black_id__in=ids, position__startswith="b")
            | Q(white_id__in=ids, position__startswith="w")
        )
        .exclude(pk__in=ComputerTurn.objects.values("game_id"))
    )
    for game_id, game_ply in unwritten.values_list("pk", "ply"):
        turn_send(game_id, game_ply, now)
        count += 1
    return count
