"""The leaderboard and the archive search read as a visitor reads them (issue 28: their rows are
kept in the cache under the values they show): on a laptop, a category's leaderboard page by
page, a game that ends and moves the ratings, the archive searched by a player's name and the
game just ended found at once; on a phone, both in French. Screenshots ``sumito-lists-*.png``
in ``SCREENSHOT_DIR``."""

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


def rapid_rating(user) -> int:
    return PlayerRating.objects.get(user=user, category="rapid").rating


def test_a_visitor_reads_the_leaderboard_and_the_archive_and_sees_a_game_just_ended(
    open_page, make_player
):
    now = timezone.now()
    for index in range(55):  # more than a page of blitz players
        PlayerRating.objects.create(
            user=make_player(f"blitz{index:02d}"),
            category="blitz",
            rating=1400 + 10 * index,
            games=40,
            peak=1400 + 10 * index,
            last_game_at=now - timedelta(days=1),
        )
    ann, bob = make_player("ann"), make_player("bob", display_name="Bob Marble")
    start = now - timedelta(days=2)
    play(ann, bob, "1-0", at=start)
    play(bob, ann, "1/2-1/2", at=start + timedelta(hours=1))

    page = open_page(width=1366, height=768)
    page.goto("/ratings/?category=blitz")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(50)
    expect(rows.first.locator("td.rank")).to_have_text("1")
    expect(rows.first).to_contain_text("blitz54")
    expect(page.locator(".pager")).to_contain_text("Page 1 of 2")
    page.get_by_role("link", name="Next →").click()
    expect(rows).to_have_count(5)
    expect(rows.first.locator("td.rank")).to_have_text("51")
    expect(rows.last).to_contain_text("blitz00")

    page.goto("/ratings/")  # rapid: ann and Bob Marble
    expect(rows).to_have_count(2)
    expect(page.locator("table.leaderboard")).to_contain_text(str(rapid_rating(ann)))
    page.screenshot(path=str(screenshot_dir() / "sumito-lists-leaderboard-laptop.png"))

    page.goto("/archive/")
    page.locator("#id_player").fill("ann")
    page.get_by_role("button", name="Search").click()
    games = page.locator("#archive-games tbody tr[data-game]")
    expect(games).to_have_count(2)
    expect(page.locator("#archive-count")).to_have_text("2 games")
    page.screenshot(path=str(screenshot_dir() / "sumito-lists-archive-laptop.png"))

    last = play(bob, ann, "1-0", at=start + timedelta(hours=2))  # a game ends meanwhile
    page.reload()
    expect(games).to_have_count(3)
    expect(games.first).to_have_attribute("data-game", str(last.pk))
    expect(games.first).to_contain_text("bob")
    page.goto("/ratings/")
    expect(page.locator("table.leaderboard")).to_contain_text(str(rapid_rating(bob)))

    phone = open_page(width=390, height=844)
    phone.context.add_cookies(
        [{"name": "django_language", "value": "fr", "url": page.url.split("/ratings")[0]}]
    )
    phone.goto("/ratings/?category=blitz&page=2")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator("table.leaderboard tbody tr")).to_have_count(5)
    assert "Previous" not in phone.locator(".pager").inner_text()
    phone.screenshot(path=str(screenshot_dir() / "sumito-lists-leaderboard-phone-fr.png"))
    phone.goto("/archive/?player=ann")
    expect(phone.locator("#archive-games tbody tr[data-game]")).to_have_count(3)
    assert "games" not in phone.locator("#archive-count").inner_text().split()
    in_view(phone, phone.locator("#archive-search"))
    phone.screenshot(
        path=str(screenshot_dir() / "sumito-lists-archive-phone-fr.png"), full_page=True
    )
    assert open_page.problems == []
