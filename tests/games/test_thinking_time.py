"""The computer's budget on a clock (games.engine.thinking_time), pure: many simulated clocks,
each game played to the move cap with the search overrunning its budget and the worker's
latency charged on every move, and the clock never runs out."""

import random

import pytest

from games.engine.levels import LEVELS
from games.engine.thinking_time import (
    LATENCY_MARGIN_MS,
    MIN_SECONDS,
    moves_left,
    thinking_seconds,
)

#: What every move costs beyond its budget in the simulation: the worker's steady latency
#: (waiting for a worker, loading, overrunning, writing: about 90 ms a move measured on a busy
#: machine, tests/games/test_computer_clock.py's log) ...
STEADY_MS = 90
#: ... and, one move in SPIKE_EVERY, the whole latency margin (a slow write, an overrun).
SPIKE_EVERY = 20


worst = {"least_ms": float("inf"), "largest_s": 0.0}


def play_to_the_cap(
    base_s, increment_s, max_plies, *, level=8, moves_first=True, rng=None, first_move_s=60
):
    """The computer's clock through a game played to ``max_plies``: each move costs its budget
    (or, with ``rng``, anything from the minimum to the budget), plus the overrun and the
    latency. Returns the least time it had left at a deadline and the largest budget."""
    remaining = base_s * 1000
    increment = increment_s * 1000
    least, largest = remaining, 0.0
    for ply in range(0 if moves_first else 1, max_plies, 2):
        first_moves = ply < 2
        budget = thinking_seconds(
            cap=LEVELS[level].seconds,
            remaining_ms=remaining,
            increment_ms=increment,
            ply=ply,
            max_plies=max_plies,
            first_move_left_ms=first_move_s * 1000 if first_moves else None,
        )
        largest = max(largest, budget)
        used = budget * 1000 if rng is None else rng.uniform(MIN_SECONDS * 1000, budget * 1000)
        spike = ply // 2 % SPIKE_EVERY == SPIKE_EVERY - 1
        spent = used + (LATENCY_MARGIN_MS if spike else STEADY_MS)
        if first_moves:
            assert spent < first_move_s * 1000
            continue  # the main clock does not run during the first moves
        remaining -= spent
        least = min(least, remaining)
        assert remaining > 0, (base_s, increment_s, max_plies, ply, remaining)
        remaining += increment
    worst["least_ms"] = min(worst["least_ms"], least)
    worst["largest_s"] = max(worst["largest_s"], largest)
    return least, largest


#: From 30 s a side (100 moves at the 200-ply cap: 0.3 s a move) up.
CLOCKS = [(base, inc) for base in (30, 60, 120, 180, 300, 600, 900) for inc in (0, 1, 2, 5)]


@pytest.mark.parametrize(("base", "increment"), CLOCKS)
def test_a_game_played_to_the_cap_never_runs_out_of_time(base, increment):
    for max_plies in (40, 200, 400) if base >= 60 else (40, 200):
        for moves_first in (True, False):
            least, largest = play_to_the_cap(base, increment, max_plies, moves_first=moves_first)
            assert least > 0
            assert largest <= LEVELS[8].seconds


def test_random_spending_below_the_budget_never_runs_out_either():
    rng = random.Random(5)
    for _ in range(300):
        base = rng.choice((30, 60, 120, 180, 300))
        increment = rng.choice((0, 0, 1, 2, 3))
        max_plies = rng.choice((100, 200) if base < 60 else (100, 200, 400))
        level = rng.choice((3, 5, 7, 8))
        least, _ = play_to_the_cap(base, increment, max_plies, level=level, rng=rng)
        assert least > 0


def test_blitz_budgets_are_small_and_shrink_with_the_clock():
    one_minute = thinking_seconds(cap=5, remaining_ms=60_000, ply=0, max_plies=400)
    assert one_minute < 1.5  # 1+0: about a second at the start
    three_two = thinking_seconds(cap=5, remaining_ms=30_000, increment_ms=2000, ply=60)
    assert three_two <= 30 / 10 + 2  # 3+2, half a minute left: a tenth of it and the increment
    lower = [
        thinking_seconds(cap=5, remaining_ms=left, increment_ms=0, ply=60, max_plies=400)
        for left in (60_000, 30_000, 10_000, 3_000)
    ]
    assert lower == sorted(lower, reverse=True)


def test_the_level_caps_the_budget_and_no_clock_gives_the_cap():
    assert thinking_seconds(cap=3.0, remaining_ms=None) == 3.0
    assert thinking_seconds(cap=1.0, remaining_ms=3_600_000, increment_ms=30_000) == 1.0
    assert thinking_seconds(cap=0.0, remaining_ms=None) == MIN_SECONDS  # levels 1-2


def test_an_empty_clock_still_gives_the_search_its_minimum():
    assert thinking_seconds(cap=5, remaining_ms=0) == MIN_SECONDS
    assert thinking_seconds(cap=5, remaining_ms=100, increment_ms=2000) == MIN_SECONDS


def test_the_first_move_timer_bounds_the_first_moves():
    budget = thinking_seconds(
        cap=5, remaining_ms=600_000, ply=0, first_move_left_ms=1_000, max_plies=400
    )
    assert budget * 1000 <= (1_000 - LATENCY_MARGIN_MS) / 2


def test_the_moves_left_estimate_falls_to_a_floor_and_to_the_cap():
    assert moves_left(0, 400) == 50
    assert moves_left(100, 400) == 20
    assert moves_left(390, 400) == 5
    assert moves_left(399, 400) == 1
    assert moves_left(400, 400) == 1
