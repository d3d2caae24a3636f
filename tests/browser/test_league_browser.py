"""A league's first round, through a real browser.

Dora, who runs the Flanders club, on a 1366x768 laptop, makes "Flanders League 2026-27" from
the club's page and its "Division 1" (a single round-robin of matches on 4 boards, match days
a week apart, the last team relegated). The six club teams enter (their captains, off-screen),
and Dora starts the season on the division's page: fifteen fixtures over five match days, each
at the home team's club. Ann, Team A's captain, on her phone (390x844), and Fay, Team F's, on a
laptop, send their line-ups for round 1 on the event's "Matches R1" page; the match day comes
(the beat begins the round). After the match Ann reports the four boards' results on her phone;
Fay reads the report and confirms it. The league page's table puts Team A first with 2 match
points and marks the last team relegated; the division's fixtures show the score; Fay
downloads Team F's calendar. Every step read from the screen, inside the viewport; no console
or page error; screenshots in ``SCREENSHOT_DIR``.
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import expect

from leagues.models import Division
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import form_field, messages
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import team_events

CAPTAINS = {0: ("ann", "Ann"), 5: ("fay", "Fay")}


def _club(make_player):
    club, _owner, _teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS
    )
    return club


def _teams_enter(division_name: str) -> str:
    division = Division.objects.select_related("tournament__club").get(name=division_name)
    tournament = division.tournament
    for team in tournament.club.teams.all():
        team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=None)
    return tournament.slug


def _match_day(slug: str) -> None:
    """The beat on round 1's match day: the round begins."""
    tournament = Tournament.objects.get(slug=slug)
    services.tournaments_move_on(now=tournament.round_time(1))


@pytest.mark.browser
def test_two_captains_play_a_league_round_and_confirm_its_result(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
    tmp_path,
):
    club = outside_the_event_loop(_club, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    first_day = (timezone.localdate() + timedelta(days=7)).isoformat()
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        dora.goto(club.get_absolute_url())
        dora.get_by_role("link", name="New league").click()
        form_field(dora, "Name").fill("Flanders League")
        form_field(dora, "Season").fill("2026-27")
        dora.get_by_role("button", name="Save").click()
        expect(messages(dora)).to_have_text("Flanders League 2026-27 is made: add its divisions.")
        league_url = dora.url
        dora.locator("#new-division").click()
        form_field(dora, "Name").fill("Division 1")
        form_field(dora, "Home and away (a double round-robin)").uncheck()
        form_field(dora, "Teams relegated").fill("1")
        form_field(dora, "First match day").fill(first_day)
        form_field(dora, "Days between match days").fill("7")
        dora.screenshot(path=str(shots / "sumito-league-division-form.png"), full_page=True)
        dora.get_by_role("button", name="Save").click()
        expect(messages(dora)).to_contain_text("Division 1 is made")
        slug = outside_the_event_loop(_teams_enter, division_name="Division 1")

        dora.get_by_role("link", name="Fixtures and results").click()
        start = dora.locator("#start-season")
        in_the_window(dora, start)
        start.click()
        expect(messages(dora)).to_contain_text("round 1 is paired")
        fixtures = dora.locator("#fixtures")
        expect(fixtures.locator("tr[data-round]")).to_have_count(15)
        expect(fixtures.locator("tr[data-round='1']").first).to_contain_text("Flanders")
        dora.screenshot(path=str(shots / "sumito-league-fixtures.png"), full_page=True)

        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(f"/tournaments/{slug}/matches/1/")
        lineup = ann.locator(".lineup-form[data-team]").first
        expect(lineup).to_contain_text("Line-up of Team A")
        send = lineup.get_by_role("button", name="Send the line-up")
        send.scroll_into_view_if_needed()  # below her four boards' choices: she scrolls
        in_the_window(ann, send)
        send.click()
        expect(messages(ann)).to_have_text("Team A's line-up is in.")

        fay = errors_watched(problems, make(width=1366, height=768))
        log_in(fay, "fay", PASSWORD)
        fay.goto(f"/tournaments/{slug}/matches/1/")
        fay.locator(".lineup-form").get_by_role("button", name="Send the line-up").click()
        expect(messages(fay)).to_have_text("Team F's line-up is in.")

        outside_the_event_loop(_match_day, slug=slug)

        ann.goto(f"/tournaments/{slug}/matches/1/")
        report = ann.locator(".match-report").filter(has_text="Result of Team A – Team F")
        for board, result in zip((1, 2, 3, 4), ("1-0", "1-0", "1/2-1/2", "0-1"), strict=True):
            report.get_by_label(f"Board {board}:").select_option(result)
        button = report.get_by_role("button", name="Report the results")
        button.scroll_into_view_if_needed()
        in_the_window(ann, button)
        ann.screenshot(path=str(shots / "sumito-league-report-phone.png"), full_page=True)
        button.click()
        expect(messages(ann)).to_have_text(
            "The results are reported; the other captain confirms them."
        )

        fay.goto(f"/tournaments/{slug}/matches/1/")
        answer = fay.locator(".match-report").filter(has_text="Result of Team A – Team F")
        expect(answer.locator(".report-state")).to_contain_text("Team A reported 2.5–1.5.")
        confirm = answer.get_by_role("button", name="Confirm the results")
        in_the_window(fay, confirm)
        confirm.click()
        expect(messages(fay)).to_have_text("The results are confirmed and entered.")
        match = fay.locator(".team-match[data-match='1']")
        expect(match).to_contain_text("Team A – Team F 2½ – 1½")

        dora.goto(league_url)
        table = dora.locator(".league-table").first
        top = table.locator("tbody tr").first
        expect(top).to_contain_text("Team A")
        in_the_window(dora, top)
        expect(top.locator("td").nth(3)).to_have_text("2")
        expect(table.locator("tbody tr").last.locator(".mark")).to_have_text("▼ relegated")
        dora.screenshot(path=str(shots / "sumito-league-table.png"), full_page=True)
        dora.get_by_role("link", name="Fixtures and results").click()
        first_round = dora.locator("#fixtures tr[data-round='1'][data-home]").filter(
            has_text="Team A"
        )
        expect(first_round.locator(".result")).to_have_text("2½ – 1½")

        fay.goto(league_url)
        with fay.expect_download() as download:
            fay.locator("#team-calendars").get_by_role("link", name="Team F").click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        events = Calendar.from_ical(saved.read_bytes()).walk("VEVENT")
        assert len(events) == 5
        assert any("Team A – Team F 2.5–1.5" in str(event["summary"]) for event in events)
    assert problems == []
