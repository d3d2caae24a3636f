"""The one referee of a move (games.referee): the first reason to refuse, in a fixed order, for
the two-player games and the tables alike."""

import itertools

import pytest

from games.referee import Refusal, move_refusal


def verdict(**changes):
    move = dict(colour="b", active=True, flagged=False, ply=4, expected_ply=4, to_move="b")
    return move_refusal(**(move | changes))


def test_a_move_in_turn_at_the_game_s_ply_in_time_is_left_to_the_rules():
    assert verdict() is None
    assert verdict(colour="r", to_move="r") is None  # a table's third colour


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"colour": None}, Refusal.NOT_A_PLAYER),
        ({"flagged": True}, Refusal.TIME_OUT),
        ({"active": False}, Refusal.GAME_OVER),
        ({"expected_ply": 3}, Refusal.STALE_PLY),
        ({"expected_ply": 5}, Refusal.STALE_PLY),
        ({"to_move": "w"}, Refusal.NOT_YOUR_TURN),
    ],
)
def test_each_reason_alone(changes, refusal):
    assert verdict(**changes) == refusal


def test_the_first_reason_wins_in_the_referee_s_order():
    """Every combination of faults: the verdict is the first of them in the order a move is
    judged (who sends it, the clock, the game's state, the ply, the turn). A fallen flag of a
    game already over is not a time-out: the game is over."""
    faults = {
        Refusal.NOT_A_PLAYER: {"colour": None},
        Refusal.TIME_OUT: {"flagged": True},
        Refusal.GAME_OVER: {"active": False},
        Refusal.STALE_PLY: {"expected_ply": 9},
        Refusal.NOT_YOUR_TURN: {"to_move": "w"},
    }
    order = list(faults)
    for size in range(1, len(order) + 1):
        for chosen in itertools.combinations(order, size):
            changes = {}
            for refusal in chosen:
                changes |= faults[refusal]
            expected = chosen[0]
            if expected == Refusal.TIME_OUT and Refusal.GAME_OVER in chosen:
                expected = Refusal.GAME_OVER
            assert verdict(**changes) == expected, chosen


def test_the_refusals_are_the_api_s_error_codes():
    assert [r.value for r in Refusal] == [
        "not_a_player",
        "time_out",
        "game_over",
        "stale_ply",
        "not_your_turn",
    ]
