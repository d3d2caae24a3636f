"""Round-robin schedules against the published FIDE Berger tables (Handbook C.05, Annex 1)."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import PairingError, berger_pairings, berger_rounds

# The published tables, one line per round, boards left to right, "first-second" with the
# first-named player moving first (FIDE's White, Abalone's Black).
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
}


def table(n: int) -> list[list[tuple[int, int]]]:
    rounds = []
    for line in PUBLISHED[n].strip().splitlines():
        rounds.append([tuple(int(x) for x in pair.split("-")) for pair in line.split()])
    return rounds


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_even_fields_match_the_published_tables_board_by_board(n):
    expected = table(n)
    assert berger_rounds(n) == len(expected) == n - 1
    for round_number, pairs in enumerate(expected, start=1):
        assert berger_pairings(n, round_number) == pairs, f"{n} players, round {round_number}"


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11, 13])
def test_odd_fields_use_the_next_table_and_meeting_the_dummy_is_the_bye(n):
    expected = table(n + 1)
    assert berger_rounds(n) == n
    for round_number, pairs in enumerate(expected, start=1):
        games = [pair for pair in pairs if n + 1 not in pair]
        (dummy_game,) = [pair for pair in pairs if n + 1 in pair]
        bye_player = dummy_game[0] if dummy_game[1] == n + 1 else dummy_game[1]
        assert berger_pairings(n, round_number) == games + [(bye_player, None)]


@pytest.mark.parametrize("n", range(3, 15))
def test_everyone_meets_everyone_once_with_colours_balanced(n):
    meetings = Counter()
    first_moves = Counter()
    games = Counter()
    byes = Counter()
    for round_number in range(1, berger_rounds(n) + 1):
        seen = []
        for first, second in berger_pairings(n, round_number):
            seen.append(first)
            if second is None:
                byes[first] += 1
                continue
            seen.append(second)
            meetings[frozenset((first, second))] += 1
            first_moves[first] += 1
            games[first] += 1
            games[second] += 1
        assert sorted(seen) == list(range(1, n + 1)), "everyone appears once per round"
    assert set(meetings) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(meetings.values()) == {1}
    for player in range(1, n + 1):
        seconds = games[player] - first_moves[player]
        assert abs(first_moves[player] - seconds) <= 1
    if n % 2:
        assert set(byes.values()) == {1} and len(byes) == n


@pytest.mark.parametrize("n", range(3, 15))
def test_double_round_robin_repeats_the_cycle_with_colours_reversed(n):
    cycle = berger_rounds(n)
    assert berger_rounds(n, double=True) == 2 * cycle
    for round_number in range(1, cycle + 1):
        first = berger_pairings(n, round_number, double=True)
        second = berger_pairings(n, round_number + cycle, double=True)
        assert first == berger_pairings(n, round_number)
        reversed_first = [(b, a) if b is not None else (a, None) for a, b in first]
        assert second == reversed_first


def test_swapping_the_last_two_rounds_of_the_first_cycle_is_an_option():
    n = 6
    assert berger_pairings(n, 4, double=True, swap_last_two_rounds=True) == berger_pairings(n, 5)
    assert berger_pairings(n, 5, double=True, swap_last_two_rounds=True) == berger_pairings(n, 4)
    # The second cycle mirrors the swapped order game by game.
    assert berger_pairings(n, 9, double=True, swap_last_two_rounds=True) == [
        (b, a) for a, b in berger_pairings(n, 5)
    ]
    # With the swap nobody has the same colour three rounds running around the cycle turn.
    for player in range(1, n + 1):
        colours = []
        for round_number in range(1, 11):
            for a, b in berger_pairings(n, round_number, double=True, swap_last_two_rounds=True):
                if player in (a, b):
                    colours.append("b" if player == a else "w")
        runs = "".join(colours)
        assert "bbb" not in runs and "www" not in runs, (player, runs)


@pytest.mark.parametrize(("n", "round_number"), [(1, 1), (4, 0), (4, 4), (5, 6)])
def test_bad_arguments_raise_pairing_error(n, round_number):
    with pytest.raises(PairingError):
        berger_pairings(n, round_number)
