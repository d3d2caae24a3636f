from datetime import UTC, datetime, timedelta

import pytest

from games import engine, services
from games.options import GameOptions

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def a_legal_move(game) -> str:
    return engine.legal_moves(engine.Position.from_string(game.position))[0].notation


@pytest.fixture
def players(make_player):
    return make_player("blackie"), make_player("whitey")


@pytest.fixture
def new_game(players):
    def make(base=180, increment=2, marbles=6, rated=True, start="belgian", first_move=30, now=T0):
        black, white = players
        return services.game_create(
            black=black,
            white=white,
            options=GameOptions(base, increment, marbles, start, rated),
            now=now,
            first_move_seconds=first_move,
        )

    return make
