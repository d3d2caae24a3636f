from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from clubs import services as club_services
from tournaments import services
from tournaments.models import Board, Entrant, Round

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


def seats(round_: Round) -> Counter:
    """How many boards of the round each entrant is on."""
    boards = Board.objects.filter(round=round_)
    return Counter(e for b in boards for e in (b.black_id, b.white_id) if e is not None)


def playing(tournament, number: int) -> set[int]:
    return {
        e.pk
        for e in Entrant.objects.filter(tournament=tournament)
        if e.status == Entrant.Status.ACTIVE and e.first_round <= number
    }


def everyone_once(tournament, round_: Round) -> None:
    counts = seats(round_)
    assert set(counts) == playing(tournament, round_.number)
    assert set(counts.values()) == {1}


@pytest.fixture
def round1(make_tournament, club_with_members):
    """Round 1 of a five-player Swiss, paired: two games and a pairing-allocated bye."""
    _, owner, _ = club_with_members
    tournament = make_tournament(register=5, format="swiss", rounds=3)
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    everyone_once(tournament, round_)
    return tournament, owner, round_
