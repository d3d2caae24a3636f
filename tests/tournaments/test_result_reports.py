"""Players report their over-the-board results (issue 25, item 4): the opponent confirms (the
result is entered) or disputes (the arbiter decides); every step in the audit trail; the round
page shows the director the round's state at a glance and prints a QR code per board."""

import pytest
from django.urls import reverse

from core.errors import Conflict, InvalidInput, NotAllowed, Unprocessable
from tournaments import services
from tournaments.models import AuditEntry, Board, ResultChange, ResultReport, Round

from .conftest import T0, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(make_tournament, club_with_members):
    """Round 1 of a four-player over-the-board Swiss, started: two boards."""
    club, owner, players = club_with_members
    tournament = make_tournament(register=4, rounds=3)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    boards = list(Board.objects.filter(round__tournament=tournament).order_by("number"))
    return tournament, owner, boards


def _players(board):
    return board.black.user, board.white.user


def test_a_report_confirmed_by_the_opponent_is_entered_once_with_both_names(started):
    tournament, owner, boards = started
    board = boards[0]
    black, white = _players(board)
    report = services.result_report(
        board=board, actor=black, result="1-0", black_marbles=6, white_marbles=2, now=at(30)
    )
    assert report.state == "reported"
    board.refresh_from_db()
    assert board.result == ""  # nothing entered until the opponent says so
    services.result_confirm(board=board, actor=white, now=at(31))
    board.refresh_from_db()
    assert (board.result, board.black_marbles, board.white_marbles) == ("1-0", 6, 2)
    change = ResultChange.objects.get(board=board)
    assert change.changed_by == white
    assert change.reason == f"reported by {black.username}, confirmed by {white.username}"
    assert ResultReport.objects.get(board=board).state == "confirmed"
    whats = list(AuditEntry.objects.order_by("at").values_list("what", flat=True))
    assert whats == ["result_reported", "result_confirmed"]
    with pytest.raises(Conflict) as again:
        services.result_confirm(board=board, actor=white, now=at(32))
    assert again.value.code == "result_entered"


def test_both_players_reporting_the_same_result_is_a_confirmation(started):
    tournament, owner, boards = started
    black, white = _players(boards[1])
    services.result_report(board=boards[1], actor=white, result="1/2-1/2", now=at(30))
    services.result_report(board=boards[1], actor=black, result="1/2-1/2", now=at(31))
    boards[1].refresh_from_db()
    assert boards[1].result == "1/2-1/2"


def test_two_different_reports_are_a_dispute_the_arbiter_decides(started):
    tournament, owner, boards = started
    board = boards[0]
    black, white = _players(board)
    services.result_report(board=board, actor=black, result="1-0", now=at(30))
    report = services.result_report(board=board, actor=white, result="0-1", now=at(31))
    assert report.state == "disputed"
    assert f"{white.username} reported 0-1 / {black.username} reported 1-0" == report.dispute_reason
    board.refresh_from_db()
    assert board.result == ""
    with pytest.raises(Conflict) as refused:
        services.result_report(board=board, actor=black, result="1-0", now=at(32))
    assert refused.value.code == "report_disputed"
    services.board_result_set(board=board, actor=owner, result="0-1", now=at(40))
    report.refresh_from_db()
    assert (report.state, report.answered_by) == ("decided", owner)


def test_the_opponent_disputes_with_a_reason_and_the_reporter_may_correct_before(started):
    tournament, owner, boards = started
    board = boards[0]
    black, white = _players(board)
    services.result_report(board=board, actor=white, result="1-0", now=at(30))
    corrected = services.result_report(board=board, actor=white, result="0-1", now=at(31))
    assert (corrected.result, corrected.state) == ("0-1", "reported")
    with pytest.raises(Conflict) as own:
        services.result_confirm(board=board, actor=white, now=at(32))
    assert own.value.code == "own_report"
    disputed = services.result_dispute(
        board=board, actor=black, reason="I resigned? No.", now=at(33)
    )
    assert (disputed.state, disputed.dispute_reason) == ("disputed", "I resigned? No.")
    entry = AuditEntry.objects.filter(what="result_disputed").get()
    assert f"{black.username} disputed 0-1 (I resigned? No.)" in entry.detail


@pytest.mark.parametrize(
    ("result", "marbles", "error"),
    [
        ("+-", (None, None), Unprocessable),  # forfeits are the arbiter's
        ("1-0", (2, 6), Unprocessable),  # the loser pushed off six
        ("2-0", (None, None), InvalidInput),
    ],
)
def test_impossible_reports_are_refused_and_change_nothing(started, result, marbles, error):
    tournament, owner, boards = started
    black, _ = _players(boards[0])
    with pytest.raises(error):
        services.result_report(
            board=boards[0],
            actor=black,
            result=result,
            black_marbles=marbles[0],
            white_marbles=marbles[1],
            now=at(30),
        )
    assert not ResultReport.objects.exists() and not AuditEntry.objects.exists()


def test_only_the_board_s_players_report_and_only_in_a_started_round(
    started, club_with_members, make_tournament
):
    tournament, owner, boards = started
    other_black, _ = _players(boards[1])
    with pytest.raises(NotAllowed):
        services.result_report(board=boards[0], actor=other_black, result="1-0", now=at(30))
    with pytest.raises(NotAllowed):
        services.result_report(board=boards[0], actor=owner, result="1-0", now=at(30))
    club, owner, players = club_with_members
    waiting = make_tournament(register=4, name="Paired Only")
    services.tournament_start(tournament=waiting, actor=owner, now=T0)
    board = Board.objects.filter(round__tournament=waiting).first()
    with pytest.raises(Conflict) as refused:
        services.result_report(board=board, actor=board.black.user, result="1-0", now=at(3))
    assert refused.value.code == "round_not_started"


def test_a_server_event_s_games_record_their_own_results(make_tournament, club_with_members):
    club, owner, players = club_with_members
    tournament = make_tournament(register=2, play_mode="server", name="Server Cup")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    board = Board.objects.get(round__tournament=tournament)
    with pytest.raises(Conflict) as refused:
        services.result_report(board=board, actor=board.black.user, result="1-0", now=at(2))
    assert refused.value.code == "server_game"


def test_players_report_and_confirm_on_the_round_page_and_the_director_sees_the_state(
    started, client
):
    tournament, owner, boards = started
    board = boards[0]
    black, white = _players(board)
    url = reverse("tournament-round", args=[tournament.slug, 1])
    client.force_login(black)
    page = client.get(url).content.decode()
    assert 'id="my-board"' in page and "Report the result" in page
    act = reverse("tournament-action", args=[tournament.slug, "report-result"])
    done = client.post(
        act,
        {"board": board.pk, "result": "1-0", "black_marbles": "6", "white_marbles": "3"},
        follow=True,
    ).content.decode()
    assert "Board 1: 1-0 reported; your opponent confirms it." in done
    assert "waiting for" in done
    client.force_login(owner)
    director = client.get(url).content.decode()
    assert "2 games: 0 results in, 1 reported and waiting for the opponent, 0 disputed, 1 not " in (
        director
    )
    assert f"{black.username} reported 1-0; waiting for the opponent" in director
    assert director.count('class="segno"') == 2  # a QR code per board on the printed sheet
    client.force_login(white)
    answer = client.get(url).content.decode()
    assert "Confirm" in answer and "Dispute" in answer
    confirmed = client.post(
        reverse("tournament-action", args=[tournament.slug, "confirm-result"]),
        {"board": board.pk},
        follow=True,
    ).content.decode()
    assert "Board 1: 1-0 confirmed and entered." in confirmed
    board.refresh_from_db()
    assert board.result == "1-0"


def test_the_board_page_a_qr_code_leads_to(started, client):
    tournament, owner, boards = started
    board = boards[1]
    url = reverse("tournament-board", args=[tournament.slug, 1, board.number])
    anonymous = client.get(url).content.decode()
    assert "Log in</a> to report its result" in anonymous
    client.force_login(board.white.user)
    assert 'id="my-board"' in client.get(url).content.decode()
    assert client.get(reverse("tournament-board", args=[tournament.slug, 1, 9])).status_code == 404


def test_the_api_reports_confirms_and_disputes(started, api):
    tournament, owner, boards = started
    black, white = _players(boards[0])
    base = f"/api/v1/tournaments/{tournament.slug}"
    reported = api(black).post(
        f"{base}/report-result/", {"board": boards[0].pk, "result": "0-1"}, format="json"
    )
    assert reported.status_code == 201 and reported.json()["state"] == "reported"
    disputed = api(white).post(
        f"{base}/dispute-result/", {"board": boards[0].pk, "reason": "no"}, format="json"
    )
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    stranger = api(owner).post(f"{base}/confirm-result/", {"board": boards[0].pk}, format="json")
    assert stranger.status_code == 403
    bad = api(black).post(
        f"{base}/report-result/", {"board": boards[1].pk, "result": "+-"}, format="json"
    )
    assert bad.status_code == 400
    assert Round.objects.get(tournament=tournament).status == "started"
