"""A director sets up an accelerated Swiss on a laptop and players read its first round on a
phone (issue 26: the Baku method, C.04.5.1, and every FIDE tie-break explained).

Dora creates the "Baku Open" on the new-tournament page of a 1366x768 laptop: she reads what
each tie-break counts in the guide under the order, picks Fore Buchholz and the average rating
of the opponents, gives unrated players 1000, and chooses the Baku acceleration. Eight players
enter; round 1 is paired with the top four on one virtual point, so they meet each other. The
round page shows "+1" after those four scores and says why under the boards, on the laptop and
on a 390x844 phone. Every step is read from the screen; no page error; screenshots in
``SCREENSHOT_DIR``.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_view, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import (
    club_of_players,
    entrants_rated,
    event_created,
    new_event_form,
)
from tests.conftest import PASSWORD
from tournaments import services
from tournaments.models import Tournament

NAMES = ("ann", "bert", "carl", "dirk", "eva", "finn", "gus", "hana")


def _enter_and_start(slug: str) -> None:
    tournament = entrants_rated(slug, NAMES)  # ann first, hana last
    services.tournament_start(
        tournament=tournament, actor=tournament.created_by, now=timezone.now()
    )


@pytest.mark.browser
def test_a_director_runs_an_accelerated_swiss_and_players_read_its_virtual_points(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(
        club_of_players, make_player=make_player, club_name="Baku Club", names=NAMES
    )
    shots = screenshot_dir()
    problems = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        laptop = errors_watched(problems, make(width=1366, height=768))
        log_in(laptop, "dora", PASSWORD)
        new_event_form(
            laptop,
            club.slug,
            {"Name": "Baku Open", "Play mode": "otb", "Entry": "open", "Acceleration": "baku"},
        )
        guide = laptop.locator("#tiebreak-guide")
        guide.locator("summary").click()
        expect(guide).to_contain_text("Buchholz as if every game of the last round had been drawn")
        expect(guide).to_contain_text("C.07 10.3")
        new_event_form(
            laptop,
            None,
            {
                "Tie-break 1": "fore_buchholz",
                "Tie-break 2": "average_rating_opponents",
                "Rating of unrated players": "1000",
            },
        )
        fore = guide.locator("dt", has_text="Fore Buchholz")
        fore.scroll_into_view_if_needed()
        in_view(laptop, fore)
        laptop.screenshot(path=str(shots / "sumito-accelerated-settings.png"), full_page=True)
        slug = event_created(laptop, "Baku Open")
        expect(laptop.locator("#accelerated")).to_contain_text("Baku acceleration")

        outside_the_event_loop(_enter_and_start, slug=slug)
        tournament = outside_the_event_loop(lambda: Tournament.objects.get(slug=slug))
        assert tournament.tiebreaks == ["fore_buchholz", "average_rating_opponents"]
        assert tournament.unrated_rating == 1000

        laptop.goto(f"/tournaments/{slug}/rounds/1/")
        note = laptop.locator("#acceleration")
        expect(note).to_contain_text("players 1 to 4 were paired with 1 virtual point")
        virtual = laptop.locator("#boards .virtual-points")
        expect(virtual).to_have_count(4)
        expect(virtual.first).to_have_text("+1")
        # the top four meet each other: Ann (1) and Carl (3), Bert (2) and Dirk (4)
        boards = laptop.locator("#boards tbody tr")
        expect(boards.nth(0)).to_contain_text("Ann")
        expect(boards.nth(0)).to_contain_text("Carl")
        expect(boards.nth(1)).to_contain_text("Bert")
        expect(boards.nth(1)).to_contain_text("Dirk")
        # the notes name the group the pairing saw: real points plus the virtual one
        expect(laptop.locator("main")).to_contain_text("Paired within the 1-point group against 3")
        expect(laptop.locator("main")).to_contain_text("Paired within the 0-point group against 7")
        note.scroll_into_view_if_needed()
        in_view(laptop, note)
        laptop.screenshot(path=str(shots / "sumito-accelerated-round-laptop.png"), full_page=True)

        phone = errors_watched(problems, make(width=1280, height=844))
        log_in(phone, "eva", PASSWORD)
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"/tournaments/{slug}/rounds/1/")
        expect(phone.locator("#boards .virtual-points")).to_have_count(4)
        note = phone.locator("#acceleration")
        note.scroll_into_view_if_needed()
        in_view(phone, note)
        phone.screenshot(path=str(shots / "sumito-accelerated-round-phone.png"), full_page=True)
    assert problems == []
