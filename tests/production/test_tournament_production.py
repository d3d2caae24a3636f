"""An 8-player, 3-round Swiss played on the server with a real Celery worker through Redis:
the rounds pair and start on their own and the final standings are right."""

import time
from collections import Counter

import pytest
from django.utils import timezone

from clubs import services as club_services
from games import engine
from games import services as game_services
from tests.support import wait_for
from tournaments import selectors, services
from tournaments.models import Board, Round, Tournament


def play_board(board, loser_is_white: bool):
    game = board.game
    for player in (game.black, game.white):
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=timezone.now()
        )
    loser = game.white if loser_is_white else game.black
    game_services.game_resign(game_id=game.pk, player=loser, now=timezone.now())


@pytest.mark.django_db(transaction=True)
def test_swiss_on_the_server_runs_itself(make_player, celery_worker_thread):
    owner = make_player("director")
    club = club_services.club_create(owner=owner, name="Server Swiss Club")
    players = [make_player(f"swiss{i}") for i in range(8)]
    for player in players:
        club_services.club_join(user=player, club=club)
    tournament = services.tournament_create(
        club=club,
        actor=owner,
        name="Autumn Swiss",
        format="swiss",
        rounds=3,
        play_mode="server",
        base_seconds=300,
        increment_seconds=0,
        round_start="auto",
        round_pause_seconds=0,
        tiebreaks=["buchholz", "sonneborn_berger"],
    )
    for player in players:
        services.tournament_register(tournament=tournament, user=player, now=timezone.now())
    services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())

    expected = Counter()
    for number in (1, 2, 3):
        assert wait_for(
            lambda n=number: Round.objects.filter(
                tournament=tournament, number=n, status="started"
            ).exists(),
            timeout=30.0,
        ), f"round {number} was not paired and started by the worker"
        boards = list(
            Board.objects.filter(round__tournament=tournament, round__number=number).select_related(
                "game", "black__user", "white__user"
            )
        )
        assert len(boards) == 4 and all(b.game_id for b in boards)
        for index, board in enumerate(boards):
            white_loses = index % 2 == 0
            play_board(board, loser_is_white=white_loses)
            winner = board.black if white_loses else board.white
            expected[winner.user.username] += 1

    assert wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == "finished", timeout=30.0
    )
    tournament.refresh_from_db()
    rows = selectors.standings(tournament)
    assert {row["username"]: row["points_value"] for row in rows} == {
        p.username: float(expected[p.username]) for p in players
    }
    points = [row["points_value"] for row in rows]
    assert points == sorted(points, reverse=True)
    pairs = [
        frozenset((b.black_id, b.white_id))
        for b in Board.objects.filter(round__tournament=tournament)
    ]
    assert len(pairs) == len(set(pairs)) == 12  # no rematch, every round fully paired
    # a duplicated delivery of the advance task pairs nothing twice
    from tournaments.tasks import advance_tournament

    advance_tournament.delay(tournament.pk, 3)
    time.sleep(0.5)
    assert Round.objects.filter(tournament=tournament).count() == 3
