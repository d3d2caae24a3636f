"""Saving a player's conditional moves in a correspondence game (``docs/correspondence.md``):
lines of the opponent's moves and the player's answers (:mod:`games.conditional`), saved on the
opponent's turn from the position on the board. Playing them is the move path's
(``games.services.moves.conditional_follow``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, Unprocessable, engine_text
from games import conditional, engine, move_store, referee
from games.models import ConditionalMoves, Game
from games.services.lifecycle import game_over_error
from games.services.moves import conditional_follow, player_colour


def conditional_moves_set(
    *, game_id: int, player: User, ply: int, lines: Sequence[Sequence[str]], now: datetime
) -> ConditionalMoves | None:
    """Replace ``player``'s conditional moves in the game with ``lines`` (none: clear them),
    checked against the position at ``ply``, which must be the game's and the opponent's turn.
    Returns the saved row, or None once cleared. Refused, changing nothing: not a player (403),
    not a correspondence game, over, your own turn, another ply (409), a line of an odd number
    of moves, a move the rules refuse, two answers to one move (422)."""
    lines = conditional.normalised(lines)
    if len(lines) > conditional.MAX_LINES or any(
        len(line) > conditional.MAX_LINE_MOVES for line in lines
    ):
        raise InvalidInput(
            _("At most %(lines)s lines of at most %(moves)s moves each.")
            % {"lines": conditional.MAX_LINES, "moves": conditional.MAX_LINE_MOVES},
            code="too_many_conditional_moves",
        )
    for number, line in enumerate(lines, 1):
        if not line or len(line) % 2:
            raise Unprocessable(
                _(
                    "Line %(number)s ends with your opponent's move: give your answer to it "
                    "(each line is their move, your answer, and so on)."
                )
                % {"number": number},
                code="line_without_answer",
            )
    with transaction.atomic():
        game = move_store.lock(game_id)
        colour = player_colour(game, player)
        if not game.is_active:
            raise game_over_error(game)
        if not game.days_per_move:
            raise Conflict(
                _("Conditional moves are for correspondence games (days a move)."),
                code="not_correspondence",
            )
        if ply != game.ply:
            raise referee.stale_ply(expected_ply=ply, ply=game.ply)
        if game.side_to_move == colour:
            raise Conflict(
                _("It is your move: play it; conditional moves answer your opponent's moves."),
                code="your_move",
            )
        for number, line in enumerate(lines, 1):
            _check_line(game, number, line)
        clash = conditional.conflict(lines)
        if clash is not None:
            before, first, second = clash
            raise Unprocessable(
                _(
                    "After %(moves)s your lines answer %(first)s and %(second)s: one answer to "
                    "each move of your opponent."
                )
                % {"moves": " ".join(before), "first": first, "second": second},
                code="conflicting_answers",
            )
        ConditionalMoves.objects.filter(game=game, player=player).delete()
        if not lines:
            return None
        return ConditionalMoves.objects.create(
            game=game, player=player, ply=game.ply, lines=lines, updated_at=now
        )


def _check_line(game: Game, number: int, line: list[str]) -> None:
    """Each move of the line legal in turn from the game's position, none after the game's
    end; Unprocessable naming the line and the move otherwise."""
    position = engine.Position.from_string(game.position)
    for index, notation in enumerate(line):
        if _over(position, game.marbles_to_win):
            raise Unprocessable(
                _("Line %(number)s: the game is over before %(move)s.")
                % {"number": number, "move": notation},
                code="illegal_move",
            )
        try:
            position, _outcome = engine.apply_move(position, notation)
        except engine.EngineError as error:
            raise Unprocessable(
                _("Line %(number)s, move %(index)s: %(reason)s")
                % {"number": number, "index": index + 1, "reason": engine_text(error)},
                code="illegal_move",
            ) from error


def _over(position: engine.Position, marbles_to_win: int) -> bool:
    return any(
        position.pushed_off(colour) >= marbles_to_win for colour in (engine.BLACK, engine.WHITE)
    )


def conditional_moves_pending(*, now: datetime) -> int:
    """The correspondence sweep's part: answers not played because the process of the move they
    answer died first are played now, and the lines of games over are dropped. How many moves
    it played. Idempotent (each game's answers under its lock, as the move path plays them)."""
    ConditionalMoves.objects.exclude(game__status=Game.Status.STARTED).delete()
    behind = (
        ConditionalMoves.objects.filter(game__ply__gt=F("ply"))
        .values_list("game_id", flat=True)
        .distinct()
    )
    return sum(conditional_follow(game_id=game_id, now=now) for game_id in list(behind))
