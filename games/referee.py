"""The one referee of a move: whether it may be played, and if not, why.

Every path that takes a move asks here, in the same order: the HTTP API and the game socket
(both through ``games.services.moves``, its compare-and-set path and its locked path alike) and
the tables of three or four (``multiplayer.services.table_move``). lichess decides a move in one
place too (``MovePlayer.scala``): a move sent by someone who does not play, to a game over, after
the mover's flag fell, at a ply the game has left, or out of turn, is refused for the first of
these reasons, and only then do the rules judge the move itself (:func:`illegal`).

:func:`move_refusal` decides; the errors of the refusals every kind of game shares are written
once here (:func:`stale_ply`, :func:`not_your_turn`, :func:`illegal`). The refusals that name the
game or table itself (not a player of it, it is over, its flag fell) are built by its service,
which also adjudicates the fallen flag.
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext as _

from core.errors import Conflict, Unprocessable, engine_text


class Refusal(StrEnum):
    """Why a move is not played; the value is the API's error code."""

    NOT_A_PLAYER = "not_a_player"
    TIME_OUT = "time_out"
    GAME_OVER = "game_over"
    STALE_PLY = "stale_ply"
    NOT_YOUR_TURN = "not_your_turn"


def move_refusal(
    *,
    colour: str | None,
    active: bool,
    flagged: bool,
    ply: int,
    expected_ply: int,
    to_move: str,
) -> Refusal | None:
    """The first reason to refuse a move, or None when the rules may judge it.

    ``colour``: the mover's colour in the game, None if they do not play it; ``active``: the
    game is in progress; ``flagged``: the side to move has run out of time by the server's
    clock (a move at or after the deadline is never played); ``ply``: the game's ply and
    ``expected_ply`` the one the mover saw; ``to_move``: the colour to move.
    """
    if colour is None:
        return Refusal.NOT_A_PLAYER
    if active and flagged:
        return Refusal.TIME_OUT
    if not active:
        return Refusal.GAME_OVER
    if expected_ply != ply:
        return Refusal.STALE_PLY
    if to_move != colour:
        return Refusal.NOT_YOUR_TURN
    return None


def stale_ply(*, expected_ply: int, ply: int) -> Conflict:
    return Conflict(
        _("You sent ply %(expected_ply)s but the game is at ply %(ply)s: refetch the game.")
        % {"expected_ply": expected_ply, "ply": ply},
        code=Refusal.STALE_PLY.value,
    )


def not_your_turn(colour_name: str) -> Conflict:
    """``colour_name``: the English name of the colour to move ("Black"), translated here."""
    return Conflict(
        _("It is %(colour)s's turn, not yours.") % {"colour": _(colour_name)},
        code=Refusal.NOT_YOUR_TURN.value,
    )


def illegal(error: Exception) -> Unprocessable:
    """The rules engine refused the move: its reason, in the reader's language."""
    return Unprocessable(engine_text(error), code="illegal_move")
