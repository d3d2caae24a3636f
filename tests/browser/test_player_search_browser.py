"""Player names suggested as you type (issue 23): the archive's player and opponent, the
head-to-head on a player's page and the challenge form's opponent each offer the players whose
username or display name holds what was typed, so nobody needs the exact username."""

import pytest
from playwright.sync_api import expect

from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import page_opener
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def suggestions(page, field: str) -> list[str]:
    return page.locator(f"{field} + datalist option").evaluate_all(
        "options => options.map(o => o.value)"
    )


def test_names_are_suggested_as_you_type(open_page, log_in, make_player):
    make_player("seeker")
    make_player("margarethe", display_name="Grete Marble")
    make_player("marius")
    make_player("otto")
    page = log_in(open_page(), "seeker", PASSWORD)
    for path, field in (
        ("/archive/", "#id_player"),
        ("/archive/", "#id_opponent"),
        ("/players/seeker/", "#vs"),
        ("/play/", "#id_opponent"),
    ):
        page.goto(path)
        page.locator(field).fill("mar")
        expect(page.locator(f"{field} + datalist option")).to_have_count(2)
        assert sorted(suggestions(page, field)) == ["margarethe", "marius"], (path, field)
        page.locator(field).fill("grete")  # a display name finds its player too
        expect(page.locator(f"{field} + datalist option")).to_have_count(1)
        assert suggestions(page, field) == ["margarethe"], (path, field)
        page.locator(field).fill("m")  # one letter: nothing asked
        expect(page.locator(f"{field} + datalist option")).to_have_count(0)
    assert open_page.problems == []
