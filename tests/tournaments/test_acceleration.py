"""Accelerated Swiss (FIDE C.04.5.1, the Baku method): the virtual points, their TRF records,
and what they change in a pairing. Pure logic: no database."""

import pytest

from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    Scoring,
    pair_swiss,
    read_trf,
    write_trf,
)
from tournaments.pairing.acceleration import (
    AccelerationBlock,
    accelerate,
    baku_blocks,
    baku_group_size,
    blocks_of,
    player_accelerations,
)
from tournaments.pairing.dutch import DUTCH_UNTIL_2026


@pytest.mark.parametrize(
    ("players", "group"), [(161, 82), (10, 6), (9, 6), (8, 4), (21, 12), (100, 50), (3, 2), (1, 1)]
)
def test_group_a_is_the_first_half_rounded_up_to_an_even_number(players, group):
    """C.04.5.1: "the first half of the players, rounded up to the nearest even number"
    (the text's own example: 161 players, 82 in GA)."""
    assert baku_group_size(players) == group


@pytest.mark.parametrize(
    ("rounds", "full", "half"),
    [(9, [1, 2, 3], [4, 5]), (5, [1, 2], [3]), (7, [1, 2], [3, 4]), (11, [1, 2, 3], [4, 5, 6]),
     (1, [1], []), (2, [1], []), (4, [1], [2])],
)  # fmt: skip
def test_one_virtual_point_in_the_first_half_of_the_accelerated_rounds_then_a_half(
    rounds, full, half
):
    """The accelerated rounds are the first half of the event, rounded up; GA has 1 point in
    the first half of them (rounded up) and ½ in the rest (the text: nine rounds, 1 in rounds
    1-3, ½ in 4-5); GB and later rounds nothing."""
    blocks = baku_blocks(20, rounds, Scoring())
    top = player_accelerations(blocks, 1)
    assert [r for r, points in enumerate(top, 1) if points == 1.0] == full
    assert [r for r, points in enumerate(top, 1) if points == 0.5] == half
    assert player_accelerations(blocks, 10) == top
    assert player_accelerations(blocks, 11) == ()


def test_the_method_needs_the_standard_point_system():
    with pytest.raises(PairingError, match="standard point system"):
        baku_blocks(10, 5, Scoring(win=3, draw=1))
    with pytest.raises(PairingError, match="standard point system"):
        baku_blocks(10, 5, Scoring(loss=0.5))
    assert baku_blocks(10, 5, Scoring(win=2, draw=1))[0].points == 2


def test_blocks_written_are_the_blocks_read():
    players = accelerate([PairingPlayer(n, f"P{n}", 2000 - n) for n in range(1, 22)],
                         baku_blocks(21, 7, Scoring()))  # fmt: skip
    assert blocks_of(players) == (
        AccelerationBlock(1.0, 1, 2, 1, 12),
        AccelerationBlock(0.5, 3, 4, 1, 12),
    )
    text = write_trf("Open", players, total_rounds=7)
    assert "250       1.0 001 002    1   12" in text.splitlines()
    assert [p.accelerations for p in read_trf(text).players] == [p.accelerations for p in players]


def test_virtual_points_split_the_first_round_into_two_score_groups():
    """Eight players: unaccelerated, round 1 pairs the top half against the bottom half
    (1-5, 2-6, 3-7, 4-8); with GA = 4 players on 1 virtual point they are two score groups
    (1-3, 2-4 and 5-7, 6-8). The board order follows the real scores (all 0), then rank."""
    players = [PairingPlayer(n, f"P{n}", 2400 - 10 * n) for n in range(1, 9)]
    plain = pair_swiss(players, round_number=1, total_rounds=5)
    assert {frozenset(p) for p in plain.pairs} == {
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    }
    accelerated = pair_swiss(
        accelerate(players, baku_blocks(8, 5, Scoring())), round_number=1, total_rounds=5
    )
    assert [frozenset(p) for p in accelerated.pairs] == [
        frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]
    ]


def test_the_rules_until_2026_do_not_pair_accelerated_rounds():
    players = accelerate(
        [PairingPlayer(n, f"P{n}", 2400 - 10 * n) for n in range(1, 9)],
        baku_blocks(8, 5, Scoring()),
    )
    with pytest.raises(PairingError, match="accelerated pairings"):
        pair_swiss(players, round_number=1, total_rounds=5, rules=DUTCH_UNTIL_2026)
