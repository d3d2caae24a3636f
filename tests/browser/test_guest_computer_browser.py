"""A visitor plays the computer without an account (issue 23): from the home page's "Play the
computer" to the computer's page, a game as this browser's guest, moves clicked on the board and
answered by the worker, a resignation; the game is kept (unrated, in the archive under the
guest's name), and the guest is nobody's to find. Another browser cannot act on the game.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.selectors import find_player, players_matching
from games import computer, engine
from games.models import Game
from ratings.models import RatingChange
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import click_move, clicks_for, move_at, page_opener
from tests.browser.test_computer_browser import computer_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


def test_a_visitor_plays_the_computer_as_a_guest(readers_never_block_the_worker, open_page):
    page = open_page(**LAPTOP)
    with computer_worker():
        page.goto("/")
        page.locator("#play-computer").click()
        expect(page).to_have_url(re.compile(r"/play/computer/$"))
        page.get_by_label("Level").select_option("1")
        page.get_by_label("Your colour").select_option("black")
        page.get_by_label("Time control").select_option("rapid-10+0")
        page.get_by_role("button", name="Start the game").click()
        expect(page).to_have_url(re.compile(r"/games/\d+/$"))
        game = Game.objects.select_related("black", "white").get(
            pk=int(re.search(r"/games/(\d+)/$", page.url).group(1))
        )
        guest = game.black
        assert guest.is_guest and guest.username.startswith("Guest ")
        assert computer.computer_level_of(game.white_id) == 1 and not game.rated
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#player-b .badge")).to_have_text("you")  # the guest plays Black

        position = engine.Position.from_string(game.position)
        for ply in (1, 3):
            notation = next(
                n
                for n in sorted(m.notation for m in engine.legal_moves(position))
                if _clickable(position, n)
            )
            click_move(page, position, notation)
            expect(move_at(page, ply)).to_have_text(notation)
            expect(move_at(page, ply + 1)).to_be_visible(timeout=30_000)  # the computer answers
            game.refresh_from_db()
            position = engine.Position.from_string(game.position)

        # Another browser (no session of this guest) may watch but not play.
        stranger = open_page(**LAPTOP)
        stranger.goto(f"/games/{game.pk}/")
        expect(stranger.locator("#move-form")).to_have_count(0)
        refused = stranger.request.post(
            f"/api/v1/games/{game.pk}/resign/", headers={"X-CSRFToken": "x"}
        )
        assert refused.status in (401, 403)

        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.locator("#result")).to_contain_text("resign")
    game.refresh_from_db()
    assert (game.status, game.result) == ("finished", "0-1")
    assert not RatingChange.objects.filter(game=game).exists()
    assert find_player(guest.username) is None
    assert guest not in players_matching("Guest")
    page.goto("/archive/")
    expect(page.locator(f'tr[data-game="{game.pk}"]')).to_contain_text(guest.username)


def _clickable(position, notation: str) -> bool:
    try:
        clicks_for(position, notation)
    except AssertionError:
        return False
    return True


def test_the_page_says_when_the_computer_thinks_and_names_it_in_the_reader_s_language(
    open_page, settings
):
    """No worker runs here: the computer, Black, is to move and stays so. Its card and the turn
    line name it in German, with the thinking sign."""
    page = open_page(**LAPTOP)
    page.goto("/")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": page.url}]
    )
    page.goto("/play/computer/")
    page.locator("#id_level").select_option("1")
    page.locator("#id_colour").select_option("white")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    turn = page.locator("#turn")
    expect(turn).to_have_class(re.compile(r"\bthinking\b"))
    expect(turn).to_contain_text("Sumito 1: Anfänger: zieht zufällig denkt nach…")
    expect(page.locator("#player-b .player-name a")).to_have_text(
        "Sumito 1: Anfänger: zieht zufällig"
    )
    expect(turn).to_be_in_viewport()
