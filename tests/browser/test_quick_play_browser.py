"""Quick play from the home page (issue 23, "the first minutes"): two players of close rating
each click 3+2 on their laptop's home page, the page says it is looking, and both are taken to
the same rated game at once, by the socket; one who cancels waits no more; the lobby's
challenger follows an accepted challenge as soon as the socket says so; a visitor is shown the
pools and the computer, and asked to sign up for rated play. Screenshots in SCREENSHOT_DIR.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Challenge, Game
from games.options import GameOptions
from games.services import challenge_accept, challenge_create
from pools.models import PoolSeek
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.test_notifications_browser import listening
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def test_two_players_click_3_plus_2_and_meet_in_one_game(open_page, log_in, make_player):
    names = ("quinn", "rosa")
    for name in names:
        make_player(name)
    pages = {}
    for name in names:
        page = log_in(open_page(**LAPTOP), name, PASSWORD)
        page.goto("/")
        listening(page)
        expect(page.locator("#quick-play")).to_be_in_viewport()
        pages[name] = page
    first = pages["quinn"]
    first.locator('button[data-pool="blitz-3+2"]').click()
    expect(first.locator("#pool-status")).to_be_visible()
    expect(first.locator("#pool-status-text")).to_contain_text("3+2")
    expect(first.locator('button[data-pool="blitz-3+2"]')).to_have_attribute("aria-pressed", "true")
    first.screenshot(path=str(screenshot_dir() / "quick-play-looking-1366x768.png"))
    # the other sees someone waiting in the pool (read again every few seconds)
    expect(pages["rosa"].locator('[data-waiting="blitz-3+2"]')).to_have_text("1 waiting")
    pages["rosa"].locator('button[data-pool="blitz-3+2"]').click()
    for page in pages.values():
        expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    assert pages["quinn"].url == pages["rosa"].url
    game = Game.objects.get()
    assert (game.base_seconds, game.increment_seconds, game.rated) == (180, 2, True)
    assert {game.black.username, game.white.username} == set(names)
    for page in pages.values():
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    assert open_page.problems == []


def test_cancelling_stops_the_wait(open_page, log_in, make_player):
    make_player("solo")
    page = log_in(open_page(**LAPTOP), "solo", PASSWORD)
    page.goto("/")
    listening(page)
    page.locator('button[data-pool="rapid-10+0"]').click()
    expect(page.locator("#pool-status")).to_be_visible()
    page.locator("#pool-cancel").click()
    expect(page.locator("#pool-status")).to_be_hidden()
    assert list(PoolSeek.objects.values_list("status", flat=True)) == ["left"]
    assert open_page.problems == []


def test_the_challenger_follows_an_accepted_challenge_at_once(open_page, log_in, make_player):
    """The lobby reads its challenges every 3 s as a safety net; the socket's "accepted" takes
    the challenger to the game sooner. Checked without the net: the lobby's reading of the
    challenge is made to fail, so only the socket can move the page."""
    challenger, opponent = make_player("tara"), make_player("ugo")
    challenge = outside_the_event_loop(
        challenge_create,
        challenger=challenger,
        opponent=opponent,
        colour="black",
        options=GameOptions(300, 0, 6, "standard", True),
        now=timezone.now(),
    )
    page = log_in(open_page(**LAPTOP), "tara", PASSWORD)
    page.route(re.compile(r".*/api/v1/challenges/\d+/$"), lambda route: route.abort())
    page.goto("/play/")
    listening(page)
    game = outside_the_event_loop(
        challenge_accept, challenge_id=challenge.pk, user=opponent, now=timezone.now()
    )
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    assert Challenge.objects.get(pk=challenge.pk).status == "accepted"


def test_a_visitor_sees_the_pools_and_is_asked_to_sign_up(open_page, make_player):
    page = open_page(**LAPTOP)
    page.goto("/")
    pools = page.locator("#quick-play a.pool")
    expect(pools).to_have_count(5)
    expect(pools.first).to_have_attribute("href", "/accounts/signup/")
    expect(page.locator("#play-computer")).to_be_visible()
    page.screenshot(path=str(screenshot_dir() / "home-visitor-1366x768.png"))
    assert open_page.problems == []
