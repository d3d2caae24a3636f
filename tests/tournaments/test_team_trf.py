"""A team event's TRF-2026 export and its import (PostgreSQL): a team Swiss played two rounds
with a reserve fielded, a board left empty, a forfeit over the board, a team that sent nobody
and a bye, exported and imported again into its club: the same event (the same file, teams,
matches, line-ups, results and standings), and it pairs its next round as the original would;
another program's file makes the club's teams and guests; a bad file changes nothing."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs import services as club_services
from core.errors import NotAllowed, Unprocessable
from teams.models import Team, TeamMember
from tournaments import services
from tournaments.exports import export
from tournaments.models import Board, Round, TeamEntry, TeamLineup, TeamMatch, Tournament
from tournaments.pairing.team_trf_event import write_team_event
from tournaments.pairing.team_trf_read import read_team_event
from tournaments.services import team_events
from tournaments.services.team_trf_import import team_event_import_trf
from tournaments.team_exports import team_trf
from tournaments.team_selectors import board_results, round_matches, team_standings

from .conftest import T0, at
from .generated_team_files import generated_team_event
from .team_league import league_club
from .test_team_events import event, score_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_player):
    return league_club(make_player)


def _results(board: Board) -> str:
    """Black wins on odd board numbers, White on even ones, a forfeit on every fifth."""
    if board.number % 5 == 0:
        return "-+"
    return "1-0" if board.number % 2 else "0-1"


def played(league) -> Tournament:
    """Five teams, two rounds of a four-round team Swiss played."""
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:5], rounds=4)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    for number in (1, 2):
        matches = list(
            TeamMatch.objects.filter(round__tournament=tournament, round__number=number)
            .exclude(second=None)
            .select_related("first__team", "second__team")
            .order_by("number")
        )
        first = matches[0]
        if number == 1:
            # the first match's first team rests its board 2 and leaves its board 4 empty
            team = first.first.team
            roster = [m.user for m in team.members.order_by("reserve", "board")]
            team_events.lineup_submit(
                match=first,
                team=team,
                players=[roster[0], roster[2], roster[3], None],
                actor=owner,
                now=at(number),
            )
        else:
            # the last match's second team sends nobody
            team = matches[-1].second.team
            team_events.lineup_submit(
                match=matches[-1], team=team, players=[None] * 4, actor=owner, now=at(number)
            )
        services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=at(number)
        )
        score_round(tournament, owner, number, _results)
        if number == 1:
            services.round_pair_by(tournament=tournament, actor=owner, now=at(number))
    return Tournament.objects.get(pk=tournament.pk)


def _matches(tournament: Tournament) -> list:
    return [
        (
            row.match.first.name,
            row.match.second.name if row.match.second else None,
            [(b.first_player, b.second_player, b.result) for b in row.boards],
            (row.first_points, row.second_points, row.match_points),
        )
        for number in range(1, tournament.current_round + 1)
        for row in round_matches(tournament, number)
    ]


def _standings(tournament: Tournament) -> list:
    return [
        (row.rank, row.name, row.match_points, row.game_points, row.values)
        for row in team_standings(tournament)
    ]


def test_a_team_event_exported_and_imported_is_the_same_event(league):
    club, owner, teams = league
    original = played(league)
    text, media_type, name = export(original, "trf")
    assert media_type.startswith("text/plain") and name == f"{original.slug}.trf"
    assert text == team_trf(original)
    lines = text.splitlines()
    # the board left empty, the team that sent nobody (330), the bye (320), the line-ups (300)
    assert any("0000 - +" in line for line in lines if line.startswith("001"))
    assert [line[:6] for line in lines if line.startswith("330")] == ["330 +-"]
    assert len([line for line in lines if line.startswith("320")]) == 1
    assert len([line for line in lines if line.startswith("300")]) == 2 * 2 * 2 - 1
    # the reserve fielded is on the team's line
    read = read_team_event(text)
    assert len(read.teams) == 5 and read.rounds_played == 2 and read.boards == 4

    imported = team_event_import_trf(club=club, actor=owner, text=text, now=at(3)).tournament
    assert (imported.format, imported.rounds, imported.team_boards) == ("team_swiss", 4, 4)
    assert (imported.status, imported.current_round) == ("running", 2)
    assert team_trf(imported) == text
    # the club's own teams, their rosters untouched
    assert {entry.team_id for entry in TeamEntry.objects.filter(tournament=imported)} == {
        team.pk for team in teams[:5]
    }
    assert Team.objects.filter(club=club).count() == 6
    assert _matches(imported) == _matches(original)
    assert _standings(imported) == _standings(original)
    assert [astuple(row) for row in board_results(imported)] == [
        astuple(row) for row in board_results(original)
    ]
    # the next round is paired from the imported history as from the original's
    services.round_pair_by(tournament=original, actor=owner, now=at(3))
    services.round_pair_by(tournament=imported, actor=owner, now=at(3))

    def third(tournament):
        return sorted(
            (m.first.number, m.second.number if m.second else None)
            for m in TeamMatch.objects.filter(round__tournament=tournament, round__number=3)
        )

    assert third(imported) == third(original)


def test_another_program_s_file_makes_the_club_s_teams_and_guests(make_player):
    owner = make_player("director")
    club = club_services.club_create(owner=owner, name="Ghent")
    source = generated_team_event(3)
    done = team_event_import_trf(club=club, actor=owner, text=write_team_event(source), now=T0)
    imported = done.tournament
    assert len(done.guests) == len(source.players) and not done.matched
    # a team per team of the file, its players on its roster in the file's order
    for trf_team in source.teams:
        team = Team.objects.get(club=club, name=trf_team.name)
        names = [
            m.user.display_name for m in TeamMember.objects.filter(team=team).order_by("board")
        ]
        assert names == [source.players[n - 1].name for n in trf_team.players]
    # the standings are the file's (its 310 records; FIDE's checker reads the same ones)
    given = {
        int(line[4:7]): (float(line[54:60]), float(line[61:67]))
        for line in write_team_event(source).splitlines()
        if line.startswith("310")
    }
    assert {
        row.number: (row.match_points, row.game_points) for row in team_standings(imported)
    } == given
    assert read_team_event(team_trf(imported)).matches == source.matches
    # imported again: the club's teams are taken, nothing made twice
    again = team_event_import_trf(club=club, actor=owner, text=write_team_event(source), now=T0)
    assert Team.objects.filter(club=club).count() == len(source.teams)
    assert again.notes == [
        "The club's teams of these names were entered (their rosters kept): "
        + ", ".join(team.name for team in source.teams)
        + "."
    ]


def test_a_bad_team_file_is_refused_and_changes_nothing(league, make_player):
    club, owner, _teams = league
    text = write_team_event(generated_team_event(4))
    member = make_player("member")
    with pytest.raises(NotAllowed):
        team_event_import_trf(club=club, actor=member, text=text, now=T0)
    broken = text.replace("352 ", "352 B", 1)
    with pytest.raises(Unprocessable) as refused:
        team_event_import_trf(club=club, actor=owner, text=broken, now=T0)
    assert refused.value.code == "bad_trf" and "352" in refused.value.detail
    half = text.replace("362 TW 2.0", "362 TW 1.5").replace("362 TW 3.0", "362 TW 1.5")
    with pytest.raises(Unprocessable) as refused:
        team_event_import_trf(club=club, actor=owner, text=half, now=T0)
    assert "whole points" in refused.value.detail
    assert not Tournament.objects.exists() and Team.objects.filter(club=club).count() == 6
    assert not TeamLineup.objects.exists() and not Round.objects.exists()


def test_the_import_page_takes_a_team_file(league, client):
    club, owner, _teams = league
    original = played(league)
    text = team_trf(original)
    client.force_login(owner)
    url = reverse("tournament-import", args=[club.slug])
    upload = SimpleUploadedFile("league.trf", text.encode(), content_type="text/plain")
    done = client.post(url, {"file": upload}, follow=True)
    imported = Tournament.objects.exclude(pk=original.pk).get()
    assert done.redirect_chain[-1][0] == imported.get_absolute_url()
    assert "Flanders League imported" in done.content.decode()
    page = client.get(reverse("tournament-team-standings", args=[imported.slug]))
    assert page.status_code == 200 and "Team A" in page.content.decode()
