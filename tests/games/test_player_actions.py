"""Resigning, drawing, aborting and claiming a flag (games.services.player_actions)."""

import pytest

from core.errors import Conflict
from games import services

from .conftest import at
from .test_moves import move

pytestmark = pytest.mark.django_db


def test_resign_and_then_nothing_more(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    game = services.game_resign(game_id=game.pk, player=white, now=at(2))
    assert (game.result, game.termination) == ("1-0", "resignation")
    with pytest.raises(Conflict) as error:
        services.game_resign(game_id=game.pk, player=black, now=at(3))
    assert error.value.code == "game_over"
    with pytest.raises(Conflict):
        move(game, white, 4)


def test_draw_offer_accept_decline(new_game, players):
    black, white = players
    game = new_game()
    services.game_draw_offer(game_id=game.pk, player=black, now=at(1))
    with pytest.raises(Conflict):
        services.game_draw_offer(game_id=game.pk, player=black, now=at(1))
    with pytest.raises(Conflict):
        services.game_draw_answer(game_id=game.pk, player=black, accept=True, now=at(1))
    services.game_draw_answer(game_id=game.pk, player=white, accept=False, now=at(2))
    game.refresh_from_db()
    assert game.draw_offer == ""
    services.game_draw_offer(game_id=game.pk, player=white, now=at(3))
    game = services.game_draw_answer(game_id=game.pk, player=black, accept=True, now=at(4))
    assert (game.result, game.termination) == ("1/2-1/2", "agreement")


def test_crossing_draw_offers_agree_and_moving_declines(new_game, players):
    black, white = players
    game = new_game()
    services.game_draw_offer(game_id=game.pk, player=white, now=at(1))
    move(game, black, 2)  # Black plays on: White's offer lapses
    game.refresh_from_db()
    assert game.draw_offer == ""
    services.game_draw_offer(game_id=game.pk, player=black, now=at(3))
    game = services.game_draw_offer(game_id=game.pk, player=white, now=at(4))
    assert game.termination == "agreement"


def test_abort_only_before_both_moved(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    with pytest.raises(Conflict) as error:
        services.game_abort(game_id=game.pk, player=black, now=at(3))
    assert error.value.code == "too_late_to_abort"
    fresh = new_game()
    fresh = services.game_abort(game_id=fresh.pk, player=white, now=at(1))
    assert fresh.status == "aborted"


def test_claim_flag_is_checked_by_the_server(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    with pytest.raises(Conflict) as error:
        services.game_claim_flag(game_id=game.pk, player=white, now=at(100))
    assert error.value.code == "not_flagged" and "82.0 s" in error.value.detail
    with pytest.raises(Conflict):  # you cannot claim your own flag
        services.game_claim_flag(game_id=game.pk, player=black, now=at(200))
    game = services.game_claim_flag(game_id=game.pk, player=white, now=at(200))
    assert (game.result, game.termination) == ("0-1", "time")
