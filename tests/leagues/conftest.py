"""A league over a season to test: Flanders's league, its two divisions and their teams; a
division's season played to its end."""

from __future__ import annotations

from datetime import date, time

import pytest

from clubs import services as club_services
from leagues import services
from leagues.models import Division
from teams import services as team_services
from tournaments import services as tournament_services
from tournaments.models import Board, Tournament
from tournaments.services import team_events
from tournaments.services.results import board_result_set

from ..tournaments.conftest import T0
from ..tournaments.team_league import league_club

FIRST_DAY = date(2026, 12, 1)


@pytest.fixture
def season(make_player):
    """Flanders's league: Division 1 (Teams A-D, the last relegated) and Division 2 (Teams E,
    F and Ghent's team, the first promoted)."""
    club, owner, teams = league_club(make_player)
    ghent_owner = make_player("gent", display_name="Gent Owner")
    ghent = club_services.club_create(owner=ghent_owner, name="Ghent")
    ghent.location = "Korenmarkt 1, Ghent"
    ghent.save(update_fields=["location"])
    ghent_team = team_services.team_create(
        club=ghent, actor=ghent_owner, name="Ghent 1", captain=ghent_owner
    )
    for index in range(4):
        player = make_player(f"g{index}")
        club_services.club_join(user=player, club=ghent)
        team_services.team_member_add(team=ghent_team, actor=ghent_owner, user=player)
    league = services.league_create(
        club=club, actor=owner, name="Flanders League", season="2026-27"
    )
    first = services.division_create(
        league=league,
        actor=owner,
        name="Division 1",
        first_day=FIRST_DAY,
        relegate=1,
        time_zone="Europe/Brussels",
    )
    second = services.division_create(
        league=league,
        actor=owner,
        name="Division 2",
        level=2,
        first_day=FIRST_DAY,
        promote=1,
        double=True,
        days_between=7,
        match_time=time(19, 30),
        time_zone="Europe/Brussels",
    )
    for team in teams[:4]:
        team_events.team_enter(tournament=first.tournament, team=team, actor=team.captain, now=T0)
    for team in [*teams[4:], ghent_team]:
        team_events.team_enter(tournament=second.tournament, team=team, actor=team.captain, now=T0)
    return league, owner, teams, ghent_team, first, second


def play_season(division: Division, owner) -> None:
    """Every round of ``division``: the better-numbered team (higher rated) wins every board."""
    services.division_start(division=division, actor=owner, now=T0)
    tournament = division.tournament
    tournament.refresh_from_db()
    for number in range(1, tournament.rounds + 1):
        tournament_services.round_pair(tournament_id=tournament.pk, number=number, now=T0)
        tournament_services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=T0
        )
        for board in Board.objects.filter(
            round__tournament=tournament, round__number=number
        ).select_related("team_match__first", "team_match__second"):
            match = board.team_match
            first_wins = match.first.number < match.second.number
            black_is_first = board.slot % 2 == 1
            board_result_set(
                board=board,
                actor=owner,
                result="1-0" if first_wins == black_is_first else "0-1",
                now=T0,
            )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
