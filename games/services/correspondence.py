"""The notifications of correspondence games (``docs/correspondence.md``): "your move" when a
turn begins, and a reminder when the turn's time left drops below
:func:`games.clock.reminder_seconds`. Both come from a sweep (beat's
``games.tasks.correspondence_notify``, every 30 s), not from the move's own path: the database is
the truth, so a notification missed by a process that died after a move is written by the next
sweep, and the notification's key (the game and its ply) makes each one once."""

from __future__ import annotations

from datetime import datetime, timedelta

from games import clock as game_clock
from games.models import Game
from games.selectors import correspondence_running
from notifications.services import notification_create

#: A turn begun this long ago still gets its "your move" (sweeps missed in the meantime).
YOUR_MOVE_LOOKBACK = timedelta(minutes=10)


def _in_progress():
    return correspondence_running().select_related("black", "white")


def _data(game: Game) -> dict:
    opponent = game.white if game.side_to_move == "b" else game.black
    return {
        "game": game.pk,
        "ply": game.ply,
        "opponent": opponent.username,
        "days_per_move": game.days_per_move,
        "deadline": game.flag_deadline.isoformat(),
    }


def _to_move(game: Game):
    return game.black if game.side_to_move == "b" else game.white


def correspondence_notify(*, now: datetime) -> int:
    """Write the notifications due at ``now``; the number of games looked at. Idempotent."""
    looked_at = 0
    for game in _in_progress().filter(turn_started_at__gte=now - YOUR_MOVE_LOOKBACK):
        looked_at += 1
        notification_create(
            user=_to_move(game),
            kind="your_move",
            key=f"your_move:{game.pk}:{game.ply}",
            data=_data(game),
            url=game.get_absolute_url(),
            now=now,
        )
    soon = now + timedelta(seconds=game_clock.DAY_SECONDS)
    for game in _in_progress().filter(flag_deadline__gt=now, flag_deadline__lte=soon):
        before = timedelta(seconds=game_clock.reminder_seconds(game.days_per_move))
        if game.flag_deadline - now > before:
            continue
        looked_at += 1
        notification_create(
            user=_to_move(game),
            kind="move_reminder",
            key=f"move_reminder:{game.pk}:{game.ply}",
            data={**_data(game), "hours": int(before.total_seconds() // 3600)},
            url=game.get_absolute_url(),
            now=now,
        )
    return looked_at
