"""A league over a season (PostgreSQL): a club's league with two divisions, teams of two
clubs entered, the season's start putting every round on its match day, the fixtures (home and
away, at the home team's club), a round played with line-ups and a result reported by one
captain and confirmed by the other, the tables with promotion and relegation marks, a team's
iCalendar file, the pages and the forms."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation
from icalendar import Calendar

from core.errors import Conflict, InvalidInput, NotAllowed
from leagues import selectors, services
from leagues.calendar import team_calendar
from leagues.models import Division, League
from notifications.models import Notification
from notifications.texts import notification_text
from tournaments import notify
from tournaments import services as tournament_services
from tournaments.models import Board, Round, TeamMatch, Tournament
from tournaments.services import team_events
from tournaments.services.team_reports import match_confirm, match_report

from ..tournaments.conftest import T0
from .conftest import FIRST_DAY, play_season

pytestmark = pytest.mark.django_db
BRUSSELS = ZoneInfo("Europe/Brussels")


def test_the_season_begins_on_its_match_days(season):
    league, owner, teams, ghent_team, first, second = season
    assert (first.tournament.format, first.tournament.entry) == ("team_round_robin", "open")
    assert second.tournament.format == "team_double_rr"
    # before the season: the teams entered, no fixtures
    assert [row.entry.name for row in selectors.table(first)] == [t.name for t in teams[:4]]
    assert selectors.fixtures(first) == []
    services.division_start(division=first, actor=owner, now=T0)
    services.division_start(division=second, actor=owner, now=T0)
    one = Tournament.objects.get(pk=first.tournament.pk)
    assert (one.status, one.rounds, one.round_start) == ("running", 3, "scheduled")
    # every round on its match day, 14 days apart at 20:00 in Brussels
    assert [one.round_time(n) for n in (1, 2, 3)] == [
        datetime_at(FIRST_DAY + timedelta(days=14 * k), time(20, 0)) for k in range(3)
    ]
    two = Tournament.objects.get(pk=second.tournament.pk)
    # three teams home and away: six rounds, a team sitting out each; 7 days apart at 19:30
    assert two.rounds == 6 and two.round_time(6) == datetime_at(date(2027, 1, 5), time(19, 30))
    fixtures = selectors.fixtures(Division.objects.get(pk=first.pk))
    assert len(fixtures) == 6 and [f.round for f in fixtures] == [1, 1, 2, 2, 3, 3]
    met = {frozenset((f.home.team_id, f.away.team_id)) for f in fixtures}
    assert len(met) == 6  # everyone meets everyone once
    # home and away in the double round-robin: each pair meets twice, once at each club
    legs = selectors.fixtures(Division.objects.get(pk=second.pk))
    assert len(legs) == 6
    homes = {(f.home.team_id, f.away.team_id) for f in legs}
    assert all((away, home) in homes for home, away in homes)
    at_ghent = [f for f in legs if f.home.team_id == ghent_team.pk]
    assert at_ghent and all(f.venue == "Ghent, Korenmarkt 1, Ghent" for f in at_ghent)
    # a second start is refused and changes nothing
    with pytest.raises(Conflict):
        services.division_start(division=first, actor=owner, now=T0)


def datetime_at(day: date, at: time) -> datetime:
    return datetime.combine(day, at, tzinfo=BRUSSELS)


def test_a_round_played_a_result_confirmed_and_the_tables_marked(season):
    league, owner, teams, ghent_team, first, second = season
    services.division_start(division=first, actor=owner, now=T0)
    tournament = Tournament.objects.get(pk=first.tournament.pk)
    match = TeamMatch.objects.get(round__tournament=tournament, round__number=1, number=1)
    home, away = match.first.team, match.second.team
    for team in (home, away):
        roster = [m.user for m in team.members.order_by("reserve", "board")][:4]
        team_events.lineup_submit(
            match=match, team=team, players=roster, actor=team.captain, now=T0
        )
    # the round begins on its match day (the beat moves it on)
    starts = tournament.round_time(1)
    tournament_services.tournaments_move_on(now=starts)
    assert Round.objects.get(tournament=tournament, number=1).status == "started"
    match_report(
        match=match, results=["1-0", "1-0", "1/2-1/2", "0-1"], actor=home.captain, now=starts
    )
    match_confirm(match=match, actor=away.captain, now=starts + timedelta(hours=3))
    assert [b.result for b in Board.objects.filter(team_match=match).order_by("slot")] == [
        "1-0",
        "1-0",
        "1/2-1/2",
        "0-1",
    ]
    division = Division.objects.get(pk=first.pk)
    fixture = next(f for f in selectors.fixtures(division) if f.match == match)
    # board 1 Black = home: 1-0 home; board 2 home White: 1-0 is away's; board 3 ½; board 4
    # home White: 0-1 home's -> home 2½ - 1½
    assert fixture.score == (2.5, 1.5) and fixture.report == "confirmed"
    rows = selectors.table(division)
    top = rows[0]
    assert (top.entry.team, top.played, top.match_points, top.game_points) == (home, 1, 2.0, 2.5)
    # Division 1 is the top level: nobody promoted; its last team is relegated
    assert [row.mark for row in rows][-1] == "relegated" and "promoted" not in {
        r.mark for r in rows
    }
    services.division_start(division=second, actor=owner, now=T0)
    lower = selectors.table(Division.objects.get(pk=second.pk))
    assert lower[0].mark == "promoted" and "relegated" not in {r.mark for r in lower}
    # the home team's calendar: its three fixtures, the first with its score
    events = Calendar.from_ical(
        team_calendar(league, home, selectors.team_fixtures(league, home), "test", starts)
    ).walk("VEVENT")
    assert len(events) == 3
    assert str(events[0]["summary"]).startswith(f"{home.name} – {away.name} 2.5–1.5")
    assert events[0].decoded("dtstart") == starts
    assert str(events[0]["location"]) == "Flanders"


def test_what_a_league_refuses(season, make_player):
    league, owner, teams, _ghent, first, _second = season
    stranger = make_player("stranger")
    with pytest.raises(NotAllowed):
        services.league_create(club=league.club, actor=stranger, name="Other", season="2027")
    with pytest.raises(Conflict):
        services.league_create(
            club=league.club, actor=owner, name="Flanders League", season="2026-27"
        )
    with pytest.raises(InvalidInput):
        services.division_create(
            league=league, actor=owner, name="D3", first_day=FIRST_DAY, level=12
        )
    with pytest.raises(Conflict):
        services.division_create(league=league, actor=owner, name="division 1", first_day=FIRST_DAY)
    with pytest.raises(NotAllowed):
        services.division_start(division=first, actor=stranger, now=T0)
    empty = services.division_create(
        league=league, actor=owner, name="Division 3", level=3, first_day=FIRST_DAY
    )
    with pytest.raises(Conflict) as refused:
        services.division_start(division=empty, actor=owner, now=T0)
    assert refused.value.code == "too_few_teams"
    assert League.objects.count() == 1 and Division.objects.count() == 3


def test_the_league_pages(season, client):
    league, owner, teams, ghent_team, first, second = season
    club = league.club
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Division 1" in page and "Division 2" in page and "Enter a team" in page
    assert f"/leagues/{league.slug}/teams/{teams[0].slug}.ics" in page
    client.force_login(owner)
    assert "New league" in client.get(club.get_absolute_url()).content.decode()
    made = client.post(
        f"/clubs/{club.slug}/leagues/new/", {"name": "Cup League", "season": "2027"}, follow=True
    )
    assert (
        "Cup League is made" in made.content.decode()
        or "Cup League 2027 is made" in made.content.decode()
    )
    new = League.objects.get(name="Cup League")
    bad = client.post(f"/leagues/{new.slug}/divisions/new/", {"name": "D1", "level": 20})
    assert bad.status_code == 422
    done = client.post(
        f"/leagues/{new.slug}/divisions/new/",
        {
            "name": "Division 1",
            "level": 1,
            "double": "on",
            "boards": 4,
            "promote": 0,
            "relegate": 0,
            "first_day": "2027-01-10",
            "match_time": "19:00",
            "days_between": 7,
        },
        follow=True,
    )
    assert "Division 1 is made" in done.content.decode()
    started = client.post(f"/leagues/{league.slug}/divisions/{first.pk}/start/", follow=True)
    shown = started.content.decode()
    assert "round 1 is paired" in shown and "Fixtures and results" in shown
    assert shown.count('data-round="') == 6
    calendar = client.get(f"/leagues/{league.slug}/teams/{teams[0].slug}.ics")
    assert calendar["Content-Type"].startswith("text/calendar")
    assert len(Calendar.from_ical(calendar.content).walk("VEVENT")) == 3
    client.force_login(teams[0].captain)  # a captain, not a club admin
    assert client.get(f"/clubs/{club.slug}/leagues/new/").status_code == 403
    assert client.get("/leagues/nothing/").status_code == 404
    api = client.get(f"/api/v1/leagues/{league.slug}/").json()
    one = next(d for d in api["divisions"] if d["name"] == "Division 1")
    assert [row["team"] for row in one["table"]] and len(one["fixtures"]) == 6
    assert one["fixtures"][0]["venue"] == "Flanders" and one["fixtures"][0]["score"] is None
    assert client.get("/api/v1/leagues/nothing/").status_code == 404


def test_every_player_of_a_team_that_plays_tomorrow_is_told_once(season):
    league, owner, teams, ghent_team, first, second = season
    services.division_start(division=first, actor=owner, now=T0)
    starts = datetime_at(FIRST_DAY, time(20, 0))
    assert notify.remind_fixtures(now=starts - timedelta(hours=25)) == 0
    # a day before: every player on the rosters of Division 1's four teams (four each, and
    # Team A's reserve)
    assert notify.remind_fixtures(now=starts - timedelta(hours=23)) == 17
    assert notify.remind_fixtures(now=starts - timedelta(hours=1)) == 0  # once
    told = Notification.objects.filter(kind="fixture_reminder")
    assert {n.user_id for n in told} == {
        member.user_id for team in teams[:4] for member in team.members.all()
    }
    mine = told.get(user=teams[0].captain)
    match = TeamMatch.objects.get(
        round__tournament=first.tournament, round__number=1, first__team=teams[0]
    )
    assert notification_text(mine.kind, mine.data) == (
        f"Flanders League 2026-27: Division 1, round 1: Team A meets {match.second.name} "
        "on 1 December 2026 at 20:00."
    )
    with translation.override("de"):
        assert "trifft am 1. Dezember 2026 um 20:00 auf" in notification_text(mine.kind, mine.data)
    # Division 2's rounds are not tomorrow; once round 1 begins nobody is told again
    tournament_services.tournaments_move_on(now=starts)
    assert notify.remind_fixtures(now=starts) == 0


def test_the_next_season_moves_the_teams_by_the_marks(season, client, make_player):
    league, owner, teams, ghent_team, first, second = season
    with pytest.raises(Conflict) as refused:  # not before the season is over
        services.league_next_season(
            league=league, actor=owner, season="2027-28", first_day=date(2027, 10, 1), now=T0
        )
    assert refused.value.code == "season_not_over"
    play_season(first, owner)
    client.force_login(owner)
    page = client.get(league.get_absolute_url()).content.decode()
    assert 'id="next-season"' not in page  # Division 2 still plays
    play_season(second, owner)
    top = selectors.table(Division.objects.get(pk=first.pk))
    lower = selectors.table(Division.objects.get(pk=second.pk))
    relegated, promoted = top[-1].entry.team, lower[0].entry.team
    assert (top[-1].mark, lower[0].mark) == ("relegated", "promoted")
    stranger = make_player("stranger")
    with pytest.raises(NotAllowed):
        services.league_next_season(
            league=league, actor=stranger, season="2027-28", first_day=date(2027, 10, 1), now=T0
        )
    page = client.get(league.get_absolute_url()).content.decode()
    assert 'id="next-season"' in page
    url = reverse("league-next-season", args=[league.slug])
    assert client.post(url, {"season": "2027-28", "first_day": "not a day"}).status_code == 422
    done = client.post(url, {"season": "2027-28", "first_day": "2027-10-01"})
    new = League.objects.get(club=league.club, name=league.name, season="2027-28")
    assert done.status_code == 302 and done["Location"] == new.get_absolute_url()
    one, two = selectors.divisions(new)
    assert (one.name, one.level, one.relegate, one.first_day) == (
        "Division 1",
        1,
        1,
        date(2027, 10, 1),
    )
    assert (two.level, two.promote, two.match_time, two.days_between) == (2, 1, time(19, 30), 7)
    assert two.tournament.format == "team_double_rr" and two.tournament.time_zone == (
        "Europe/Brussels"
    )
    entered = {
        division.name: {row.entry.team for row in selectors.table(division)}
        for division in (one, two)
    }
    assert entered["Division 1"] == (set(teams[:4]) - {relegated}) | {promoted}
    assert entered["Division 2"] == ({*teams[4:], ghent_team} - {promoted}) | {relegated}
    # the same season twice is refused and changes nothing
    again = client.post(url, {"season": "2027-28", "first_day": "2027-10-01"})
    assert again.status_code == 422
    assert League.objects.filter(club=league.club, name=league.name).count() == 2
