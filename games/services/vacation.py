"""Vacations from correspondence games (``docs/correspondence.md``): a player may stop the clocks
of their correspondence games for up to ``CORRESPONDENCE_VACATION_DAYS`` a calendar year.

While a vacation runs, each of the player's correspondence games where it is their turn keeps
the time its turn had left and has no deadline (so no sweep flags it); a turn that becomes theirs
meanwhile starts stopped too (``games.services.moves``; a move read before the vacation
committed is caught by :func:`vacations_hold`, the sweep's). When the vacation ends (the player ends
it, or its planned end passes and the sweep of ``correspondence_notify`` finds it), each stopped
turn starts again from now with what it had left. The lock order is the player's row, then each
game's row, as everywhere a game is locked after its player."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict
from games import clock as game_clock
from games import move_store
from games.models import Game, Vacation
from games.selectors import correspondence_running, on_vacation, vacation_current, vacation_left
from games.services.lifecycle import after_commit


def _turns_of(user: User):
    """The player's correspondence games in progress where it is their turn."""
    return Game.objects.filter(
        Q(black=user, position__startswith="b") | Q(white=user, position__startswith="w"),
        status=Game.Status.STARTED,
        base_seconds__gt=game_clock.LIVE_LIMIT_SECONDS,
    )


def vacation_start(*, user: User, now: datetime) -> Vacation:
    """Begin the player's vacation now, planned to end when the year's allowance is spent; the
    clocks of their turns stop. Conflict when one runs already or nothing is left."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if vacation_current(user.pk, now) is not None:
            raise Conflict(_("You are on vacation already."), code="on_vacation")
        left = vacation_left(user.pk, now)
        if left < timedelta(minutes=1):
            raise Conflict(
                _("Your vacation days for this year are used up."), code="no_vacation_left"
            )
        vacation = Vacation.objects.create(user=user, started_at=now, ends_at=now + left)
        for game_id in _turns_of(user).exclude(flag_deadline=None).values_list("pk", flat=True):
            _stop(move_store.lock(game_id), now)
    return vacation


def _stop(game: Game, now: datetime) -> None:
    clock = game.clock
    if game.status != Game.Status.STARTED or not clock.per_move_ms or not clock.running:
        return
    left = clock.remaining_ms(game.side_to_move, now)
    if game.side_to_move == "b":
        game.black_ms = left
    else:
        game.white_ms = left
    game.turn_started_at = now
    game.flag_deadline = None
    game.save(update_fields=["black_ms", "white_ms", "turn_started_at", "flag_deadline"])
    after_commit(game, now)


def _start_again(game: Game, now: datetime) -> None:
    if game.status != Game.Status.STARTED or game.flag_deadline is not None:
        return
    if not game.days_per_move:
        return
    left = game.black_ms if game.side_to_move == "b" else game.white_ms
    game.turn_started_at = now
    game.flag_deadline = now + timedelta(milliseconds=left)
    game.save(update_fields=["turn_started_at", "flag_deadline"])
    after_commit(game, now)


def vacation_end(*, user: User, now: datetime) -> Vacation:
    """End the player's running vacation now: their stopped turns start again. Conflict when
    none runs."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        vacation = vacation_current(user.pk, now)
        if vacation is None:
            raise Conflict(_("You are not on vacation."), code="not_on_vacation")
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
        _resume(vacation, now)
    return vacation


def _resume(vacation: Vacation, now: datetime) -> None:
    for game_id in _turns_of(vacation.user).filter(flag_deadline=None).values_list("pk", flat=True):
        _start_again(move_store.lock(game_id), now)
    vacation.resumed = True
    vacation.save(update_fields=["resumed"])


def vacations_hold(*, now: datetime) -> int:
    """Stop the running turns of players on vacation; how many. A move that gave a player the
    turn while their vacation began (each read before the other committed) leaves it running:
    this sweep's repair, days before such a turn could fall."""
    running = correspondence_running()
    away = {"vacations__started_at__lte": now, "vacations__ends_at__gt": now}
    found = running.filter(
        Q(position__startswith="b", **{f"black__{k}": v for k, v in away.items()})
        | Q(position__startswith="w", **{f"white__{k}": v for k, v in away.items()})
    ).values_list("pk", "black_id", "white_id", "position")
    held = 0
    for game_id, black_id, white_id, position in found.distinct():
        with transaction.atomic():
            user_id = black_id if position.startswith("b") else white_id
            User.objects.select_for_update().filter(pk=user_id).first()
            game = move_store.lock(game_id)
            if game.player_to_move_id == user_id and on_vacation(user_id, now):
                _stop(game, now)
                held += 1
    return held


def vacations_resume(*, now: datetime) -> int:
    """Start again the turns of the vacations whose planned end has passed; how many."""
    done = 0
    for vacation_id, user_id in Vacation.objects.filter(
        resumed=False, ends_at__lte=now
    ).values_list("pk", "user_id"):
        with transaction.atomic():
            User.objects.select_for_update().filter(pk=user_id).first()
            vacation = Vacation.objects.select_related("user").get(pk=vacation_id)
            if vacation.resumed or on_vacation(user_id, now):
                continue  # done meanwhile, or a new vacation runs
            _resume(vacation, now)
            done += 1
    return done
