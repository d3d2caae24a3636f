"""Move counts from the three starts against the reference perft table of the rules file."""

from __future__ import annotations

import pytest

from games.engine import BROADSIDE, INLINE, legal_moves, perft, start_position

PERFT = {
    "standard": (44, 1_936, 98_912),
    "belgian": (52, 2_692, 149_322),
    "german": (80, 6_244, 493_480),
}


@pytest.mark.parametrize("start", PERFT)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_matches_reference_table(start, depth):
    assert perft(start_position(start), depth) == PERFT[start][depth - 1]


def test_perft_zero_is_one():
    assert perft(start_position("standard"), 0) == 1


def test_negative_depth_is_refused():
    with pytest.raises(ValueError):
        perft(start_position("standard"), -1)


def test_standard_start_splits_into_34_in_line_and_10_broadside():
    moves = legal_moves(start_position("standard"))
    kinds = [move.kind for move in moves]
    assert kinds.count(INLINE) == 34
    assert kinds.count(BROADSIDE) == 10


@pytest.mark.parametrize("start", PERFT)
def test_depth_one_count_equals_generated_list(start):
    position = start_position(start)
    assert position.count_legal_moves() == len(legal_moves(position)) == PERFT[start][0]


def test_perft_two_by_hand_equals_fast_perft():
    # depth 2 through the public apply path instead of the bitboard recursion
    from games.engine import apply_move

    position = start_position("belgian")
    total = sum(len(legal_moves(apply_move(position, move)[0])) for move in legal_moves(position))
    assert total == PERFT["belgian"][1]
