"""A director prepares a weekend open on a 1366x768 laptop (issue 25, items 2 and 3).

The club's owner has an open, over-the-board Swiss with nobody entered. In the browser they set
the weekend's days, venue, city, country, time zone and round times on the settings page and
read them back on the event's page; paste an entry list with a header row and upload a CSV of
late-comers (one of them a player the club knows only by name); appoint a chief arbiter; start
the event and read round 1's pairings with names, titles and federations, numbered as C.04.2
orders them; hand a guest's entry to the account they opened on the club's guest page; and read
the pairings on a phone. Every step is read from the screen; no page error; screenshots in
``SCREENSHOT_DIR``.
"""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import GuestPlayer
from clubs.services import club_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD
from tournaments import services
from tournaments.models import Arbiter, Entrant, Tournament

PASTED = """Name\tRating\tFed\tTitle\tBorn\tClub
Smith, Ann\t1850\tBEL\tFM\t1990\tGent
Jones, Bob\t1850\tNED\t\t1985\tUtrecht
Diaz, Carla\t1850\tESP\tIM\t2001\tMadrid
Evans, Dan\t1720\tBEL\t\t1979\tGent
Frank, Eva\t1700\tGER\t\t1995\tKöln
Garcia, Fe\t1650\tESP\t\t2004\t
Hoff, Gus\t\tNED\t\t\t
"""
UPLOADED = "Name;Rating;Fed;E-mail\nIvy Lane;1600;BEL;ivy@example.org\nHugo Late;1500;FRA;\n"


def _event(make_player) -> Tournament:
    director = make_player("dora", display_name="Dora Director")
    make_player("greta", display_name="Greta Arbiter")
    make_player("ivy", display_name="Ivy Lane", email="ivy@example.org")
    club = club_create(owner=director, name="Weekend Club")
    return services.tournament_create(
        club=club,
        actor=director,
        name="Weekend Open",
        format="swiss",
        rounds=3,
        play_mode="otb",
        rated=False,
        entry="open",
    )


@pytest.mark.browser
def test_a_director_prepares_a_weekend_open(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    tournament = outside_the_event_loop(_event, make_player=make_player)
    shots = screenshot_dir()
    with page_opener(playwright_browser, asgi_live_server) as make:
        td = make(width=1366, height=768)
        problems = []
        td.on("pageerror", lambda error: problems.append(str(error)))
        td.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        log_in(td, "dora", PASSWORD)
        _prepare(td, tournament, shots)
        _start_and_read(td, tournament, shots, make_player)
        phone = make(width=390, height=844)
        phone.on("pageerror", lambda error: problems.append(str(error)))
        phone.goto(f"/tournaments/{tournament.slug}/rounds/1/")
        expect(phone.locator("#boards")).to_contain_text("FM Smith, Ann")
        phone.screenshot(path=str(shots / "sumito-open-pairings-phone.png"), full_page=True)
        assert problems == []


def _prepare(td, tournament, shots):
    slug = tournament.slug
    # --- Where and when, on the settings page.
    td.goto(f"/tournaments/{slug}/edit/")
    td.get_by_label("First day:").fill("2026-12-05")
    td.get_by_label("Last day:").fill("2026-12-06")
    td.get_by_label("Venue:").fill("Sporthal Zuid, Zuidlaan 1")
    td.get_by_label("City:").fill("Gent")
    td.get_by_label("Country:").select_option("BE")
    td.get_by_label("Time zone:").select_option("Europe/Brussels")
    td.get_by_label("Round times:").fill("2026-12-05 10:00\n2026-12-05 15:00\n2026-12-06 10:00")
    td.screenshot(path=str(shots / "sumito-open-settings.png"), full_page=True)
    td.get_by_role("button", name=re.compile("^Save")).click()
    expect(messages(td)).to_have_text("Settings saved.")
    where = td.locator("#event-where")
    expect(where).to_contain_text("Sporthal Zuid, Zuidlaan 1")
    expect(where).to_contain_text("Gent")
    expect(where).to_contain_text("Belgium")
    expect(where).to_contain_text("5 December 2026 – 6 December 2026")
    times = td.locator("#round-times")
    expect(times).to_contain_text("Europe/Brussels")
    expect(times.locator("li")).to_have_text(
        ["Round 1: Sat 5 Dec 2026, 10:00", "Round 2: Sat 5 Dec 2026, 15:00",
         "Round 3: Sun 6 Dec 2026, 10:00"]
    )  # fmt: skip

    # --- The entry list, pasted from a spreadsheet, then a CSV file uploaded.
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    section = td.locator("#entry-list")
    section.get_by_label("Players, one a line").fill(PASTED)
    section.get_by_role("button", name="Enter the list").click()
    expect(messages(td)).to_have_text(
        "7 players entered (0 with an account, 7 guests); 0 already entered."
    )
    section = td.locator("#entry-list")
    section.get_by_label("or a CSV file").set_input_files(
        files=[{"name": "late.csv", "mimeType": "text/csv", "buffer": UPLOADED.encode()}]
    )
    section.get_by_role("button", name="Enter the list").click()
    expect(messages(td)).to_have_text(
        "2 players entered (1 with an account, 1 guest); 0 already entered."
    )
    rows = td.locator("#players tbody tr")
    expect(rows).to_have_count(9)
    ann = rows.filter(has_text="Smith, Ann")
    expect(ann).to_contain_text("FM Smith, Ann BEL")
    expect(ann).to_contain_text("Gent")
    expect(ann.locator(".badge")).to_have_text("guest")
    expect(rows.filter(has_text="Ivy Lane").locator(".badge")).to_have_count(0)  # her account
    td.screenshot(path=str(shots / "sumito-open-entries.png"), full_page=True)

    # --- A chief arbiter.
    arbiters = td.locator("#arbiters")
    arbiters.get_by_label("Arbiter to appoint").fill("greta")
    arbiters.get_by_label("Role").select_option("chief")
    arbiters.get_by_role("button", name="Appoint").click()
    expect(messages(td)).to_have_text(
        "greta is the chief arbiter of Weekend Open: they may pair, enter and correct results."
    )
    expect(td.locator("#arbiters li .badge")).to_have_text("Chief arbiter")
    assert Arbiter.objects.get(tournament=tournament).role == "chief"


def _start_and_read(td, tournament, shots, make_player):
    slug = tournament.slug
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Home").click()
    expect(td.locator("#event-arbiters")).to_have_text("Chief arbiter: Greta Arbiter")
    td.get_by_role("button", name="Close registration and pair round 1").click()
    expect(messages(td)).to_contain_text("Round 1")
    numbers = dict(
        Entrant.objects.filter(tournament=tournament).values_list(
            "user__display_name", "pairing_number"
        )
    )
    # C.04.2: 1850 IM, 1850 FM, 1850 untitled, then by rating; Hoff unrated last
    assert [name for name, _ in sorted(numbers.items(), key=lambda item: item[1])] == [
        "Diaz, Carla", "Smith, Ann", "Jones, Bob", "Evans, Dan", "Frank, Eva", "Garcia, Fe",
        "Ivy Lane", "Hugo Late", "Hoff, Gus",
    ]  # fmt: skip
    td.goto(f"/tournaments/{slug}/rounds/1/")
    boards = td.locator("#boards")
    expect(boards).to_contain_text("IM Diaz, Carla ESP")
    expect(boards).not_to_contain_text("diaz-carla")
    box = boards.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1366
    td.screenshot(path=str(shots / "sumito-open-round1-1366.png"), full_page=True)

    # --- Hugo opened an account: the club hands his guest entry to it.
    outside_the_event_loop(make_player, username="hugo", display_name="Hugo Late")
    td.goto(f"/tournaments/guests/{tournament.club.slug}/")
    row = td.locator("#guests tbody tr", has_text="Hugo Late")
    row.get_by_label("Account of Hugo Late").fill("hugo")
    row.get_by_role("button", name="Hand over the entries").click()
    expect(messages(td)).to_have_text("The entry of Hugo Late is now hugo's.")
    expect(td.locator("#guests tbody tr", has_text="Hugo Late")).to_contain_text("hugo")
    td.screenshot(path=str(shots / "sumito-open-guests.png"), full_page=True)
    assert GuestPlayer.objects.get(user__display_name="Hugo Late").claimed_by.username == "hugo"
