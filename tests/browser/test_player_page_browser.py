"""A player's page read as a visitor reads it (issue 28: its history sections and head-to-head
are kept in the cache under a stamp of the player's games): on a laptop, the ratings, the record
and the games, a comparison with an opponent through the form; a game ends meanwhile and the
next visit shows it; on a phone, the same page in French. Screenshots
``sumito-player-page-*.png`` in ``SCREENSHOT_DIR``."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from ratings.models import PlayerRating
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import in_view, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.players.test_profile import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def test_a_visitor_reads_a_player_s_page_and_sees_the_game_just_ended(open_page, make_player):
    ann, bob = make_player("ann"), make_player("bob", display_name="Bob Marble")
    start = timezone.now() - timedelta(days=3)
    play(ann, bob, "1-0", at=start)
    play(bob, ann, "1/2-1/2", at=start + timedelta(hours=1))

    page = open_page(width=1366, height=768)
    page.goto("/players/ann/")
    games = page.locator("#recent-games tbody tr")
    expect(games).to_have_count(2)
    expect(page.locator("#record .record-overall")).to_contain_text("2")
    rating = PlayerRating.objects.get(user=ann, category="rapid").rating
    expect(page.locator("#ratings .rating-value").first).to_contain_text(str(rating))
    in_view(page, page.locator("#ratings .rating-tile").first)

    page.locator("#vs").fill("bob")
    page.get_by_role("button", name="Compare").click()
    summary = page.locator("#head-to-head .h2h-summary")
    expect(summary).to_contain_text("Bob Marble")
    expect(summary.locator(".h2h-record")).to_have_text("1 W · 1 D · 0 L")
    page.screenshot(path=str(screenshot_dir() / "sumito-player-page-laptop.png"), full_page=True)

    play(bob, ann, "1-0", at=start + timedelta(hours=2))  # a game ends while the page is open
    page.reload()
    expect(page.locator("#recent-games tbody tr")).to_have_count(3)
    expect(summary.locator(".h2h-record")).to_have_text("1 W · 1 D · 1 L")
    expect(page.locator("#record .record-overall td").first).to_have_text("3")
    new_rating = PlayerRating.objects.get(user=ann, category="rapid").rating
    assert new_rating != rating
    expect(page.locator("#ratings .rating-value").first).to_contain_text(str(new_rating))

    phone = open_page(width=390, height=844)
    phone.context.add_cookies(
        [{"name": "django_language", "value": "fr", "url": page.url.split("/players")[0]}]
    )
    phone.goto("/players/ann/?vs=bob")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator("#recent-games tbody tr")).to_have_count(3)
    expect(phone.locator("#head-to-head .h2h-summary")).to_contain_text("Bob Marble")
    assert "Recent games" not in phone.locator("#recent-games h2").inner_text()
    in_view(phone, phone.locator("#ratings .rating-tile").first)
    phone.screenshot(path=str(screenshot_dir() / "sumito-player-page-phone-fr.png"), full_page=True)
    assert open_page.problems == []
