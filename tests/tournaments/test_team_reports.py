"""Captains report an over-the-board team match's results and the other captain confirms or
disputes them (PostgreSQL): entered as a director's results would be, on the audit trail, the
other captain told; refusals change nothing; a director decides a dispute; the pages and the
API do the same."""

from __future__ import annotations

import pytest

from core.errors import Conflict, InvalidInput, NotAllowed
from notifications.models import Notification
from notifications.texts import notification_text
from tournaments import services
from tournaments.models import AuditEntry, Board, Round, TeamMatch, TeamMatchReport
from tournaments.services.results import board_result_set
from tournaments.services.team_reports import match_confirm, match_dispute, match_report
from tournaments.team_selectors import report_forms, round_matches

from .conftest import T0, at
from .team_league import league_club
from .test_team_events import event

pytestmark = pytest.mark.django_db

FOUR = ["1-0", "0-1", "1/2-1/2", "1-0"]


@pytest.fixture
def league(make_player):
    return league_club(make_player)


def begun(league, **settings):
    """Round 1 of a four-team event begun (every team fields its roster's first four)."""
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:4], **settings)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    match = TeamMatch.objects.filter(round__tournament=tournament, number=1).get()
    return tournament, match, match.first.team, match.second.team


def results(match) -> list[str]:
    return [b.result for b in Board.objects.filter(team_match=match).order_by("slot")]


def _forms(tournament, user):
    round_ = Round.objects.get(tournament=tournament, number=1)
    return report_forms(tournament, round_, round_matches(tournament, 1), user)


def test_a_captain_reports_and_the_other_confirms(league):
    _club, owner, _teams = league
    tournament, match, home, away = begun(league)
    report = match_report(match=match, results=FOUR, actor=home.captain, now=at(2))
    assert (report.state, report.entry, report.results) == ("reported", match.first, FOUR)
    assert results(match) == ["", "", "", ""]  # nothing entered yet
    told = Notification.objects.get(user=away.captain, kind="match_reported")
    assert notification_text(told.kind, told.data) == (
        f"Flanders League, round 1: {home.name} reported 2.5–1.5 against {away.name}; confirm "
        "or dispute it."
    )
    # the reporter may correct it until the other answers; the other captain sees the form
    report = match_report(match=match, results=["1-0"] * 4, actor=home.captain, now=at(2.5))
    assert report.results == ["1-0"] * 4
    [form] = _forms(tournament, away.captain)
    assert form.may_answer and form.score == "2–2"
    # the reporter cannot confirm their own report
    with pytest.raises(NotAllowed):
        match_confirm(match=match, actor=home.captain, now=at(3))
    report = match_confirm(match=match, actor=away.captain, now=at(3))
    assert report.state == "confirmed" and report.answered_by == away.captain
    assert results(match) == ["1-0"] * 4
    changes = [
        board.changes.get() for board in Board.objects.filter(team_match=match).order_by("slot")
    ]
    assert all(f"confirmed by {away.captain.username}" in c.reason for c in changes)
    said = [a.what for a in AuditEntry.objects.filter(tournament=tournament).order_by("pk")]
    assert said == ["result_reported", "result_reported", "result_confirmed"]
    row = next(r for r in round_matches(tournament, 1) if r.match.pk == match.pk)
    assert (row.first_points, row.second_points) == (2.0, 2.0)
    # in: no more reports
    with pytest.raises(Conflict) as refused:
        match_report(match=match, results=FOUR, actor=away.captain, now=at(4))
    assert refused.value.code == "match_decided"


def test_the_same_results_from_both_captains_confirm_different_ones_dispute(league):
    _club, owner, _teams = league
    tournament, match, home, away = begun(league)
    match_report(match=match, results=FOUR, actor=home.captain, now=at(2))
    report = match_report(match=match, results=FOUR, actor=away.captain, now=at(3))
    assert report.state == "confirmed" and results(match) == FOUR
    other = TeamMatch.objects.filter(round__tournament=tournament, number=2).get()
    match_report(match=other, results=FOUR, actor=other.first.team.captain, now=at(2))
    report = match_report(
        match=other, results=["0-1"] * 4, actor=other.second.team.captain, now=at(3)
    )
    assert report.state == "disputed" and results(other) == ["", "", "", ""]
    # a dispute: the captains wait; a director decides by entering the boards
    with pytest.raises(Conflict) as refused:
        match_confirm(match=other, actor=other.first.team.captain, now=at(4))
    assert refused.value.code == "disputed"
    with pytest.raises(Conflict) as refused:  # nor does a new report undo the dispute
        match_report(match=other, results=FOUR, actor=other.first.team.captain, now=at(4))
    assert refused.value.code == "disputed"
    assert TeamMatchReport.objects.get(match=other).state == "disputed"
    assert [f.may_answer for f in _forms(tournament, owner)] == [True]
    for board in Board.objects.filter(team_match=other):
        board_result_set(board=board, actor=owner, result="1/2-1/2", now=at(5))
    assert TeamMatchReport.objects.get(match=other).state == "decided"
    assert Round.objects.get(tournament=tournament, number=1).status == "finished"


def test_a_report_that_is_wrong_changes_nothing(league, make_player):
    _club, owner, teams = league
    tournament, match, home, away = begun(league)
    with pytest.raises(NotAllowed):  # a player of another match's team
        match_report(match=match, results=FOUR, actor=teams[5].captain, now=at(2))
    with pytest.raises(InvalidInput) as refused:
        match_report(match=match, results=FOUR[:3], actor=home.captain, now=at(2))
    assert refused.value.code == "bad_results"
    with pytest.raises(InvalidInput) as refused:
        match_report(match=match, results=[*FOUR[:3], "2-0"], actor=home.captain, now=at(2))
    assert "Board 4" in refused.value.detail
    with pytest.raises(Conflict) as refused:
        match_confirm(match=match, actor=away.captain, now=at(2))
    assert refused.value.code == "no_report"
    with pytest.raises(Conflict):
        match_dispute(match=match, actor=away.captain, now=at(2))
    assert not TeamMatchReport.objects.exists()
    assert not AuditEntry.objects.filter(tournament=tournament).exists()
    assert not Notification.objects.filter(kind="match_reported").exists()


def test_nothing_is_reported_on_the_server_or_outside_a_round_in_play(league):
    club, owner, teams = league
    tournament, match, home, _away = begun(league, play_mode="server")
    with pytest.raises(Conflict) as refused:
        match_report(match=match, results=FOUR, actor=home.captain, now=at(2))
    assert refused.value.code == "server_event"
    paired = event(club, owner, teams=teams[:2], name="Friendly")
    services.tournament_start(tournament=paired, actor=owner, now=T0)
    waiting = TeamMatch.objects.get(round__tournament=paired)
    with pytest.raises(Conflict) as refused:
        match_report(match=waiting, results=FOUR, actor=waiting.first.team.captain, now=T0)
    assert refused.value.code == "round_not_in_play"


def test_the_page_and_the_api_report_and_confirm(league, client):
    _club, _owner, _teams = league
    tournament, match, home, away = begun(league)
    page = f"/tournaments/{tournament.slug}/matches/1/"
    client.force_login(home.captain)
    shown = client.get(page).content.decode()
    assert f"Result of {home.name} – {away.name}" in shown and "Report the results" in shown
    done = client.post(
        f"/tournaments/{tournament.slug}/teams/do/report/",
        {"match": match.pk, **{f"result_{n}": r for n, r in enumerate(FOUR, start=1)}},
        follow=True,
    )
    assert "The results are reported; the other captain confirms them." in done.content.decode()
    client.force_login(away.captain)
    api = f"/api/v1/tournaments/{tournament.slug}"
    rows = client.get(f"{api}/matches/1/").json()
    mine = next(row for row in rows if row["id"] == match.pk)
    assert mine["report"] == {"team": home.slug, "state": "reported", "results": FOUR}
    shown = client.get(page).content.decode()
    assert "Confirm the results" in shown and "Dispute" in shown
    refused = client.post(f"{api}/reports/{match.pk}/", {"results": ["x"]}, "application/json")
    assert (refused.status_code, refused.json()["error"]) == (400, "bad_results")
    confirmed = client.post(f"{api}/reports/{match.pk}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["state"] == "confirmed"
    assert results(match) == FOUR
    other = TeamMatch.objects.filter(round__tournament=tournament, number=2).get()
    client.force_login(other.first.team.captain)
    sent = client.post(f"{api}/reports/{other.pk}/", {"results": FOUR}, "application/json")
    assert sent.status_code == 200
    client.force_login(other.second.team.captain)
    disputed = client.post(f"{api}/reports/{other.pk}/dispute/", {"reason": "board 2 drawn"})
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    assert TeamMatchReport.objects.get(match=other).reason == "board 2 drawn"
