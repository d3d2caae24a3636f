"""A rated over-the-board round-robin run by its director, for the rating tests."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from accounts.models import User
from clubs import services as club_services
from clubs.models import Club
from tournaments import services as tournament_services
from tournaments.models import Board, Round, Tournament


@dataclass
class OtbEvent:
    owner: User
    club: Club
    players: list[User]
    tournament: Tournament
    last_result_at: datetime


def rated_otb_round_robin(
    make_player, *, usernames, result_for, start: datetime, club_name: str, name: str
) -> OtbEvent:
    """Four players in a club play a rated OTB round-robin (3 rounds); the director enters each
    board's result, ``result_for(board)``, five minutes apart."""
    owner = make_player(f"{usernames[0]}_director")
    club = club_services.club_create(owner=owner, name=club_name)
    players = [make_player(username) for username in usernames]
    for player in players:
        club_services.club_join(user=player, club=club)
    tournament = tournament_services.tournament_create(
        club=club,
        actor=owner,
        name=name,
        format="round_robin",
        play_mode="otb",
        base_seconds=900,
        rated=True,
    )
    for player in players:
        tournament_services.tournament_register(tournament=tournament, user=player, now=start)
    tournament_services.tournament_start(tournament=tournament, actor=owner, now=start)
    moment = start
    for number in (1, 2, 3):
        if number > 1:
            tournament_services.round_pair(tournament_id=tournament.pk, number=number, now=moment)
        tournament_services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=moment
        )
        boards: list[Board] = list(
            Round.objects.get(tournament=tournament, number=number).boards.all()
        )
        for board in boards:
            moment += timedelta(minutes=5)
            tournament_services.board_result_set(
                board=board, actor=owner, result=result_for(board), now=moment
            )
    return OtbEvent(owner, club, players, tournament, moment)
