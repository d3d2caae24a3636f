"""A game's life (games.services.lifecycle): adjudication at the deadline, exactly once, and the
sweep that finds flags nobody watches."""

import pytest

from games import services
from games.models import Game

from .conftest import at
from .test_moves import move

pytestmark = pytest.mark.django_db


def test_adjudication_is_idempotent(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    assert services.game_adjudicate(game_id=game.pk, now=at(100)) is False  # not yet
    assert services.game_adjudicate(game_id=game.pk, now=at(182)) is True
    ended_at = Game.objects.get(pk=game.pk).ended_at
    for _ in range(3):
        assert services.game_adjudicate(game_id=game.pk, now=at(500)) is False
    game.refresh_from_db()
    assert game.ended_at == ended_at and game.result == "0-1"


def test_first_move_missed_rated_is_abandoned_casual_is_aborted(new_game, players):
    rated = new_game(rated=True)
    assert services.games_sweep_flags(now=at(30)) == 1
    rated.refresh_from_db()
    assert (rated.status, rated.result, rated.termination) == ("finished", "0-1", "abandoned")

    casual = new_game(rated=False)
    move(casual, players[0], 5)
    assert services.games_sweep_flags(now=at(36)) == 1  # White missed its first move
    casual.refresh_from_db()
    assert (casual.status, casual.result, casual.termination) == ("aborted", "", "aborted")


def test_sweep_finds_only_flagged_games(new_game, players):
    black, white = players
    flagged, running = new_game(), new_game(first_move=300)
    assert services.games_sweep_flags(now=at(31)) == 1
    flagged.refresh_from_db()
    running.refresh_from_db()
    assert flagged.status == "finished" and running.status == "started"
