"""A guest claims their results from a phone, the club's admin accepts on a laptop (issue 25,
item 2: guest players claimable later by an account, who then sees those games on their
profile).

Bob played the club's open as a guest ("Bob Jones", from the entry list). He opens an
account, finds himself in the standings on his phone, opens his card, says "This is me" with a
word for the club, and reads that his claim waits. The club's owner reads the claim on the
club's guest page on a 1366x768 laptop, with its message, and accepts it. Bob's public page now
lists the open. Every step is read from the screen; no page error; screenshots in
``SCREENSHOT_DIR``.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import GuestPlayer
from clubs.services import club_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_view, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD
from tournaments import services
from tournaments.models import Board, Tournament


def _played_open(make_player) -> Tournament:
    """An open of four (three accounts and the guest Bob) with round 1 played."""
    director = make_player("dora", display_name="Dora Director")
    for name in ("ann", "carl", "dirk"):
        make_player(name, display_name=name.capitalize())
    club = club_create(owner=director, name="Guest Club")
    tournament = services.tournament_create(
        club=club,
        actor=director,
        name="Autumn Open",
        rounds=2,
        play_mode="otb",
        rated=False,
        entry="open",
    )
    services.entries_import(
        tournament=tournament, actor=director, text="ann\ncarl\ndirk\nBob Jones"
    )
    now = timezone.now()
    services.tournament_start(tournament=tournament, actor=director, now=now)
    services.round_start(tournament_id=tournament.pk, number=1, actor=director, now=now)
    for board in Board.objects.filter(round__tournament=tournament, white__isnull=False):
        services.board_result_set(board=board, actor=director, result="1-0", now=now)
    make_player("bob", display_name="Bob Jones")  # the account Bob opened after the event
    return tournament


@pytest.mark.browser
def test_a_guest_claims_their_results_and_the_club_accepts(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    tournament = outside_the_event_loop(_played_open, make_player=make_player)
    guest = outside_the_event_loop(lambda: GuestPlayer.objects.select_related("user").get().user)
    shots = screenshot_dir()
    problems = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        phone = errors_watched(problems, make(width=1280, height=844))
        log_in(phone, "bob", PASSWORD)  # the menu is open at this width
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"/tournaments/{tournament.slug}/standings/")
        phone.locator("table.standings").get_by_role("link", name="Bob Jones").click()
        offer = phone.locator("#guest-claim")
        expect(offer).to_contain_text("played as a guest of Guest Club")
        button = offer.get_by_role("button", name="This is me")
        button.scroll_into_view_if_needed()
        in_view(phone, button)
        offer.get_by_label("A word for the club (optional)").fill("My first open, I had no account")
        phone.screenshot(path=str(shots / "sumito-guest-claim-phone.png"), full_page=True)
        button.click()
        expect(messages(phone)).to_contain_text("Your claim is with the admins of Guest Club")
        expect(phone.locator("#guest-claim")).to_contain_text("waiting for an admin of Guest Club")
        phone.screenshot(path=str(shots / "sumito-guest-claim-waiting-phone.png"), full_page=True)

        laptop = errors_watched(problems, make(width=1366, height=768))
        log_in(laptop, "dora", PASSWORD)
        laptop.goto(f"/tournaments/guests/{tournament.club.slug}/")
        claims = laptop.locator("#guest-claims")
        row = claims.locator("tr", has_text="Bob Jones")
        expect(row).to_contain_text("bob")
        expect(row).to_contain_text("My first open, I had no account")
        accept = row.get_by_role("button", name="Accept")
        in_view(laptop, accept)
        laptop.screenshot(path=str(shots / "sumito-guest-claims-admin.png"), full_page=True)
        accept.click()
        expect(messages(laptop)).to_contain_text("The results of Bob Jones are now bob's")
        expect(laptop.locator("#guest-claims")).to_have_count(0)
        expect(laptop.locator("#guests")).to_contain_text("bob")

        phone.goto("/players/bob/")
        expect(phone.locator("main")).to_contain_text("Autumn Open")
        phone.screenshot(path=str(shots / "sumito-guest-claimed-profile-phone.png"), full_page=True)
        phone.goto(f"/tournaments/{tournament.slug}/players/bob/")
        expect(phone.locator("#guest-claim")).to_have_count(0)
    assert guest.username != "bob"
    assert problems == []
