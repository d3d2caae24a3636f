"""A league match postponed, through a real browser.

Flanders League's Division 1 (Teams A-D, Brussels time) has begun: round 1 is paired for its
match day two weeks from now. Dora, who runs the club, on a 1366x768 laptop, opens the
division's page, presses "Postpone" beside Team A's match, is refused a day gone by, then
moves it a week later at 19:30: the fixture reads "postponed to ..." while the round keeps its
match day, and the round's matches page says so too. Ann, Team A's captain, on her phone
(390x844), reads the new day on the division's page and in her notifications; the round
begins on its day without the match, and Ann sends her line-up for it afterwards, her last
board left empty. Every step read
from the screen, inside the viewport; no console or page error; screenshots in
``SCREENSHOT_DIR``.
"""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import expect

from leagues import services as league_services
from notifications.models import Notification
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import form_field, messages
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tournaments.models import TeamLineup, TeamMatch
from tournaments.services import team_events
from tournaments.services.rounds import round_start

BRUSSELS = ZoneInfo("Europe/Brussels")
CAPTAINS = {0: ("ann", "Ann")}


def _started_division(make_player):
    """Division 1 with Teams A-D, its season begun: round 1 paired for its match day."""
    now = timezone.now()
    club, owner, teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS
    )
    league = league_services.league_create(
        club=club, actor=owner, name="Flanders League", season="2026-27"
    )
    division = league_services.division_create(
        league=league,
        actor=owner,
        name="Division 1",
        first_day=now.astimezone(BRUSSELS).date() + timedelta(days=14),
        time_zone="Europe/Brussels",
    )
    for team in teams[:4]:
        team_events.team_enter(
            tournament=division.tournament, team=team, actor=team.captain, now=now
        )
    league_services.division_start(division=division, actor=owner, now=now)
    match = TeamMatch.objects.select_related("first", "second").get(
        round__tournament=division.tournament, round__number=1, first__team=teams[0]
    )
    return division, match


@pytest.mark.browser
def test_a_director_postpones_a_league_match(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    division, match = outside_the_event_loop(_started_division, make_player=make_player)
    boards = division.tournament.team_boards
    match_day = division.first_day
    new_day = match_day + timedelta(days=7)
    shown_match_day = date_format(match_day, "DATE_FORMAT")
    shown_new_day = date_format(new_day, "DATE_FORMAT")
    title = f"{match.first.name} – {match.second.name}"
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        dora.goto(division.get_absolute_url())
        heading = dora.locator("#fixtures h3").first
        expect(heading).to_contain_text(f"Round 1 {shown_match_day}")
        postpone = dora.get_by_role("link", name=f"Postpone {title}", exact=True)
        postpone.scroll_into_view_if_needed()
        in_the_window(dora, postpone)
        dora.screenshot(path=str(shots / "sumito-league-postpone-before.png"), full_page=True)
        postpone.click()

        expect(dora.locator("h1")).to_have_text(f"Postpone {title}")
        when = form_field(dora, "Played on")
        in_the_window(dora, when)
        expect(when).to_have_value(f"{match_day.isoformat()}T20:00")  # the match day's hour
        yesterday = timezone.now().astimezone(BRUSSELS).date() - timedelta(days=1)
        when.fill(f"{yesterday.isoformat()}T20:00")
        dora.get_by_role("button", name="Save").click()
        expect(dora.locator(".form-errors")).to_contain_text(
            "A match is postponed to a time to come."
        )
        dora.screenshot(path=str(shots / "sumito-league-postpone-refused.png"), full_page=True)
        form_field(dora, "Played on").fill(f"{new_day.isoformat()}T19:30")
        dora.get_by_role("button", name="Save").click()
        expect(messages(dora)).to_contain_text(f"{title} is moved to {shown_new_day}")
        row = dora.locator(f'#fixtures tr[data-home="{match.first.team.slug}"]').first
        expect(row.locator(".postponed")).to_have_text(f"postponed to {shown_new_day}, 19:30")
        row.scroll_into_view_if_needed()
        in_the_window(dora, row.locator(".postponed"))
        expect(dora.locator("#fixtures h3").first).to_contain_text(shown_match_day)
        dora.screenshot(path=str(shots / "sumito-league-postponed.png"), full_page=True)
        dora.goto(f"/tournaments/{division.tournament.slug}/matches/1/")
        note = dora.locator(f'.team-match[data-match="{match.number}"] .postponed')
        expect(note).to_have_text(f"Postponed to {shown_new_day}, 19:30 (Europe/Brussels)")

        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(division.get_absolute_url())
        note = ann.locator(f'#fixtures tr[data-home="{match.first.team.slug}"] .postponed')
        note.first.scroll_into_view_if_needed()
        in_the_window(ann, note.first)
        expect(ann.get_by_role("link", name=f"Postpone {title}")).to_have_count(0)  # not hers
        ann.screenshot(path=str(shots / "sumito-league-postponed-phone.png"), full_page=True)
        ann.goto("/notifications/")
        told = ann.locator("main").get_by_text(f"is moved to {shown_new_day} at 19:30")
        expect(told).to_have_count(1)
        in_the_window(ann, told)
        ann.screenshot(path=str(shots / "sumito-league-postponed-told.png"), full_page=True)

        # the round begins on its day without the match: Ann sends her line-up afterwards
        outside_the_event_loop(
            round_start,
            tournament_id=division.tournament_id,
            number=1,
            actor=None,
            now=timezone.now(),
        )
        ann.goto(f"/tournaments/{division.tournament.slug}/matches/1/")
        ours = ann.locator(f'.team-match[data-match="{match.number}"]')
        expect(ours.locator(".waits")).to_have_text(
            "Its captains send their line-ups until it begins."
        )
        form = ann.locator(".lineup-form")
        expect(form).to_have_count(1)
        last = form.get_by_label(f"Board {boards}", exact=True)
        last.scroll_into_view_if_needed()
        in_the_window(ann, last)
        last.select_option("")  # nobody for the last board
        send = form.get_by_role("button", name="Send the line-up")
        send.scroll_into_view_if_needed()
        in_the_window(ann, send)
        send.click()
        expect(messages(ann)).to_contain_text(f"{match.first.name}'s line-up is in.")
        expect(ann.locator(".lineup-form .muted").first).to_have_text(
            "Sent; you may change it until the match begins."
        )
        ann.screenshot(path=str(shots / "sumito-league-postponed-lineup.png"), full_page=True)
    sent = TeamLineup.objects.get(match=match, entry=match.first)
    assert len(sent.players) == boards and sent.players[-1] is None and not sent.by_default
    moved = TeamMatch.objects.get(pk=match.pk).postponed_to
    assert moved == datetime.combine(new_day, time(19, 30), tzinfo=BRUSSELS)
    assert Notification.objects.filter(kind="fixture_moved", user__username="ann").count() == 1
    # the refused form answers 422 (a form error), which Chromium logs once; nothing else
    refused = [p for p in problems if "/postpone/" in p and "status of 422" in p]
    assert len(refused) == 1
    assert [p for p in problems if p not in refused] == []
