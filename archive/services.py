"""Writes of the archive: a player imports a published game record into their own archive."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from accounts.models import User
from archive.models import NAME_LENGTH, ImportedGame
from core.errors import InvalidInput, engine_text
from games import engine
from games.engine.record_published import read_published_record


def _shown(value: str) -> str:
    """A header value cut to the list's column (the record keeps the whole value)."""
    return value if len(value) <= NAME_LENGTH else value[: NAME_LENGTH - 1] + "…"


def _start_name(game: engine.Game) -> str:
    return game.settings.start if game.settings.start in engine.START_NAMES else "custom"


def imported_game_create(
    *, owner: User, text: str, start: str | None = None, now: datetime
) -> ImportedGame:
    """Read ``text`` as people publish records and keep the game in ``owner``'s archive.

    ``start`` is the start when the text has no Start header (a start name or a position
    string; standard without one). Raises :class:`InvalidInput` naming the problem, the ply
    of a bad move included (``ply 4 (move 2, White) a1a1: ...``), with the engine's code
    (``illegal_move``, ``bad_move_number``, ``bad_header``, ``start_mismatch``, ...); nothing
    is stored then. Never touches ratings.
    """
    try:
        headers, game, filled = read_published_record(text, start=start or None)
    except engine.RecordError as error:
        # 400, as the import's specification asks (the director's board import answers the
        # same problems with 422: its records are our own format, checked as a rule).
        raise InvalidInput(
            _("The record cannot be read: %(error)s") % {"error": engine_text(error)},
            code=error.code,
        ) from None
    record = engine.write_record(game, headers)
    return ImportedGame.objects.create(
        owner=owner,
        black_name=_shown(headers["Black"]),
        white_name=_shown(headers["White"]),
        event=_shown(headers["Event"]),
        date=_shown(headers["Date"]),
        start=_start_name(game),
        start_position=game.start_position.to_string(),
        marbles_to_win=game.settings.marbles_to_win,
        notations=list(game.notations),
        plies=game.ply,
        position=game.position.to_string(),
        result=game.result or "",
        termination=game.termination or "",
        headers=[[tag, value] for tag, value in headers.items()],
        filled_headers=filled,
        record=record,
        created_at=now,
    )
