"""The computer on a real clock: level 8 plays a whole 1+0 game through the worker's task and
the move service, against a quick scripted opponent, and does not lose on time. No assertion
on how long anything took: the clock itself is the judge (a move after the deadline is refused
and the game adjudicated)."""

import logging
import random

import pytest
from django.utils import timezone

from games import computer, computer_players, engine, tasks
from games.engine.levels import greedy_move
from games.models import Termination
from games.services import game_move_apply


@pytest.fixture
def queued(monkeypatch):
    calls = []
    for module in (computer, computer_players):
        monkeypatch.setattr(module, "enqueue", lambda name, *args: calls.append((name, args)))
    return calls


@pytest.mark.django_db(transaction=True)
def test_level_8_plays_a_whole_one_minute_game_without_losing_on_time(make_player, queued, caplog):
    caplog.set_level(logging.INFO, logger="games.computer")
    ann = make_player("ann")
    game = computer.computer_game_create(
        player=ann,
        level=8,
        colour="white",  # the computer is Black: it moves first, on its first-move timer
        choices={"base_seconds": 60, "increment_seconds": 0, "start": "belgian"},
        now=timezone.now(),
    )
    rng = random.Random(8)
    while True:
        game.refresh_from_db()
        if not game.is_active:
            break
        if game.side_to_move == engine.BLACK:
            # the task as a worker runs it, queued by the last published state
            assert queued and queued[-1] == (computer.MOVE_TASK, (game.pk, game.ply))
            tasks.computer_move(game.pk, game.ply)
        else:
            position = engine.Position.from_string(game.position)
            move = greedy_move(position, rng, noise=30)  # at once: it uses no time to speak of
            game_move_apply(
                game_id=game.pk,
                player=ann,
                move=move.notation,
                expected_ply=game.ply,
                now=timezone.now(),
            )
    assert game.termination != Termination.TIME, game.termination
    assert game.termination in (
        Termination.MARBLES,
        Termination.REPETITION,
        Termination.MOVE_CAP,
    )
    moves = [r.getMessage() for r in caplog.records if "beyond the budget" in r.getMessage()]
    assert len(moves) == (game.ply + 1) // 2
    for line in moves[-3:]:
        print(line)  # with -s: the timings of the last moves
