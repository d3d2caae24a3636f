"""A league's next season, through a real browser.

Flanders League 2026-27 has been played to its end (through the services): Division 1 (Teams
A, B, C; the last relegated) and Division 2 (Teams D, E, F; the first promoted), each a single
round-robin in which the higher-rated team won every board. Dora, who runs the club, on a
1366x768 laptop, opens the league's page: both tables, Team C marked "▼ relegated" and Team D
"▲ promoted", and the "Next season" button. She asks for the next season ("2027-28", first
match day in October): the new league's page shows Division 1 with Teams A, B and D and
Division 2 with Teams C, E and F, ready for their captains and her "Start the season". Ann,
Team A's captain, looks at the new league on her phone (390x844). Every step read from the
screen, inside the viewport; no console or page error; screenshots in ``SCREENSHOT_DIR``.
"""

from datetime import date

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues import services as league_services
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import form_field, messages
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tournaments import services
from tournaments.models import Board, Tournament
from tournaments.services import team_events
from tournaments.services.results import board_result_set

CAPTAINS = {0: ("ann", "Ann")}


def _played_season(make_player):
    """The league, its two divisions entered, started and played to their end."""
    now = timezone.now()
    club, owner, teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS
    )
    league = league_services.league_create(
        club=club, actor=owner, name="Flanders League", season="2026-27"
    )
    for name, level, entered, marks in (
        ("Division 1", 1, teams[:3], {"relegate": 1}),
        ("Division 2", 2, teams[3:], {"promote": 1}),
    ):
        division = league_services.division_create(
            league=league, actor=owner, name=name, level=level, first_day=date(2026, 9, 1), **marks
        )
        tournament = division.tournament
        for team in entered:
            team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=now)
        league_services.division_start(division=division, actor=owner, now=now)
        tournament.refresh_from_db()
        for number in range(1, tournament.rounds + 1):
            services.round_pair(tournament_id=tournament.pk, number=number, now=now)
            services.round_start(tournament_id=tournament.pk, number=number, actor=owner, now=now)
            for board in Board.objects.filter(
                round__tournament=tournament, round__number=number
            ).select_related("team_match__first", "team_match__second"):
                first_wins = board.team_match.first.number < board.team_match.second.number
                result = "1-0" if first_wins == (board.slot % 2 == 1) else "0-1"
                board_result_set(board=board, actor=owner, result=result, now=now)
        assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    return league


@pytest.mark.browser
def test_a_director_makes_the_next_season_from_the_tables(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    league = outside_the_event_loop(_played_season, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        dora.goto(league.get_absolute_url())
        tables = dora.locator(".league-table")
        expect(tables).to_have_count(2)
        expect(tables.nth(0).locator("tr.relegated")).to_contain_text("Team C")
        expect(tables.nth(1).locator("tr.promoted")).to_contain_text("Team D")
        next_season = dora.locator("#next-season")
        in_the_window(dora, next_season)
        dora.screenshot(path=str(shots / "sumito-league-season-over.png"), full_page=True)
        next_season.click()
        expect(dora.locator("h1")).to_have_text("Next season of Flanders League 2026-27")
        form_field(dora, "Season").fill("2027-28")
        form_field(dora, "First match day").fill("2027-10-05")
        dora.get_by_role("button", name="Save").click()
        expect(messages(dora)).to_have_text(
            "Flanders League 2027-28 is made: every team entered where the tables sent it; "
            "start each division's season when its teams are in."
        )
        new_url = dora.url
        divisions = dora.locator("section.division")
        expect(divisions).to_have_count(2)
        for index, (name, entered) in enumerate(
            (
                ("Division 1", ["Team A", "Team B", "Team D"]),
                ("Division 2", ["Team C", "Team E", "Team F"]),
            )
        ):
            division = divisions.nth(index)
            expect(division.locator("h2")).to_have_text(name)
            rows = division.locator(".league-table tbody tr td:nth-child(2)")
            expect(rows).to_have_count(3)
            for row, team in zip(range(3), entered, strict=True):
                expect(rows.nth(row)).to_contain_text(team)
        expect(divisions.nth(0)).to_contain_text("Match days from 5 October 2027 at 20:00")
        in_the_window(dora, divisions.nth(0).locator("h2"))
        dora.screenshot(path=str(shots / "sumito-league-next-season.png"), full_page=True)
        expect(dora.locator("#next-season")).to_have_count(0)  # the new season is to be played

        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(new_url)
        first = ann.locator("section.division").first
        expect(first.locator(".league-table tbody tr").first).to_contain_text("Team A")
        in_the_window(ann, first.locator("h2"))
        expect(ann.locator("#next-season")).to_have_count(0)  # not hers to make
        ann.screenshot(path=str(shots / "sumito-league-next-season-phone.png"), full_page=True)
    assert problems == []
