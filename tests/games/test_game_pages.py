"""The lobby: seeks, challenges and game lists through the pages."""

import pytest
from django.urls import reverse

from games.models import Challenge, Game

pytestmark = pytest.mark.django_db


def test_lobby_is_public_and_lists_seeks(client, players):
    black, _ = players
    client.force_login(black)
    client.post(
        reverse("lobby"),
        {"preset": "rapid-10+0", "start": "belgian", "colour": "random", "rated": "on"},
    )
    client.logout()
    page = client.get(reverse("lobby")).content.decode()
    assert "blackie" in page and "10+0" in page
    assert "Log in" in page


def test_create_custom_challenge_and_accept_it(client, players):
    black, white = players
    client.force_login(black)
    response = client.post(
        reverse("lobby"),
        {
            "preset": "custom",
            "base_minutes": "2.5",
            "increment_seconds": "3",
            "marbles_to_win": "5",
            "start": "german",
            "colour": "black",
            "opponent": "whitey",
        },
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (
        challenge.base_seconds,
        challenge.increment_seconds,
        challenge.marbles_to_win,
        challenge.start,
        challenge.rated,
        challenge.opponent,
    ) == (150, 3, 5, "german", False, white)
    client.force_login(white)
    assert "From" in client.get(reverse("lobby")).content.decode()
    response = client.post(reverse("challenge-action", args=[challenge.pk, "accept"]))
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.black, game.white) == (black, white)


def test_custom_without_minutes_is_a_form_error(client, players):
    client.force_login(players[0])
    response = client.post(
        reverse("lobby"), {"preset": "custom", "start": "belgian", "colour": "random"}
    )
    assert response.status_code == 200
    assert "needs the minutes" in response.content.decode()
    assert not Challenge.objects.exists()


def test_challenge_to_unknown_player_is_a_form_error(client, players):
    client.force_login(players[0])
    response = client.post(
        reverse("lobby"),
        {"preset": "blitz-5+0", "start": "belgian", "colour": "random", "opponent": "ghost"},
    )
    assert "no player called" in response.content.decode()
    assert not Challenge.objects.exists()


def test_declining_someone_elses_challenge_is_403(client, players, make_player):
    black, white = players
    client.force_login(black)
    client.post(
        reverse("lobby"),
        {"preset": "blitz-5+0", "start": "belgian", "colour": "random", "opponent": "whitey"},
    )
    challenge = Challenge.objects.get()
    client.force_login(make_player("nosy"))
    response = client.post(reverse("challenge-action", args=[challenge.pk, "decline"]))
    assert response.status_code == 403
    assert Challenge.objects.get().status == "open"


def test_anonymous_cannot_create(client, db):
    response = client.post(reverse("lobby"), {"preset": "blitz-5+0"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Challenge.objects.exists()
