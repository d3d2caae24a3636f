"""One league match postponed by its director (PostgreSQL): the fixture, the round's match
page, the team's calendar and the day-before reminder follow the new time, both teams' players
are told once, the audit trail keeps it; the form page and the API; what is refused changes
nothing."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation
from icalendar import Calendar

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from leagues import selectors, services
from leagues.calendar import team_calendar
from leagues.models import Division
from notifications.models import Notification
from notifications.texts import notification_text
from tournaments import notify, team_draw
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Board, Round, TeamLineup, TeamMatch, Tournament
from tournaments.pairing.teams import team_match_score
from tournaments.services.results import board_result_set
from tournaments.services.team_events import lineup_submit, roster_of
from tournaments.team_selectors import lineup_forms

from ..tournaments.conftest import T0
from .conftest import FIRST_DAY

pytestmark = pytest.mark.django_db
BRUSSELS = ZoneInfo("Europe/Brussels")
MATCH_DAY = datetime.combine(FIRST_DAY, time(20, 0), tzinfo=BRUSSELS)
LATER = datetime(2026, 12, 10, 19, 30, tzinfo=BRUSSELS)


@pytest.fixture
def started(season):
    league, owner, teams, ghent_team, first, second = season
    services.division_start(division=first, actor=owner, now=T0)
    first = Division.objects.select_related("tournament").get(pk=first.pk)  # as it is now
    moved, kept = TeamMatch.objects.filter(
        round__tournament=first.tournament, round__number=1
    ).select_related("first__team", "second__team")
    return league, owner, teams, first, second, moved, kept


def roster(match: TeamMatch) -> set[int]:
    return {
        member.user_id
        for entry in (match.first, match.second)
        for member in entry.team.members.all()
    }


def test_a_postponed_match_moves_everywhere_and_is_told_once(started):
    league, owner, teams, first, second, moved, kept = started
    done = services.fixture_postpone(
        division=first, match_id=moved.pk, actor=owner, when=LATER, now=T0
    )
    assert done.postponed_to == LATER
    fixtures = {f.match.pk: f for f in selectors.fixtures(first) if f.match}
    assert (fixtures[moved.pk].when, fixtures[moved.pk].postponed) == (LATER, True)
    assert (fixtures[kept.pk].when, fixtures[kept.pk].postponed) == (MATCH_DAY, False)
    entry = AuditEntry.objects.get(what=AuditEntry.What.MATCH_POSTPONED)
    assert entry.detail.endswith("2026-12-01 20:00 → 2026-12-10 19:30")

    told = Notification.objects.filter(kind="fixture_moved")  # .all().count(): counted anew
    assert {n.user_id for n in told} == roster(moved) and told.all().count() == len(roster(moved))
    mine = told.get(user=moved.first.team.captain)
    assert notification_text(mine.kind, mine.data) == (
        f"Flanders League 2026-27: Division 1, round 1: the match of {moved.first.name} against "
        f"{moved.second.name} is moved to 10 December 2026 at 19:30."
    )
    with translation.override("de"):
        assert "10. Dezember 2026" in notification_text(mine.kind, mine.data)
    # the same time again: nothing changes, nobody is told twice
    services.fixture_postpone(division=first, match_id=moved.pk, actor=owner, when=LATER, now=T0)
    assert told.all().count() == len(roster(moved))
    assert AuditEntry.objects.filter(what=AuditEntry.What.MATCH_POSTPONED).count() == 1

    # the day before the match day: only the other match's players; the day before the new
    # time: the postponed match's, once
    assert notify.remind_fixtures(now=MATCH_DAY - timedelta(hours=2)) == len(roster(kept))
    reminded = Notification.objects.filter(kind="fixture_reminder")
    assert {n.user_id for n in reminded} == roster(kept)
    tournament_services.tournaments_move_on(now=MATCH_DAY)  # round 1 begins on its day
    assert notify.remind_fixtures(now=LATER - timedelta(hours=25)) == 0
    assert notify.remind_fixtures(now=LATER - timedelta(hours=3)) == len(roster(moved))
    assert notify.remind_fixtures(now=LATER - timedelta(hours=1)) == 0
    late = reminded.get(user=moved.first.team.captain)
    assert "on 10 December 2026 at 19:30" in notification_text(late.kind, late.data)

    # moved again: told again, reminded again before the newer time
    latest = LATER + timedelta(days=7)
    services.fixture_postpone(division=first, match_id=moved.pk, actor=owner, when=latest, now=T0)
    assert told.all().count() == 2 * len(roster(moved))
    assert notify.remind_fixtures(now=latest - timedelta(hours=3)) == len(roster(moved))

    # the team's calendar: the same event (its UID), on the new day
    team = moved.first.team
    calendar = Calendar.from_ical(
        team_calendar(league, team, selectors.team_fixtures(league, team), "sumito.test", T0)
    )
    events = [e for e in calendar.walk("VEVENT") if "round 1" in str(e["summary"])]
    assert len(events) == 1 and events[0].decoded("dtstart") == latest
    assert "postponed" in str(events[0]["summary"])


def test_a_match_brought_forward_of_its_round_is_reminded_with_it(started):
    """A match "postponed" to a time before its round's begins with its round: both reminders
    (the captains' line-ups, the players' day before) come with the round's, once, and not
    again at the match's own time (one rule, ``notify._begins_with_its_round``, for both)."""
    league, owner, teams, first, second, moved, kept = started
    sooner = MATCH_DAY - timedelta(hours=4)
    services.fixture_postpone(division=first, match_id=moved.pk, actor=owner, when=sooner, now=T0)
    # a day before the match's own time, its round not yet a day away: nobody yet
    assert notify.remind_fixtures(now=sooner - timedelta(hours=23)) == 0
    # with the round: both matches' players, the captains of both matches
    assert notify.remind_fixtures(now=MATCH_DAY - timedelta(hours=2)) == len(
        roster(moved) | roster(kept)
    )
    assert notify.remind_captains(now=MATCH_DAY - timedelta(hours=1)) == 4
    # nothing twice, nothing more at the match's own time
    assert notify.remind_fixtures(now=MATCH_DAY - timedelta(hours=1)) == 0
    assert notify.remind_captains(now=MATCH_DAY - timedelta(minutes=30)) == 0
    reminded = Notification.objects.filter(kind="fixture_reminder", user=moved.first.team.captain)
    assert reminded.count() == 1


def test_a_match_postponed_after_its_round_began_early_is_reminded_at_its_own_time(started):
    """The round begun by hand hours before its scheduled time, a match moved to a time
    between the two: it begins at that time, so its reminders come before it."""
    league, owner, teams, first, second, moved, kept = started
    early = MATCH_DAY - timedelta(hours=6)
    tournament_services.round_start(
        tournament_id=first.tournament.pk, number=1, actor=owner, now=early
    )
    when = MATCH_DAY - timedelta(hours=2)
    services.fixture_postpone(
        division=first, match_id=moved.pk, actor=owner, when=when, now=early + timedelta(minutes=5)
    )
    moved.refresh_from_db()
    assert moved.begun_at is None  # reopened: nothing was played on it
    assert notify.remind_captains(now=when - timedelta(hours=1)) == 2
    assert notify.remind_captains(now=when - timedelta(minutes=30)) == 0
    assert notify.remind_fixtures(now=when - timedelta(hours=1)) == len(roster(moved))


def test_what_a_postponement_refuses(started, make_player):
    league, owner, teams, first, second, moved, kept = started
    cases = [
        (NotAllowed, make_player("stranger"), moved.pk, LATER),
        (NotAllowed, moved.first.team.captain, moved.pk, LATER),
        (InvalidInput, owner, moved.pk, T0 - timedelta(hours=1)),  # gone by
        (InvalidInput, owner, moved.pk, LATER.replace(tzinfo=None)),  # no time zone
        (NotFound, owner, 10**9, LATER),
    ]
    other = TeamMatch.objects.filter(round__tournament=second.tournament).first()
    for refusal, actor, match_id, when in cases + [
        (NotFound, owner, getattr(other, "pk", 0), LATER)
    ]:
        with pytest.raises(refusal):
            services.fixture_postpone(
                division=first, match_id=match_id, actor=actor, when=when, now=T0
            )
    # a match played is not postponed
    tournament_services.tournaments_move_on(now=MATCH_DAY)
    for board in Board.objects.filter(team_match=kept):
        board_result_set(board=board, actor=owner, result="1-0", now=MATCH_DAY)
    with pytest.raises(Conflict) as played:
        services.fixture_postpone(division=first, match_id=kept.pk, actor=owner, when=LATER, now=T0)
    assert played.value.code == "match_played"
    assert not TeamMatch.objects.exclude(postponed_to=None).exists()
    assert not Notification.objects.filter(kind="fixture_moved").exists()


def test_the_postponement_on_the_pages_and_the_api(started, client):
    league, owner, teams, first, second, moved, kept = started
    division_url = reverse("league-division", args=[league.slug, first.pk])
    form_url = reverse("league-fixture-postpone", args=[league.slug, first.pk, moved.pk])
    client.force_login(moved.first.team.captain)
    assert form_url not in client.get(division_url).content.decode()
    assert client.get(form_url).status_code == 403
    client.force_login(owner)
    page = client.get(division_url).content.decode()
    assert form_url in page
    form = client.get(form_url).content.decode()
    assert 'value="2026-12-01T20:00"' in form  # the match day, in the event's time zone
    refused = client.post(form_url, {"when": "2026-11-01T20:00"})
    assert refused.status_code == 422 and "time to come" in refused.content.decode()
    done = client.post(form_url, {"when": "2026-12-10T19:30"}, follow=True)
    assert "is moved to 10 December 2026" in done.content.decode()
    moved.refresh_from_db()
    assert moved.postponed_to == LATER
    page = client.get(division_url).content.decode()
    assert "postponed to 10 December 2026, 19:30" in page and "1 December 2026, 20:00" in page
    matches = client.get(
        reverse("tournament-team-matches", args=[first.tournament.slug, 1])
    ).content.decode()
    assert "Postponed to 10 December 2026, 19:30 (Europe/Brussels)" in matches

    api = f"/api/v1/leagues/{league.slug}/divisions/{first.pk}/matches/{kept.pk}/postpone/"
    answer = client.post(
        api, {"when": "2026-12-11T19:30:00+01:00"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.json()
    rows = {f["match"]: f for f in answer.json()["fixtures"] if f["match"]}
    assert rows[kept.pk]["postponed"] and rows[moved.pk]["postponed"]
    assert rows[kept.pk]["when"].startswith("2026-12-11T18:30")
    bad = client.post(api, {"when": "soon"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]
    gone = client.post(
        api.replace(f"/{kept.pk}/", "/999999999/"),
        {"when": "2026-12-11T19:30:00+01:00"},
        content_type="application/json",
    )
    assert gone.status_code == 404 and gone.json()["error"] == "not_found"
    client.force_login(kept.first.team.captain)
    denied = client.post(
        api, {"when": "2026-12-12T19:30:00+01:00"}, content_type="application/json"
    )
    assert denied.status_code == 403
    kept.refresh_from_db()
    assert kept.postponed_to == datetime(2026, 12, 11, 18, 30, tzinfo=ZoneInfo("UTC"))


def test_a_postponed_match_is_played_at_its_own_time_and_the_season_waits_for_it(started):
    league, owner, teams, first, second, moved, kept = started
    tournament = first.tournament
    boards = tournament.team_boards
    services.fixture_postpone(division=first, match_id=moved.pk, actor=owner, when=LATER, now=T0)
    # the captains reminded of their line-ups before the match day: the other match's only
    reminders = Notification.objects.filter(kind="lineup_reminder")
    assert notify.remind_captains(now=MATCH_DAY - timedelta(hours=1)) == 2
    assert {n.user_id for n in reminders} == {
        kept.first.team.captain_id,
        kept.second.team.captain_id,
    }
    tournament_services.tournaments_move_on(now=MATCH_DAY)  # round 1 begins without it
    moved.refresh_from_db()
    kept.refresh_from_db()
    assert (moved.begun_at, kept.begun_at) == (None, MATCH_DAY)
    assert not Board.objects.filter(team_match=moved).exists()
    assert Board.objects.filter(team_match=kept).count() == boards
    paired = Notification.objects.filter(kind="round_paired")
    assert {n.user_id for n in paired} & roster(moved) == set()

    # its line-ups stay open after the round began (the last board left empty), the other's not
    home = moved.first.team
    fielded = [User.objects.get(pk=pk) for pk, _name in roster_of(home)[: boards - 1]]
    later = MATCH_DAY + timedelta(days=2)
    lineup_submit(match=moved, team=home, players=[*fielded, None], actor=home.captain, now=later)
    with pytest.raises(Conflict) as closed:
        lineup_submit(
            match=kept, team=kept.first.team, players=[], actor=kept.first.team.captain, now=later
        )
    assert closed.value.code == "lineups_closed"
    forms = lineup_forms(tournament, 1, home.captain)
    assert [(f.match.pk, f.correcting, f.sent) for f in forms] == [(moved.pk, False, True)]
    assert lineup_forms(tournament, 1, kept.first.team.captain) == []
    # before its own time, the captain whose line-up is not in is reminded, once
    assert notify.remind_captains(now=LATER - timedelta(days=2)) == 0
    assert notify.remind_captains(now=LATER - timedelta(hours=2)) == 1
    assert notify.remind_captains(now=LATER - timedelta(hours=1)) == 0
    assert reminders.filter(user=moved.second.team.captain).count() == 1

    # round 1 ends without it, the season goes on to its last round, and waits for it
    for board in Board.objects.filter(team_match=kept):
        board_result_set(board=board, actor=owner, result="1-0", now=later)
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    for number in range(2, tournament.rounds + 1):
        tournament_services.round_pair(tournament_id=tournament.pk, number=number, now=later)
        tournament_services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=later
        )
        for board in Board.objects.filter(round__tournament=tournament, round__number=number):
            board_result_set(board=board, actor=owner, result="0-1", now=later)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert not Round.objects.filter(tournament=tournament).exclude(status="finished").exists()

    # its time comes: its boards from the line-ups sent meanwhile, its players told; once
    for now in (LATER, LATER + timedelta(minutes=1)):
        tournament_services.tournaments_move_on(now=now)
    moved.refresh_from_db()
    home_black = boards % 2 == 1  # the home team is Black on the odd boards
    assert moved.begun_at == LATER and moved.forfeits[-1] == ("-+" if home_black else "+-")
    played = Board.objects.filter(team_match=moved).order_by("slot")
    assert [b.slot for b in played] == list(range(1, boards))
    assert [b.round.number for b in played] == [1] * (boards - 1)
    assert {n.user_id for n in paired.all()} >= {u.pk for u in fielded}
    with pytest.raises(Conflict):
        lineup_submit(match=moved, team=home, players=fielded, actor=home.captain, now=LATER)
    for board in played:
        board_result_set(board=board, actor=owner, result="1/2-1/2", now=LATER)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    score = team_match_score(team_draw.match_results([moved])[moved.pk])
    assert (score.first, score.second) == ((boards - 1) / 2, (boards - 1) / 2 + 1)


def test_a_match_begun_without_a_result_is_postponed_and_begins_again(started):
    league, owner, teams, first, second, moved, kept = started
    tournament = first.tournament
    boards = tournament.team_boards
    tournament_services.tournaments_move_on(now=MATCH_DAY)
    soon = MATCH_DAY + timedelta(hours=1)
    # a match with a result in is not postponed: nothing changes
    some = Board.objects.filter(team_match=moved).order_by("slot").first()
    board_result_set(board=some, actor=owner, result="1-0", now=soon)
    with pytest.raises(Conflict) as begun:
        services.fixture_postpone(
            division=first, match_id=moved.pk, actor=owner, when=LATER, now=soon
        )
    assert begun.value.code == "match_begun"
    moved.refresh_from_db()
    assert moved.postponed_to is None and moved.begun_at == MATCH_DAY
    assert Board.objects.filter(team_match=moved).count() == boards

    # the other, nothing played on it, opens again until its new time
    services.fixture_postpone(division=first, match_id=kept.pk, actor=owner, when=LATER, now=soon)
    kept.refresh_from_db()
    assert (kept.begun_at, kept.forfeits, kept.postponed_to) == (None, [], LATER)
    assert not Board.objects.filter(team_match=kept).exists()
    assert not TeamLineup.objects.filter(match=kept).exists()  # the ones fielded by default
    home = kept.first.team
    fielded = [User.objects.get(pk=pk) for pk, _name in roster_of(home)[:boards]]
    lineup_submit(match=kept, team=home, players=fielded, actor=home.captain, now=soon)
    # round 1 ends with the match played
    for board in Board.objects.filter(team_match=moved, result=""):
        board_result_set(board=board, actor=owner, result="0-1", now=soon)
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    tournament_services.tournaments_move_on(now=LATER)
    kept.refresh_from_db()
    assert kept.begun_at == LATER
    again = Board.objects.filter(team_match=kept).order_by("slot")
    assert [b.slot for b in again] == list(range(1, boards + 1))
    assert {again[0].black.user_id, again[0].white.user_id} >= {fielded[0].pk}
