"""The computer's move comes back within 10 s of a fault ending (issue 24): its worker killed
while it thinks, and Redis down when its turn is sent.

A player starts a game against level 8 through the API and moves; the computer's turn is
written in the database before its task is sent (``games.models.ComputerTurn``). Killed while
it thinks, the worker is restarted by the supervisor and, when ready, sends that turn again at
once (the claim names the dead process); sent while Redis is down, the turn is sent again by the
sweep once Redis is back, and the worker, which tries Redis every second
(``abalone_site.worker``), takes it. Each test asserts the move is played once, within
``FLAG_AFTER_FAULT_SECONDS`` of the fault's end, its thinking included.
"""

from __future__ import annotations

import time

from games import engine
from games.models import ComputerTurn, Game, Move
from tests.faults.support import FLAG_AFTER_FAULT_SECONDS, Http, new_player
from tests.support import wait_for


def game_against_level_8(stack, make_player, preset: str) -> tuple[int, Http]:
    """A game against level 8 on ``preset``'s clock, the player Black; (its id, the player)."""
    player = Http.for_player(stack.base_url, new_player(make_player, "cp"))
    status, game = player.call(
        "POST", "/api/v1/computer/games/", {"level": 8, "colour": "black", "preset": preset}
    )
    assert status == 201, game
    return game["id"], player


def first_move(player: Http, game_id: int) -> None:
    position = engine.Position.from_string(Game.objects.get(pk=game_id).position)
    notation = sorted(m.notation for m in engine.legal_moves(position))[0]
    status, answer = player.call(
        "POST", f"/api/v1/games/{game_id}/moves/", {"move": notation, "ply": 0}
    )
    assert status == 200, answer


def computer_played(game_id: int) -> bool:
    return Game.objects.get(pk=game_id).ply >= 2


def test_the_computer_s_worker_killed_while_it_thinks(stack_factory, make_player, report):
    stack = stack_factory()
    # 15+0: level 8 thinks its full 5 s on this move, long enough to be killed in the middle
    game_id, player = game_against_level_8(stack, make_player, "rapid-15+0")
    first_move(player, game_id)
    assert wait_for(
        lambda: ComputerTurn.objects.filter(game_id=game_id, claimed_until__isnull=False).exists(),
        15,
        every=0.02,
    ), stack.tails()
    stack.kill("worker")  # while it thinks
    assert not computer_played(game_id)
    assert wait_for(lambda: stack.worker_ready(times=2), 60), stack.tails()
    back = time.monotonic()  # the fault ends: a worker is back
    assert wait_for(lambda: computer_played(game_id), 30, every=0.05), stack.tails()
    took = time.monotonic() - back
    time.sleep(3.0)  # what was sent twice must not play twice
    assert Move.objects.filter(game_id=game_id).count() == 2
    assert not ComputerTurn.objects.filter(game_id=game_id).exists()
    report(move_back_after_worker_restart_s=round(took, 2))
    assert took <= FLAG_AFTER_FAULT_SECONDS, stack.tails()


def test_the_computer_s_turn_sent_while_redis_is_down(stack_factory, make_player, report):
    stack = stack_factory()
    game_id, player = game_against_level_8(stack, make_player, "blitz-3+2")
    stack.down("redis")
    first_move(player, game_id)  # committed and answered; its task could not be sent
    assert ComputerTurn.objects.get(game_id=game_id).ply == 1  # written before the send
    time.sleep(5.0)  # the outage
    stack.release("redis")
    assert wait_for(stack.redis_up, 15), stack.tails()
    back = time.monotonic()
    assert wait_for(lambda: computer_played(game_id), 40, every=0.05), stack.tails()
    took = time.monotonic() - back
    time.sleep(3.0)
    assert Move.objects.filter(game_id=game_id).count() == 2
    report(move_back_after_redis_returned_s=round(took, 2))
    assert took <= FLAG_AFTER_FAULT_SECONDS, stack.tails()
