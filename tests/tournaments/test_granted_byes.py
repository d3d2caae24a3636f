"""Byes a director grants: full, half or zero point, before pairing or on a paired round."""

import pytest

from core.errors import Conflict, NotAllowed
from tournaments import exports, selectors, services
from tournaments.models import Board, Entrant, Round

from .conftest import T0, at, everyone_once

pytestmark = pytest.mark.django_db


def finish(tournament, owner, number: int) -> Round:
    services.round_start(tournament_id=tournament.pk, number=number, actor=owner, now=at(number))
    round_ = Round.objects.get(tournament=tournament, number=number)
    for game in round_.boards.filter(white__isnull=False):
        services.board_result_set(board=game, actor=owner, result="1-0", now=at(number + 0.5))
    return round_


def test_a_full_point_bye_for_a_round_not_yet_paired(make_tournament, club_with_members):
    _, owner, players = club_with_members
    tournament = make_tournament(register=6, format="swiss", rounds=3)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    said = services.bye_grant(
        tournament=tournament, actor=owner, user=players[0], round_number=2, kind="F"
    )
    assert said == f"{players[0].username} gets a full-point bye in round 2."
    finish(tournament, owner, 1)
    round2 = services.round_pair(tournament_id=tournament.pk, number=2, now=at(2))
    mine = Board.objects.get(round=round2, black__user=players[0])
    assert (mine.white, mine.bye) == (None, Board.Bye.FULL)
    # explained as the bye it is (issue 25: it read "withdrawn or unavailable")
    assert mine.note == "Not paired in round 2: has a full-point bye."
    everyone_once(tournament, round2)
    # counted as a full point, and written as F in the TRF
    tournament.refresh_from_db()
    row = next(r for r in selectors.standings(tournament) if r["username"] == players[0].username)
    first_round = Board.objects.get(round__number=1, black__user=players[0])
    won = 1 if first_round.result == "1-0" else 0
    assert row["points_value"] == won + 1  # the bye counts once round 2 is paired
    finish(tournament, owner, 2)
    tournament.refresh_from_db()
    number = Entrant.objects.get(tournament=tournament, user=players[0]).pairing_number
    line = next(
        line for line in exports.trf(tournament).splitlines() if line.startswith(f"001 {number:4d}")
    )
    assert "0000 - F" in line


def test_a_bye_on_a_paired_round_pairs_the_opponent_with_the_allocated_bye(round1):
    tournament, owner, round_ = round1  # five players: two games and a pairing-allocated bye
    allocated = Board.objects.get(round=round_, bye=Board.Bye.PAIRING)
    game = Board.objects.filter(round=round_, white__isnull=False).first()
    leaving, opponent, waiting = game.black, game.white, allocated.black
    said = services.bye_grant(
        tournament=tournament, actor=owner, user=leaving.user, round_number=1, kind="H"
    )
    assert said.startswith(f"{leaving.user.username} gets a half-point bye in round 1;")
    game.refresh_from_db()
    assert {game.black_id, game.white_id} == {opponent.pk, waiting.pk}
    assert not Board.objects.filter(pk=allocated.pk).exists()
    assert Board.objects.get(round=round_, black=leaving).bye == Board.Bye.HALF
    everyone_once(tournament, round_)


def test_without_an_allocated_bye_the_opponent_gets_it(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=4, format="swiss", rounds=3)
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    game = round_.boards.first()
    leaving, opponent = game.black, game.white
    said = services.bye_grant(
        tournament=tournament, actor=owner, user=leaving.user, round_number=1, kind="Z"
    )
    assert f"{opponent.user.username} gets the pairing-allocated bye" in said
    game.refresh_from_db()
    assert (game.black, game.white, game.bye) == (opponent, None, Board.Bye.PAIRING)
    everyone_once(tournament, round_)


def test_refused_once_the_round_started_for_players_and_in_a_round_robin(
    round1, make_tournament, club_with_members
):
    tournament, owner, round_ = round1
    _, _, players = club_with_members
    with pytest.raises(NotAllowed):
        services.bye_grant(
            tournament=tournament, actor=players[0], user=players[1], round_number=2, kind="F"
        )
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    with pytest.raises(Conflict, match="Round 1 has started"):
        services.bye_grant(
            tournament=tournament, actor=owner, user=players[1], round_number=1, kind="F"
        )
    robin = make_tournament(register=4, format="round_robin", name="Robin")
    with pytest.raises(Conflict):
        services.bye_grant(tournament=robin, actor=owner, user=players[1], round_number=1, kind="F")


def test_the_api_and_the_page_grant_byes(api, client, round1, club_with_members):
    tournament, owner, round_ = round1
    _, _, players = club_with_members
    response = api(owner).post(
        f"/api/v1/tournaments/{tournament.slug}/grant-bye/",
        {"username": players[2].username, "round": 3, "kind": "F"},
        format="json",
    )
    assert response.status_code == 201 and response.json()["granted"] == "F"
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.slug}/players/").content.decode()
    assert 'id="grant-bye"' in page
    answer = client.post(
        f"/tournaments/{tournament.slug}/do/grant-bye/",
        {"username": players[3].username, "round": "3", "kind": "H"},
    )
    assert answer.status_code == 302
