"""The page that starts a game against the computer."""

import pytest

from games.models import Game
from tests.games.test_computer import queued  # noqa: F401 (a fixture)


@pytest.mark.django_db
def test_the_page_starts_a_game_against_the_computer(client, make_player, queued):  # noqa: F811
    ann = make_player("ann")
    client.force_login(ann)
    page = client.get("/play/computer/")
    assert page.status_code == 200 and b'name="level"' in page.content
    answer = client.post(
        "/play/computer/",
        {"level": "2", "colour": "black", "clock": "none", "start": "belgian"},
    )
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()
    assert game.black_id == ann.pk and game.start == "belgian" and game.base_seconds is None
    refused = client.post("/play/computer/", {"level": "9", "colour": "black", "clock": "none"})
    assert refused.status_code == 200 and Game.objects.count() == 1


@pytest.mark.django_db
def test_the_lobby_links_the_computer_the_tables_and_the_analysis_board(client):
    page = client.get("/play/").content.decode()
    for url in ("/play/computer/", "/tables/", "/analysis/"):
        assert f'href="{url}"' in page


@pytest.mark.django_db
def test_the_page_takes_the_marbles_to_win_else_the_clock_s(
    client,
    make_player,
    queued,  # noqa: F811
):
    client.force_login(make_player("ann"))
    form = {"level": "1", "colour": "white", "clock": "rapid-10+0", "start": "belgian"}
    client.post("/play/computer/", {**form, "marbles_to_win": "3"})
    client.post("/play/computer/", form)
    client.post("/play/computer/", {**form, "clock": "blitz-5+0"})
    assert list(Game.objects.order_by("pk").values_list("marbles_to_win", flat=True)) == [3, 6, 4]
    refused = client.post("/play/computer/", {**form, "marbles_to_win": "7"})
    assert refused.status_code == 200 and Game.objects.count() == 3
