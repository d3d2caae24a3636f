"""The computer's game through the API asks what the page asks: with no clock named, the same
10+0 the form starts from (it was a 400)."""

import pytest

from games import computer_players
from games.computer_views import ComputerGameForm
from games.models import Game
from games.options import PRESETS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    monkeypatch.setattr(computer_players, "enqueue", lambda *args: None)


def test_a_game_with_no_clock_named_gets_the_form_s_default(api, make_player):
    ann = make_player("ann")
    answer = api(ann).post("/api/v1/computer/games/", {"level": 2}, format="json")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    preset = ComputerGameForm.base_fields["clock"].initial
    _label, base, increment, marbles = PRESETS[preset]
    assert (game.base_seconds, game.increment_seconds, game.marbles_to_win) == (
        base,
        increment,
        marbles,
    )
    assert not game.rated


def test_no_clock_is_still_asked_for_by_name(api, make_player):
    ann = make_player("ann")
    body = {"level": 2, "base_seconds": None}
    answer = api(ann).post("/api/v1/computer/games/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert Game.objects.get(pk=answer.json()["id"]).base_seconds is None
