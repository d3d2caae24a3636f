from datetime import UTC, datetime, timedelta

import pytest

from clubs import services as club_services
from tournaments import services

T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
def club_with_members(make_player):
    """A club with an owner (a director) and eight members."""
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Swiss Club")
    players = [make_player(f"p{i}") for i in range(1, 9)]
    for player in players:
        club_services.club_join(user=player, club=club)
    return club, owner, players


@pytest.fixture
def make_tournament(club_with_members):
    club, owner, players = club_with_members

    def make(register=8, **settings):
        settings.setdefault("play_mode", "otb")
        tournament = services.tournament_create(
            club=club, actor=owner, name=settings.pop("name", "Club Open"), **settings
        )
        for player in players[:register]:
            services.tournament_register(tournament=tournament, user=player, now=T0)
        return tournament

    return make
