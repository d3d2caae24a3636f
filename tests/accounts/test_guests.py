"""Guests (accounts.guests): a visitor's browser session plays the computer as a guest account,
which acts only on its own games' moves and actions, with the session's CSRF check, and is
nobody's to find, list or challenge."""

import pytest
from django.test import Client

from accounts.guests import SESSION_KEY
from accounts.models import User
from accounts.selectors import find_player, players_matching
from games import computer_players
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    monkeypatch.setattr(computer_players, "enqueue", lambda *args: None)


def start_as_visitor(client) -> Game:
    page = client.get("/play/computer/")
    assert page.status_code == 200  # no login asked
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    answer = client.post(
        "/play/computer/",
        {
            "level": "2",
            "colour": "black",
            "clock": "rapid-10+0",
            "start": "standard",
            "csrfmiddlewaretoken": token,
        },
    )
    assert answer.status_code == 302, answer.content
    return Game.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))


def test_a_visitor_s_session_plays_as_one_guest(client):
    game = start_as_visitor(client)
    guest = game.black
    assert guest.is_guest and not guest.has_usable_password()
    assert client.session[SESSION_KEY] == guest.pk
    assert start_as_visitor(client).black == guest  # the same session, the same guest
    assert 'data-my-colour="b"' in client.get(f"/games/{game.pk}/").content.decode()
    assert Client().get(f"/games/{game.pk}/").content.decode().count('data-my-colour=""') == 1


def test_a_guest_moves_with_the_session_s_csrf_token_only(make_player):
    client = Client(enforce_csrf_checks=True)
    game = start_as_visitor(client)
    move = {"move": "a1b2", "ply": 0}
    refused = client.post(f"/api/v1/games/{game.pk}/moves/", move, content_type="application/json")
    assert refused.status_code == 403  # no CSRF token: refused, nothing played
    assert Game.objects.get(pk=game.pk).ply == 0
    token = client.cookies["csrftoken"].value
    played = client.post(
        f"/api/v1/games/{game.pk}/moves/",
        move,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert played.status_code == 200, played.content
    assert Game.objects.get(pk=game.pk).ply == 1


def test_a_guest_may_do_nothing_else(client, make_player):
    start_as_visitor(client)
    make_player("someone")
    headers = {"content_type": "application/json"}
    for path, body in (
        ("/api/v1/challenges/", {"preset": "blitz-3+2"}),
        ("/api/v1/pools/join/", {"pool": "blitz-3+2"}),
        ("/api/v1/analysis/", {"position": "standard"}),
        ("/api/v1/tables/", {"players": 3, "base_seconds": 600}),
    ):
        answer = client.post(path, body, **headers)
        assert answer.status_code in (401, 403), (path, answer.status_code)
    assert client.get("/api/v1/me/").status_code in (401, 403)
    assert client.get("/accounts/profile/").status_code == 302  # to the login page


def test_a_guest_is_nobody_s_to_find():
    guest = User.objects.create_user(username="Guest 0a1b2c3d", is_guest=True)
    assert find_player("Guest 0a1b2c3d") is None
    assert guest not in players_matching("guest")
    assert Client().get("/players/Guest%200a1b2c3d/").status_code == 404
