"""Tournaments played on the server: rounds create games; finished games fill the boards."""

from datetime import timedelta

import pytest

from games import engine
from games import services as game_services
from games.models import Game
from tournaments import services
from tournaments.models import Board, Round

from .conftest import T0, at

pytestmark = pytest.mark.django_db


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


def test_director_cannot_enter_a_result_while_the_game_runs(make_tournament, club_with_members):
    from abalone_site.errors import Conflict

    _, owner, _ = club_with_members
    tournament = make_tournament(register=2, format="swiss", rounds=1, play_mode="server")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    board = Board.objects.get()
    with pytest.raises(Conflict) as error:
        services.board_result_set(board=board, actor=owner, result="1-0", now=at(1))
    assert error.value.code == "game_in_progress"
