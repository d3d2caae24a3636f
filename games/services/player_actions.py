"""What a player does to a game besides moving: resign, abort, offer or answer a draw, claim
the opponent's flag. Each locks the game's row (:func:`games.move_store.lock`) and adjudicates a
flag that has fallen before anything else, so a player cannot resign a game already lost on
time or accept a draw after their own flag fell.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from core.errors import Conflict
from games import engine, move_store
from games.models import Game
from games.records import tournament_board_of
from games.services.lifecycle import adjudicate_locked, after_commit, finish_locked, game_over_error
from games.services.moves import player_colour


def _active_for(game_id: int, player: User, now: datetime) -> tuple[Game, str]:
    """Lock the game for ``player``'s action; adjudicate a pending flag first."""
    game = move_store.lock(game_id)
    colour = player_colour(game, player)
    adjudicate_locked(game, now)
    if not game.is_active:
        raise game_over_error(game)
    return game, colour


def game_resign(*, game_id: int, player: User, now: datetime) -> Game:
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        winner = engine.opponent(colour)
        finish_locked(game, engine.win_for(winner), Game.Termination.RESIGNATION, now)
    return game


def game_abort(*, game_id: int, player: User, now: datetime) -> Game:
    """Either player may abort before both have made their first move, except in a tournament:
    there a game cannot be aborted (an abort scored both players 0, the opponent who did nothing
    wrong too); a first move not made in time loses by forfeit and the opponent wins."""
    with transaction.atomic():
        game, _ = _active_for(game_id, player, now)
        if tournament_board_of(game) is not None:
            raise Conflict(
                gettext(
                    "A tournament game cannot be aborted: play your first move, or resign; a "
                    "first move not made in time loses by forfeit."
                ),
                code="no_abort_in_tournaments",
            )
        if game.ply >= 2:
            raise Conflict(
                gettext("Both players have moved: resign instead of aborting."),
                code="too_late_to_abort",
            )
        finish_locked(game, "", Game.Termination.ABORTED, now, aborted=True)
    return game


def game_draw_offer(*, game_id: int, player: User, now: datetime) -> Game:
    """Offer a draw; if the opponent already offers one, this accepts it."""
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        if game.draw_offer == engine.opponent(colour):
            finish_locked(game, engine.DRAW, Game.Termination.AGREEMENT, now)
            return game
        if game.draw_offer == colour:
            raise Conflict(gettext("You already offer a draw."), code="draw_already_offered")
        _set_draw_offer(game, colour, now)
    return game


def game_draw_answer(*, game_id: int, player: User, accept: bool, now: datetime) -> Game:
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        if game.draw_offer != engine.opponent(colour):
            raise Conflict(gettext("Your opponent does not offer a draw."), code="no_draw_offer")
        if accept:
            finish_locked(game, engine.DRAW, Game.Termination.AGREEMENT, now)
        else:
            _set_draw_offer(game, "", now)
    return game


def _set_draw_offer(game: Game, offer: str, now: datetime) -> None:
    game.draw_offer = offer
    game.save(update_fields=["draw_offer"])
    after_commit(game, now)


def game_claim_flag(*, game_id: int, player: User, now: datetime) -> Game:
    """A player says the opponent's time is up; the server's clock decides."""
    with transaction.atomic():
        game = move_store.lock(game_id)
        colour = player_colour(game, player)
        if not game.is_active:
            raise game_over_error(game)
        if game.side_to_move == colour or not adjudicate_locked(game, now):
            left = game.clock.remaining_ms(game.side_to_move, now)
            raise Conflict(
                gettext("%(colour)s still has %(seconds)s s.")
                % {
                    "colour": gettext(engine.COLOUR_NAMES[game.side_to_move]),
                    "seconds": format(left / 1000, ".1f"),
                },
                code="not_flagged",
            )
    return game
