"""Which accounts are the computer's (told by their name, ``accounts.computer_names``), and the
queueing of its move after each published state. Nothing of the computer's play or of the
games' services (``games.computer``), so that the games' events use it without importing them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.computer_names import level_named
from core.jobs import enqueue
from games import engine
from games.models import ComputerTurn, Game

MOVE_TASK = "games.tasks.computer_move"


def computer_name(level: int) -> str:
    """The computer of ``level`` as a page names it, in the reader's language ("Sumito 3:
    Casual: looks one move ahead"); its account keeps the English name."""
    from games.engine.levels import LEVELS

    return gettext("Sumito %(level)s: %(name)s") % {
        "level": level,
        "name": gettext(LEVELS[level].name),
    }


#: What this process knows of accounts: user id -> the computer's level, or None for a person.
#: Filled on first sight of each id (one query), never stale: an account is created a computer
#: or a person, under a name sign-up cannot give.
_levels_by_user: dict[int, int | None] = {}
_KNOWN_MAX = 100_000


def computer_level_of(user_id: int) -> int | None:
    """The level of the computer account ``user_id``, or None for a person. Each process looks
    an account up once (another process may have made the computer's account since this one
    last looked, so nothing is assumed from a list read earlier)."""
    if user_id in _levels_by_user:
        return _levels_by_user[user_id]
    username = (
        get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first()
    )
    level = level_named(username) if username is not None else None
    if username is not None:
        _remember(user_id, level)
    return level


def _remember(user_id: int, level: int | None) -> None:
    """Keep what an account is once the transaction that saw it commits: a row seen inside a
    transaction that rolls back may leave its id to another account (SQLite hands a rolled
    back id out again)."""

    def keep() -> None:
        if len(_levels_by_user) >= _KNOWN_MAX:
            _levels_by_user.clear()
        _levels_by_user[user_id] = level

    transaction.on_commit(keep)


def computer_to_move(game: Game) -> bool:
    to_move = game.black_id if game.side_to_move == engine.BLACK else game.white_id
    return game.is_active and computer_level_of(to_move) is not None


def turn_send(game_id: int, ply: int, now) -> None:
    """Write the computer's turn at ``ply`` (unless it is written already: a second publish of
    the same state leaves a worker's claim alone), then send its task. The row first: a task
    lost with the broker or a worker is sent again by the sweep (``games.computer``)."""
    fresh = {"ply": ply, "sent_at": now, "claimed_until": None, "claimed_by": "", "sends": 1}
    if not ComputerTurn.objects.filter(game_id=game_id).exclude(ply=ply).update(**fresh):
        ComputerTurn.objects.get_or_create(game_id=game_id, defaults=fresh)
    enqueue(MOVE_TASK, game_id, ply)


def maybe_move(game: Game) -> None:
    """Queue the computer's move if it is to move in ``game`` (called after each publish)."""
    if computer_to_move(game):
        turn_send(game.pk, game.ply, timezone.now())
