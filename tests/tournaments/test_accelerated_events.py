"""An accelerated Swiss on the site (C.04.5.1): the director's choice, the virtual points in
the pairing and on the round page (never in the standings), the TRF export and import."""

import pytest
from django.urls import reverse

from core.errors import InvalidInput, Unprocessable
from tournaments import exports, selectors, services
from tournaments.models import Board, Entrant, Tournament
from tournaments.pairing import read_trf
from tournaments.services.trf_import import tournament_import_trf

from .conftest import T0
from .test_tournament_services import play_round

pytestmark = pytest.mark.django_db


def pairs(tournament, number):
    boards = Board.objects.filter(round__tournament=tournament, round__number=number)
    return {
        frozenset((b.black.pairing_number, b.white.pairing_number)) for b in boards if b.white_id
    }


def test_an_accelerated_swiss_pairs_with_virtual_points_and_ranks_without_them(
    make_tournament, club_with_members, client
):
    """Eight players, five rounds: GA = the first 4 (2 * ceil(8 / 4)); 1 virtual point in
    rounds 1-2, ½ in round 3. Round 1 pairs 1-3, 2-4, 5-7, 6-8 (two score groups), where an
    unaccelerated Swiss pairs 1-5, 2-6, 3-7, 4-8."""
    _, owner, _ = club_with_members
    tournament = make_tournament(register=8, format="swiss", rounds=5, acceleration="baku")
    assert tournament.acceleration == "baku"
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    assert pairs(tournament, 1) == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}
    page = client.get(reverse("tournament-round", args=[tournament.slug, 1])).content.decode()
    assert 'id="acceleration"' in page and "players 1 to 4" in page
    assert page.count('class="virtual-points"') == 4
    detail = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert 'id="accelerated"' in detail
    play_round(tournament, owner, 1)
    tournament.refresh_from_db()
    points = {row["number"]: row["points_value"] for row in selectors.standings(tournament)}
    assert sum(points.values()) == 4  # four games, no virtual point counted
    # the export carries the method and its virtual points; importing it keeps the choice
    text = exports.trf(tournament)
    lines = text.splitlines()
    assert "192 FIDE_DUTCH_BAKU" in lines
    assert "250       1.0 001 002    1    4" in lines and "250       0.5 003 003    1    4" in lines
    event = read_trf(text)
    assert [p.accelerations for p in event.players][:5] == [(1.0, 1.0, 0.5)] * 4 + [()]
    club = tournament.club
    imported = tournament_import_trf(club=club, actor=owner, text=text, now=T0)
    assert imported.tournament.acceleration == "baku"
    assert not any("virtual points" in note for note in imported.notes)


def test_acceleration_is_for_a_swiss_by_the_2026_rules_and_fixed_once_started(
    make_tournament, club_with_members
):
    _, owner, _ = club_with_members
    with pytest.raises(Unprocessable, match="Acceleration is for a Swiss"):
        make_tournament(register=0, format="round_robin", acceleration="baku")
    with pytest.raises(Unprocessable, match="Acceleration is for a Swiss"):
        make_tournament(register=0, pairing_rules="dutch-until-2026", acceleration="baku")
    with pytest.raises(InvalidInput):
        make_tournament(register=0, acceleration="lightning")
    tournament = make_tournament(register=4, format="swiss", rounds=3)
    services.tournament_update(tournament=tournament, actor=owner, acceleration="baku")
    with pytest.raises(Unprocessable, match="Acceleration is for a Swiss"):
        services.tournament_update(
            tournament=tournament, actor=owner, pairing_rules="dutch-until-2026"
        )
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    tournament.refresh_from_db()
    with pytest.raises(Exception):  # noqa: B017 - the service's own refusal of a fixed setting
        services.tournament_update(tournament=tournament, actor=owner, acceleration="")
    assert Tournament.objects.get(pk=tournament.pk).acceleration == "baku"


def test_late_entries_join_group_b(make_tournament, club_with_members):
    """C.04.5.1: with late entries the last GA player stays the same: the groups are those of
    the players numbered for round 1."""
    _, owner, players = club_with_members
    tournament = make_tournament(register=6, format="swiss", rounds=5, acceleration="baku")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    entrants = list(Entrant.objects.filter(tournament=tournament))
    blocks = selectors.history.acceleration_blocks(tournament, entrants)
    assert {block.last_player for block in blocks} == {4}
