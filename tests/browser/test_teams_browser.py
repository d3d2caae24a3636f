"""A club's team made and its roster kept, through a real browser.

Dora, the club's owner, on a 1366x768 laptop, follows "The club's teams" from the club's page
and makes "Ghent 1" with Ann as its captain. Ann, on her phone (390x844), opens the team's page
and adds four players: the roster lists them by rating (Bob 2100, Ann 1900, Dan 1800, Cid
1700); she moves Cid up a board (the order now hers, the page says so), makes Dan a reserve
(after the regulars), tries a name that is nobody's (a clear message, nothing changed), and
asks for the rating order again. Bob, not the captain, sees the roster without its buttons.
Every step read from the screen, inside the viewport; no console or page error; screenshots in
``SCREENSHOT_DIR``.
"""

import pytest
from playwright.sync_api import expect

from clubs import services as club_services
from ratings.models import PlayerRating
from teams.models import Team
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import (
    errors_watched,
    in_the_window,
    outside_the_event_loop,
    page_opener,
)
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD

RATINGS = {"ann": 1900, "bob": 2100, "cid": 1700, "dan": 1800}


def _club(make_player):
    owner = make_player("dora", display_name="Dora Director")
    club = club_services.club_create(owner=owner, name="Ghent")
    for name, rating in RATINGS.items():
        player = make_player(name, display_name=name.capitalize())
        club_services.club_join(user=player, club=club)
        PlayerRating.objects.create(
            user=player, category="rapid", rating=rating, peak=rating, games=12
        )
    return club


def _roster(page) -> list[str]:
    return [text.strip() for text in page.locator("#roster .player-name").all_inner_texts()]


@pytest.mark.browser
def test_a_team_is_made_and_its_captain_keeps_the_roster_on_a_phone(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(_club, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        dora.goto(club.get_absolute_url())
        link = dora.get_by_role("link", name="The club's teams")
        in_the_window(dora, link)
        link.click()
        expect(dora.locator("#teams")).to_contain_text("No team yet.")
        dora.get_by_label("Team name:", exact=True).fill("Ghent 1")
        dora.get_by_label("Captain:", exact=True).fill("ann")
        dora.get_by_role("button", name="Make the team").click()
        expect(messages(dora)).to_have_text("Ghent 1 is made.")
        expect(dora.locator("#team-facts")).to_contain_text("Captain: Ann")
        dora.screenshot(path=str(shots / "sumito-team-made.png"), full_page=True)
        slug = dora.url.rstrip("/").split("/")[-1]

        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)  # the menu is open at this width
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(f"/teams/{slug}/")
        username = ann.get_by_label("Add a player")
        for name in ("ann", "bob", "cid", "dan"):
            username.fill(name)
            ann.get_by_role("button", name="Add", exact=True).click()
            expect(messages(ann)).to_have_text(f"{name.capitalize()} is on Ghent 1.")
        expect(ann.locator("#team-facts")).to_contain_text("board order by rapid rating")
        assert _roster(ann) == ["Bob", "Ann", "Dan", "Cid"]
        up = ann.get_by_role("button", name="Move Cid up a board")
        up.scroll_into_view_if_needed()
        in_the_window(ann, up)
        up.click()
        expect(messages(ann)).to_have_text("Board order saved.")
        assert _roster(ann) == ["Bob", "Ann", "Cid", "Dan"]
        expect(ann.locator("#team-facts")).to_contain_text("board order set by the captain")
        ann.locator("#roster tr[data-username='dan']").get_by_role(
            "button", name="Make reserve"
        ).click()
        expect(messages(ann)).to_have_text("Dan is a reserve.")
        expect(ann.locator("#roster tr[data-username='dan']")).to_contain_text("reserve")
        username.fill("nobody")
        ann.get_by_role("button", name="Add", exact=True).click()
        expect(messages(ann)).to_contain_text("There is no player called 'nobody'")
        assert _roster(ann) == ["Bob", "Ann", "Cid", "Dan"]
        ann.screenshot(path=str(shots / "sumito-team-roster-phone.png"), full_page=True)
        ann.get_by_role("button", name="Order the boards by rating").click()
        expect(messages(ann)).to_have_text("The board order follows the ratings again.")
        assert _roster(ann) == ["Bob", "Ann", "Cid", "Dan"]  # the reserve stays last
        expect(ann.locator("#team-facts")).to_contain_text("board order by rapid rating")

        bob = errors_watched(problems, make(width=1366, height=768))
        log_in(bob, "bob", PASSWORD)
        bob.goto(f"/teams/{slug}/")
        assert _roster(bob) == ["Bob", "Ann", "Cid", "Dan"]
        expect(bob.locator("#add-to-roster")).to_have_count(0)
        expect(bob.get_by_role("button", name="Make reserve")).to_have_count(0)
        team = Team.objects.get(slug=slug)
        assert [m.user.username for m in team.members.order_by("board")] == [
            "bob",
            "ann",
            "cid",
            "dan",
        ]
    assert problems == []
