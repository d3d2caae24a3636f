"""A director's board edits cannot lose a player: swaps, byes, refusals naming the player."""

import pytest

from core.errors import Conflict, Unprocessable
from tournaments import services
from tournaments.models import Board, Round

from .conftest import T0, at, everyone_once, seats

pytestmark = pytest.mark.django_db


def board(round_: Round, number: int) -> Board:
    return Board.objects.select_related("black__user", "white__user").get(
        round=round_, number=number
    )


def test_a_player_from_another_board_swaps_places(round1):
    tournament, owner, round_ = round1
    one, two = board(round_, 1), board(round_, 2)
    incoming, leaving = two.white, one.white
    done = services.board_pairing_edit(board=one, actor=owner, black=one.black, white=incoming)
    assert (board(round_, 1).black, board(round_, 1).white) == (one.black, incoming)
    assert board(round_, 2).white == leaving
    assert done.moves == [
        f"{leaving.user.username} moves to board 2 in {incoming.user.username}'s place."
    ]
    everyone_once(tournament, round_)


def test_clearing_white_is_refused_naming_the_player_and_changes_nothing(round1):
    """The issue's case: the player cleared off a board was on no board, with a zero."""
    tournament, owner, round_ = round1
    one = board(round_, 1)
    before = list(Board.objects.filter(round=round_).values_list("black", "white", "bye"))
    with pytest.raises(Unprocessable) as refused:
        services.board_pairing_edit(board=one, actor=owner, black=one.black, white=None)
    assert refused.value.code == "player_left_out"
    assert refused.value.detail.startswith(f"{one.white.user.username} would be on no board")
    after = list(Board.objects.filter(round=round_).values_list("black", "white", "bye"))
    assert after == before


def test_the_player_with_the_bye_can_be_brought_in_and_the_one_replaced_gets_it(round1):
    tournament, owner, round_ = round1
    bye = Board.objects.get(round=round_, white__isnull=True)
    one = board(round_, 1)
    leaving, newcomer = one.white, bye.black
    done = services.board_pairing_edit(board=one, actor=owner, black=one.black, white=newcomer)
    bye.refresh_from_db()
    assert (bye.black, bye.white, bye.bye) == (leaving, None, Board.Bye.PAIRING)
    assert done.moves == [
        f"{leaving.user.username} moves to board {bye.number} in {newcomer.user.username}'s place."
    ]
    everyone_once(tournament, round_)


def test_a_board_left_with_one_player_becomes_their_bye(round1):
    tournament, owner, round_ = round1
    bye = Board.objects.get(round=round_, white__isnull=True)
    two = board(round_, 2)
    taken, left = two.white, two.black
    done = services.board_pairing_edit(board=bye, actor=owner, black=bye.black, white=taken)
    two.refresh_from_db()
    assert (two.black, two.white, two.bye) == (left, None, Board.Bye.PAIRING)
    assert done.moves == [
        f"{left.user.username} is left without an opponent: board 2 is now their "
        "pairing-allocated bye."
    ]
    everyone_once(tournament, round_)


def test_pairing_a_player_who_asked_for_a_bye_removes_the_bye_board(
    make_tournament, club_with_members
):
    _, owner, players = club_with_members
    tournament = make_tournament(register=6, format="swiss", rounds=3)
    services.bye_request(tournament=tournament, user=players[5], round_number=1, kind="H")
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    asked = Board.objects.get(round=round_, bye=Board.Bye.HALF)
    allocated = board(round_, Board.objects.get(round=round_, bye=Board.Bye.PAIRING).number)
    done = services.board_pairing_edit(
        board=allocated, actor=owner, black=allocated.black, white=asked.black
    )
    assert not Board.objects.filter(pk=asked.pk).exists()
    assert done.moves == [f"Board {asked.number} is empty now and was removed."]
    everyone_once(tournament, round_)


def finish(tournament, owner, round_: Round) -> None:
    services.round_start(tournament_id=tournament.pk, number=round_.number, actor=owner, now=at(1))
    for game in Board.objects.filter(round=round_, white__isnull=False, result=""):
        services.board_result_set(board=game, actor=owner, result="1-0", now=at(2))


def test_a_withdrawn_player_cannot_be_paired(round1, club_with_members):
    tournament, owner, round_ = round1
    gone = board(round_, 1).white
    services.tournament_withdraw(tournament=tournament, user=gone.user, actor=owner)
    # paired in round 1, not started: gone from it, their opponent wins by forfeit
    assert board(round_, 1).result == "+-"
    finish(tournament, owner, round_)
    round2 = services.round_pair(tournament_id=tournament.pk, number=2, now=at(3))
    assert gone.pk not in seats(round2)
    one = board(round2, 1)
    with pytest.raises(Unprocessable) as refused:
        services.board_pairing_edit(board=one, actor=owner, black=one.black, white=gone)
    assert refused.value.code == "not_playing"
    assert refused.value.detail == (
        f"{gone.user.username} withdrew before round 2: they cannot be paired in it."
    )


def test_a_late_entry_cannot_be_paired_before_their_first_round(round1, club_with_members):
    tournament, owner, round_ = round1
    _, _, players = club_with_members
    late = services.entrant_add(tournament=tournament, actor=owner, user=players[6])
    assert late.first_round == 2
    one = board(round_, 1)
    with pytest.raises(Unprocessable, match=f"{players[6].username} enters in round 2"):
        services.board_pairing_edit(board=one, actor=owner, black=one.black, white=late)


def test_the_api_answers_the_moves_and_refuses_with_422(api, round1):
    tournament, owner, round_ = round1
    one, two = board(round_, 1), board(round_, 2)
    client = api(owner)
    url = f"/api/v1/tournaments/{tournament.slug}/edit-board/"
    refused = client.post(url, {"board": one.pk, "black": one.black.user.username}, format="json")
    assert refused.status_code == 422 and refused.json()["error"] == "player_left_out"
    swapped = client.post(
        url,
        {
            "board": one.pk,
            "black": one.black.user.username,
            "white": two.black.user.username,
        },
        format="json",
    )
    assert swapped.status_code == 200
    body = swapped.json()
    assert body["board"]["white"] == two.black.user.username
    assert body["moves"] == [
        f"{one.white.user.username} moves to board 2 in {two.black.user.username}'s place."
    ]
    everyone_once(tournament, round_)


def test_edits_are_refused_once_the_round_started(round1):
    tournament, owner, round_ = round1
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    one = board(round_, 1)
    with pytest.raises(Conflict):
        services.board_pairing_edit(board=one, actor=owner, black=one.white, white=one.black)
