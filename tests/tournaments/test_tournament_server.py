"""Tournaments played on the server: rounds create games; finished games fill the boards."""

from datetime import timedelta

import pytest

from core.errors import Conflict
from games import engine
from games import services as game_services
from games.models import Game
from tournaments import selectors, services
from tournaments.models import Board, Round, Tournament

from .conftest import T0, at

pytestmark = pytest.mark.django_db


def second(seconds: float):
    return T0 + timedelta(seconds=seconds)


def first_moves_and_resign(board, seconds):
    """Both sides make their first move ``seconds`` after T0, then White resigns."""
    moment = T0 + timedelta(seconds=seconds)
    game = board.game
    for player in (game.black, game.white):
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=moment
        )
    game_services.game_resign(game_id=game.pk, player=game.white, now=moment)


def test_server_round_creates_games_and_results_flow_back(
    make_tournament, club_with_members, django_capture_on_commit_callbacks
):
    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=4,
        format="swiss",
        rounds=2,
        play_mode="server",
        base_seconds=300,
        increment_seconds=0,
        marbles_to_win=4,
        round_start="auto",
        round_pause_seconds=0,
    )
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    round1.refresh_from_db()
    assert round1.status == "started"
    boards = list(round1.boards.select_related("game"))
    assert all(b.game and b.game.marbles_to_win == 4 for b in boards)
    assert {(b.black.user_id, b.white.user_id) for b in boards} == {
        (b.game.black_id, b.game.white_id) for b in boards
    }
    with django_capture_on_commit_callbacks() as callbacks:
        for board in boards:
            first_moves_and_resign(board, 1)
    round1.refresh_from_db()
    assert round1.status == "finished"
    assert set(Board.objects.filter(round=round1).values_list("result", flat=True)) == {"1-0"}
    assert callbacks  # the next round was handed to the background runner
    # what the task does: pair and start round 2, once however often it runs
    services.tournament_advance(tournament_id=tournament.pk, number=2, now=at(5))
    services.tournament_advance(tournament_id=tournament.pk, number=2, now=at(5))
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Round.objects.get(tournament=tournament, number=2).status == "started"
    assert Game.objects.count() == 4


def test_missing_the_first_move_in_a_tournament_is_a_forfeit(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=2, format="swiss", rounds=1, play_mode="server", base_seconds=300
    )
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    board = Board.objects.get(round=round1)
    assert game_services.games_sweep_flags(now=at(10)) == 1
    board.refresh_from_db()
    assert (board.result, board.termination) == ("-+", "forfeit")
    board.game.refresh_from_db()
    assert board.game.termination == "forfeit"
    round1.refresh_from_db()
    assert round1.status == "finished"


def test_a_tournament_game_cannot_be_aborted_and_the_innocent_opponent_keeps_the_point(
    make_tournament, club_with_members
):
    """Issue 25: one player's abort scored both players 0 (``-- (0-0)``). A tournament game
    has no abort: the player who does not move loses by forfeit, the opponent wins."""
    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=2, format="swiss", rounds=1, play_mode="server", base_seconds=300
    )
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    board = Board.objects.select_related("game").get(round=round1)
    game = board.game
    with pytest.raises(Conflict) as refused:
        game_services.game_abort(game_id=game.pk, player=game.black, now=at(0.1))
    assert refused.value.code == "no_abort_in_tournaments" and refused.value.status == 409
    game.refresh_from_db()
    assert game.status == "started"
    # Black never moves: Black loses by forfeit, White scores the point
    assert game_services.games_sweep_flags(now=at(10)) == 1
    board.refresh_from_db()
    assert (board.result, board.termination) == ("-+", "forfeit")
    top = selectors.standings(Tournament.objects.get(pk=tournament.pk))[0]
    assert (top["username"], top["points_value"]) == (game.white.username, 1)


def test_director_cannot_enter_a_result_while_the_game_runs(make_tournament, club_with_members):
    from core.errors import Conflict

    _, owner, _ = club_with_members
    tournament = make_tournament(register=2, format="swiss", rounds=1, play_mode="server")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    board = Board.objects.get()
    with pytest.raises(Conflict) as error:
        services.board_result_set(board=board, actor=owner, result="1-0", now=at(1))
    assert error.value.code == "game_in_progress"


def test_an_automatic_tournament_moves_on_after_its_pause_from_the_database(
    make_tournament, club_with_members, django_capture_on_commit_callbacks
):
    """No countdown message holds the next round: the database says when it is due, and the
    periodic job asks for it then (and again if the job never answers)."""
    from tournaments.services.rounds import pairing_job_patience
    from tournaments.tasks import advance_tournament

    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=4,
        format="swiss",
        rounds=2,
        play_mode="server",
        base_seconds=300,
        round_start="auto",
        round_pause_seconds=30,
    )
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    for board in Board.objects.filter(round__number=1):
        first_moves_and_resign(board, 1)
    tournament.refresh_from_db()
    assert tournament.next_round_at == second(1 + 30)
    with django_capture_on_commit_callbacks() as early:
        assert services.tournaments_move_on(now=second(20)) == 0
    assert early == []
    with django_capture_on_commit_callbacks() as due:
        assert services.tournaments_move_on(now=second(32)) == 1
    tournament.refresh_from_db()
    assert (tournament.pairing_requested_round, tournament.next_round_at) == (2, None)
    assert len(due) == 1  # the job is sent after the commit
    # the message is lost: nothing more until the job's patience runs out, then asked again
    assert services.tournaments_move_on(now=second(40)) == 0
    later = second(32) + pairing_job_patience() + timedelta(seconds=1)
    with django_capture_on_commit_callbacks() as again:
        assert services.tournaments_move_on(now=later) == 1
    assert len(again) == 1
    advance_tournament.apply(args=(tournament.pk, 2), throw=True)  # what the worker does
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round is None
    assert Round.objects.get(tournament=tournament, number=2).status == "started"
    assert services.tournaments_move_on(now=later + pairing_job_patience() * 2) == 0


@pytest.mark.django_db(transaction=True)
def test_a_pairing_job_at_work_is_not_asked_for_again(
    make_tournament, club_with_members, django_capture_on_commit_callbacks
):
    """While a job holds the tournament's row (pairing a large field), the periodic job skips
    it instead of queueing another behind it."""
    import threading

    from django.db import connection, transaction

    from tournaments.models import Tournament
    from tournaments.services.rounds import pairing_job_patience

    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no row locks")
    _, owner, _ = club_with_members
    tournament = make_tournament(register=4, format="swiss", rounds=2, round_start="scheduled")
    Tournament.objects.filter(pk=tournament.pk).update(
        status="running", pairing_requested_round=1, pairing_requested_at=T0
    )
    holding, release = threading.Event(), threading.Event()

    def pairing_job():
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=tournament.pk)
            holding.set()
            release.wait(10)
        connection.close()

    job = threading.Thread(target=pairing_job)
    job.start()
    try:
        assert holding.wait(10)
        assert services.tournaments_move_on(now=T0 + pairing_job_patience() * 2) == 0
    finally:
        release.set()
        job.join(10)
    with django_capture_on_commit_callbacks():
        assert services.tournaments_move_on(now=T0 + pairing_job_patience() * 2) == 1
