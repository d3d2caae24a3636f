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


@pytest.mark.django_db
def test_a_game_against_the_computer_offers_play_again_and_no_chat(
    client,
    make_player,
    queued,  # noqa: F811
):
    ann = make_player("ann")
    client.force_login(ann)
    client.post(
        "/play/computer/",
        {"level": "4", "colour": "white", "clock": "blitz-3+2", "start": "german"},
    )
    game = Game.objects.get()
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="chat"' not in page and 'id="rematch"' not in page
    again = "/play/computer/?level=4&amp;colour=black&amp;clock=blitz-3%2B2&amp;marbles_to_win=4"
    assert f'href="{again}&amp;start=german"' in page
    form = client.get("/play/computer/?level=4&colour=black&clock=blitz-3%2B2&start=german")
    html = form.content.decode()
    assert '<option value="4" selected>' in html and '<option value="german" selected>' in html
    # A spectator of the same game keeps the spectators' chat; a game between people, the rematch.
    client.force_login(make_player("bob"))
    assert 'id="chat"' in client.get(game.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_game_between_people_keeps_rematch_and_chat(client, make_player):
    from games import services
    from games.options import GameOptions
    from tests.games.conftest import T0

    ann, bob = make_player("ann"), make_player("bob")
    game = services.game_create(black=ann, white=bob, options=GameOptions(180, 2), now=T0)
    client.force_login(ann)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="rematch"' in page and 'id="chat"' in page and "play-again" not in page
