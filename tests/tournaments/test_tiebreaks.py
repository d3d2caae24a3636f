"""Tie-breaks against examples worked by hand and FIDE's published 2024 exercise."""

import pytest

from tournaments.pairing import PairingError, Scoring
from tournaments.tiebreaks import (
    TIEBREAKS,
    GameEntry,
    StandingsInput,
    StandingsPlayer,
    compute_standings,
    crosstable,
    game_marbles,
)

# FIDE TEC tie-break exercise (published 18 March 2024 with the 2023 regulations): 16 players,
# 5 rounds.  "+W9" = won with White (FIDE's White moves first: our Black) against 9, "=BYE" a
# half-point bye, "+BYE" a pairing-allocated bye, "-F11" a forfeit loss against 11, "--" absent.
FIDE_EXERCISE = """
1,+W9,=B13,=W2,+B15,=W4
2,+B10,+W7,=B1,+W16,=B3
3,=W11,+B6,+W8,=B4,=W2
4,+B12,=BYE,+W13,=W3,=B1
5,-W13,-B15,+W11,=B7,+W10
6,-B14,-W3,+BYE,+W10,+B8
7,+W15,-B2,-B16,=W5,-B11
8,=B16,+W14,-B3,+W13,-W6
9,-B1,-W10,=BYE,-F11,+BYE
10,-W2,+B9,-W15,-B6,-B5
11,=B3,-W16,-B5,+F9,+W7
12,-W4,+BYE,+F14,--,--
13,+B5,=W1,-B4,-B8,-W14
14,+W6,-B8,-F12,--,+B13
15,-B7,+W5,+B10,-W1,-B16
16,=W8,+B11,+W7,-B2,+W15
"""


def exercise_input() -> StandingsInput:
    players = []
    for line in FIDE_EXERCISE.strip().splitlines():
        number, *cells = line.split(",")
        entries = []
        for round_number, cell in enumerate(cells, start=1):
            if cell == "--":
                entries.append(GameEntry(round_number, None, None, "Z"))
            elif cell[1:] == "BYE":
                entries.append(GameEntry(round_number, None, None, {"+": "U", "=": "H"}[cell[0]]))
            elif cell[1] == "F":
                entries.append(GameEntry(round_number, int(cell[2:]), None, cell[0]))
            else:
                result = {"+": "1", "=": "=", "-": "0"}[cell[0]]
                colour = {"W": "b", "B": "w"}[cell[1]]
                entries.append(GameEntry(round_number, int(cell[2:]), colour, result))
        players.append(StandingsPlayer(int(number), f"Player {number}", 0, tuple(entries)))
    return StandingsInput(players=tuple(players), total_rounds=5)


def values(data, order):
    return {row.number: row.values for row in compute_standings(data, order)}


def test_fide_2024_exercise_buchholz_with_unplayed_rounds():
    got = values(exercise_input(), ["buchholz", "buchholz_cut1"])
    # Published answers: withdrawn 12's rounds 4-5 count as draws for 4's Buchholz, 11's
    # forfeit win counts as a dummy opponent with 11's own score, ...
    expected_bh = {1: 12.5, 2: 13, 3: 15.5, 4: 15, 5: 8.5, 8: 13.5, 11: 13.5, 16: 12.5}
    for number, bh in expected_bh.items():
        assert got[number]["buchholz"] == bh, number
    # ... and Cut-1 removes the lowest opponent (no voluntarily unplayed round here).
    for number, cut in {5: 7.5, 8: 12, 11: 12}.items():
        assert got[number]["buchholz_cut1"] == cut, number
    # 4's half-point bye is a voluntarily unplayed round: it is cut first (3.5), not the 1.5.
    assert got[4]["buchholz_cut1"] == 15 - 3.5


def test_the_march_2026_text_caps_the_dummy_opponent_of_own_unplayed_rounds():
    """C.07 16.4 as amended in March 2026: the same exercise under both texts. Player 4's
    half-point bye and 6's pairing-allocated bye count at most half the maximum (2.5), not
    their own 3.5 and 3.0; 11's forfeit win at most the absent 9's adjusted score (1.5), not
    11's own 2.5. Every other player's values stay (the published values, and FIDE's
    TieBreakServer's under its 2024 and 2026 rules)."""
    order = ["buchholz", "buchholz_cut1", "sonneborn_berger"]
    old = values(exercise_input(), order)
    data = exercise_input()
    new = values(StandingsInput(data.players, total_rounds=5, rules="fide-2026"), order)
    expected = {
        4: ((15.0, 11.5, 9.75), (14.0, 11.5, 9.25)),
        6: ((12.0, 11.0, 6.5), (11.5, 10.5, 6.0)),
        11: ((13.5, 12.0, 5.75), (12.5, 11.0, 4.75)),
    }
    for number, (before, after) in expected.items():
        assert tuple(old[number][code] for code in order) == before, number
        assert tuple(new[number][code] for code in order) == after, number
    assert {n: v for n, v in old.items() if n not in expected} == {
        n: v for n, v in new.items() if n not in expected
    }


def test_the_exercise_s_fore_buchholz_and_sonneborn_berger_cut_1_under_the_2026_text():
    """The TEC's published 2026 values: Fore Buchholz counts the last round's games as draws
    (C.07 8.3); SB Cut-1 cuts the larger of the smallest voluntarily unplayed round's product
    and the least significant opponent's (16.5): 4's half-point bye (7.75)."""
    data = exercise_input()
    new = values(
        StandingsInput(data.players, total_rounds=5, rules="fide-2026"),
        ["fore_buchholz", "sonneborn_berger_cut1"],
    )
    expected = {4: (14.5, 7.75), 6: (12.0, 5.0), 11: (12.0, 3.25), 12: (11.0, 4.0)}
    for number, (fore, cut) in expected.items():
        assert (new[number]["fore_buchholz"], new[number]["sonneborn_berger_cut1"]) == (
            fore,
            cut,
        ), number


def test_fore_buchholz_is_buchholz_until_the_last_round_is_counted():
    data = exercise_input()
    early = StandingsInput(data.players, total_rounds=5, rounds_played=4, rules="fide-2026")
    got = values(early, ["fore_buchholz", "buchholz"])
    assert all(v["fore_buchholz"] == v["buchholz"] for v in got.values())
    final = values(
        StandingsInput(data.players, total_rounds=5, rules="fide-2026"),
        ["fore_buchholz", "buchholz"],
    )
    assert any(v["fore_buchholz"] != v["buchholz"] for v in final.values())


def test_rating_tiebreaks_are_empty_with_an_unrated_player_unless_the_event_rates_them():
    data = exercise_input()
    rated = tuple(
        StandingsPlayer(p.number, p.name, 2000 - 10 * p.number if p.number != 16 else 0, p.entries)
        for p in data.players
    )
    order = ["rating", "average_rating_opponents", "performance", "perfect_performance"]
    empty = values(StandingsInput(rated, total_rounds=5), order)
    assert all(value is None for v in empty.values() for value in v.values())
    given = values(StandingsInput(rated, total_rounds=5, unrated_rating=1000), order)
    assert given[16]["rating"] == 1000
    # 1 met 9, 13, 2, 15 and 4 over the board: (1910 + 1870 + 1980 + 1850 + 1960) / 5
    assert given[1]["average_rating_opponents"] == 1914
    # 3.5 of 5 = 70 %: dp 149
    assert given[1]["performance"] == 1914 + 149


def test_pairing_number_ranks_the_lower_first():
    data = exercise_input()
    rows = compute_standings(data, ["pairing_number"])
    level = [row for row in rows if row.points == rows[0].points]
    assert [row.number for row in level] == sorted(row.number for row in level)
    assert TIEBREAKS["pairing_number"].lower_first


def test_unknown_rules_are_refused():
    data = exercise_input()
    with pytest.raises(PairingError, match="unknown tie-break rules"):
        compute_standings(StandingsInput(data.players, total_rounds=5, rules="fide-1999"), [])


def g(round_number, opponent, colour, result, *marbles, termination=None, to_win=6):
    marbles_for, marbles_against = marbles if marbles else (None, None)
    return GameEntry(
        round_number, opponent, colour, result, marbles_for, marbles_against, termination, to_win
    )


def swiss_input() -> StandingsInput:
    """Three rounds, five players, worked by hand in the comments of the tests below.

    R1: 1-2 1-0, 3-4 draw, 5 pairing-allocated bye.
    R2: 5-1 0-1, 2-3 forfeit win for 2, 4 half-point bye.
    R3: 1-4 draw, 3-5 1-0, 2 absent.
    """
    return StandingsInput(
        players=(
            StandingsPlayer(
                1, "Ada", 2000, (g(1, 2, "b", "1"), g(2, 5, "w", "1"), g(3, 4, "b", "="))
            ),
            StandingsPlayer(
                2, "Bo", 1900, (g(1, 1, "w", "0"), g(2, 3, "b", "+"), g(3, None, None, "Z"))
            ),
            StandingsPlayer(
                3, "Cy", 1800, (g(1, 4, "b", "="), g(2, 2, "w", "-"), g(3, 5, "b", "1"))
            ),
            StandingsPlayer(
                4, "Di", 1700, (g(1, 3, "w", "="), g(2, None, None, "H"), g(3, 1, "w", "="))
            ),
            StandingsPlayer(
                5, "Ed", 1600, (g(1, None, None, "U"), g(2, 1, "b", "0"), g(3, 3, "w", "0"))
            ),
        ),
        total_rounds=3,
    )


def test_points_and_ranking_by_buchholz():
    rows = compute_standings(swiss_input(), ["buchholz"])
    assert [(row.rank, row.number, row.points) for row in rows] == [
        (1, 1, 2.5),
        (2, 4, 1.5),
        (3, 3, 1.5),
        (4, 5, 1.0),
        (5, 2, 1.0),
    ]


def test_buchholz_with_byes_forfeits_and_an_absence():
    # Adjusted scores (C.07 16.3): 2 is absent after the forfeit win of round 2, so that last
    # round counts as a draw: 0 + 1 + 0.5 = 1.5; everyone else keeps their score.
    # Own unplayed rounds (16.4) count the player's own score.
    got = values(swiss_input(), ["buchholz", "buchholz_cut1", "median_buchholz"])
    assert {n: v["buchholz"] for n, v in got.items()} == {
        1: 1.5 + 1.0 + 1.5,  # 2 (adjusted), 5, 4
        2: 2.5 + 1.0 + 1.0,  # 1, forfeit win -> own 1, absence -> own 1
        3: 1.5 + 1.5 + 1.0,  # 4, forfeit loss -> own 1.5, 5
        4: 1.5 + 1.5 + 2.5,  # 3, half-point bye -> own 1.5, 1
        5: 1.0 + 2.5 + 1.5,  # bye -> own 1, 1, 3
    }
    # Cut-1 removes a voluntarily unplayed round first (absence, forfeit loss, half-point bye),
    # otherwise the lowest value.
    assert {n: v["buchholz_cut1"] for n, v in got.items()} == {
        1: 3.0,
        2: 3.5,
        3: 2.5,  # the forfeit loss (1.5) goes, not the lower 1.0
        4: 4.0,
        5: 4.0,
    }
    assert {n: v["median_buchholz"] for n, v in got.items()} == {
        1: 1.5,
        2: 1.0,
        3: 1.0,
        4: 1.5,
        5: 1.5,
    }


def test_sonneborn_berger_counts_unplayed_rounds_as_own_score_times_points():
    got = values(swiss_input(), ["sonneborn_berger"])
    assert {n: v["sonneborn_berger"] for n, v in got.items()} == {
        1: 1.5 * 1 + 1.0 * 1 + 1.5 * 0.5,
        2: 2.5 * 0 + 1.0 * 1 + 1.0 * 0,
        3: 1.5 * 0.5 + 1.5 * 0 + 1.0 * 1,
        4: 1.5 * 0.5 + 1.5 * 0.5 + 2.5 * 0.5,
        5: 1.0 * 1 + 2.5 * 0 + 1.5 * 0,
    }


def test_wins_games_won_black_games_and_progressive_score():
    got = values(swiss_input(), ["wins", "games_won", "black_games", "progressive"])
    # WIN counts rounds scored as a win with or without playing (forfeit, bye worth a win).
    assert {n: v["wins"] for n, v in got.items()} == {1: 2, 2: 1, 3: 1, 4: 0, 5: 1}
    assert {n: v["games_won"] for n, v in got.items()} == {1: 2, 2: 0, 3: 1, 4: 0, 5: 0}
    # Games played over the board as Black, the first mover (forfeits are not games).
    assert {n: v["black_games"] for n, v in got.items()} == {1: 2, 2: 0, 3: 2, 4: 0, 5: 1}
    assert {n: v["progressive"] for n, v in got.items()} == {
        1: 1 + 2 + 2.5,
        2: 0 + 1 + 1,
        3: 0.5 + 0.5 + 1.5,
        4: 0.5 + 1 + 1.5,
        5: 1 + 1 + 1,
    }


def round_robin_input() -> StandingsInput:
    """Four players, Berger table.  R1 1-4 1-0, 2-3 draw; R2 4-3 draw, 1-2 0-1;
    R3 2-4 draw, 3-1 0-1.  Points: 1 and 2 on 2, 3 and 4 on 1."""
    return StandingsInput(
        players=(
            StandingsPlayer(1, "A", 0, (g(1, 4, "b", "1"), g(2, 2, "b", "0"), g(3, 3, "w", "1"))),
            StandingsPlayer(2, "B", 0, (g(1, 3, "b", "="), g(2, 1, "w", "1"), g(3, 4, "b", "="))),
            StandingsPlayer(3, "C", 0, (g(1, 2, "w", "="), g(2, 4, "w", "="), g(3, 1, "b", "0"))),
            StandingsPlayer(4, "D", 0, (g(1, 1, "w", "0"), g(2, 3, "b", "="), g(3, 2, "w", "="))),
        ),
        total_rounds=3,
        round_robin=True,
    )


def test_direct_encounter_koya_and_shared_ranks_in_a_round_robin():
    rows = compute_standings(round_robin_input(), ["direct_encounter", "koya", "sonneborn_berger"])
    # 2 beat 1; 3 and 4 drew and stay level on Koya (0.5 each against the 50% scorers 1 and
    # 2) and Sonneborn-Berger (1.5 each), so they share third place.
    assert [(row.rank, row.number) for row in rows] == [(1, 2), (2, 1), (3, 3), (3, 4)]
    by_number = {row.number: row.values for row in rows}
    assert by_number[2]["direct_encounter"] == 1 and by_number[1]["direct_encounter"] == 0
    assert {n: v["koya"] for n, v in by_number.items()} == {1: 0, 2: 1, 3: 0.5, 4: 0.5}
    assert {n: v["sonneborn_berger"] for n, v in by_number.items()} == {
        1: 2.0,
        2: 3.0,
        3: 1.5,
        4: 1.5,
    }


def test_direct_encounter_in_a_swiss_where_not_everyone_met():
    """R1 1-2 1-0, 3-6 1-0, 5-4 1-0; R2 1-3 1-0, 2-5 1-0, 6-4 1-0; R3 4-1 1-0, 2-6 1-0,
    3-5 1-0.  1, 2 and 3 have 2 points: 1 beat 2 and 3, who never met.  1 is placed first
    because neither 2 nor 3 could reach 1's 2 points even by winning the missing game; 2 and 3
    stay level.  On 1 point, 5 and 6 beat 4 but never met each other: 5's point does not exceed
    6's possible 2, so 4, 5 and 6 all stay level (C.07 6)."""
    data = StandingsInput(
        players=(
            StandingsPlayer(1, "A", 0, (g(1, 2, "b", "1"), g(2, 3, "b", "1"), g(3, 4, "w", "0"))),
            StandingsPlayer(2, "B", 0, (g(1, 1, "w", "0"), g(2, 5, "b", "1"), g(3, 6, "b", "1"))),
            StandingsPlayer(3, "C", 0, (g(1, 6, "b", "1"), g(2, 1, "w", "0"), g(3, 5, "b", "1"))),
            StandingsPlayer(4, "D", 0, (g(1, 5, "w", "0"), g(2, 6, "w", "0"), g(3, 1, "b", "1"))),
            StandingsPlayer(5, "E", 0, (g(1, 4, "b", "1"), g(2, 2, "w", "0"), g(3, 3, "w", "0"))),
            StandingsPlayer(6, "F", 0, (g(1, 3, "w", "0"), g(2, 4, "b", "1"), g(3, 2, "w", "0"))),
        ),
        total_rounds=3,
    )
    rows = compute_standings(data, ["direct_encounter"])
    assert [(row.rank, row.number, row.points) for row in rows] == [
        (1, 1, 2.0),
        (2, 2, 2.0),
        (2, 3, 2.0),
        (4, 4, 1.0),
        (4, 5, 1.0),
        (4, 6, 1.0),
    ]
    assert {row.number: row.values["direct_encounter"] for row in rows} == {
        1: 2,
        2: 0,
        3: 0,
        4: 0,
        5: 1,
        6: 1,
    }


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (g(1, 2, "b", "1", 6, 2, termination="marbles"), (6, 2)),
        (
            g(1, 2, "b", "1", 3, 1, termination="time"),
            (6, 1),
        ),  # win on time: 6 to what the loser pushed
        (g(1, 2, "w", "0", 3, 1, termination="time"), (3, 6)),  # the loser's side of it
        (g(1, 2, "b", "1", 2, 0, termination="resignation", to_win=4), (4, 0)),  # blitz
        (g(1, 2, "b", "1", 3, 1, termination="move_cap"), (3, 1)),  # won on marbles at the cap
        (g(1, 2, "b", "=", 2, 5, termination="repetition"), (3, 3)),  # any draw is 3-3
        (g(1, None, None, "U"), (6, 4)),
        (g(1, None, None, "F"), (6, 4)),
        (g(1, None, None, "H"), (3, 3)),
        (g(1, None, None, "Z"), (0, 0)),
        (g(1, 2, None, "+"), (6, 0)),
        (g(1, 2, None, "-"), (0, 6)),
        (g(1, 2, "b", "1"), (6, 0)),  # marbles unknown: the conventions
        (g(1, 2, "w", "0"), (0, 6)),
    ],
)
def test_marble_conventions(game, expected):
    assert game_marbles(game, Scoring()) == expected


def test_marble_tie_break_sums_the_differences():
    data = StandingsInput(
        players=(
            StandingsPlayer(
                1, "A", 0, (g(1, 2, "b", "1", 6, 2, termination="marbles"), g(2, None, None, "U"))
            ),
            StandingsPlayer(
                2, "B", 0, (g(1, 1, "w", "0", 2, 6, termination="marbles"), g(2, 3, "b", "=", 1, 1))
            ),
            StandingsPlayer(3, "C", 0, (g(1, None, None, "Z"), g(2, 2, "w", "=", 1, 1))),
        ),
        total_rounds=2,
    )
    got = values(data, ["marbles"])
    assert {n: v["marbles"] for n, v in got.items()} == {1: 4 + 2, 2: -4 + 0, 3: 0}


def test_every_tie_break_has_a_code_short_name_and_article():
    assert set(TIEBREAKS) >= {
        "buchholz",
        "buchholz_cut1",
        "median_buchholz",
        "sonneborn_berger",
        "direct_encounter",
        "wins",
        "black_games",
        "progressive",
        "koya",
        "marbles",
    }
    shorts = {t.short for t in TIEBREAKS.values()}
    assert {"BH", "BH-C1", "BH-M1", "SB", "DE", "WIN", "PS", "KS"} <= shorts
    rows = compute_standings(swiss_input(), list(TIEBREAKS))
    assert all(set(row.values) == set(TIEBREAKS) for row in rows)


def test_unknown_tie_break_is_a_pairing_error():
    with pytest.raises(PairingError, match="unknown tie-break"):
        compute_standings(swiss_input(), ["goal_difference"])


def test_crosstable_lists_every_round_and_fills_missing_rounds():
    data = StandingsInput(
        players=(
            StandingsPlayer(1, "A", 0, (g(1, 2, "b", "1"),)),
            StandingsPlayer(2, "B", 0, (g(1, 1, "w", "0"), g(2, None, None, "U"))),
        ),
        total_rounds=3,
    )
    rows = crosstable(data)
    assert [row.number for row in rows] == [1, 2]
    first = rows[0]
    assert [(c.round, c.opponent, c.colour, c.result, c.points) for c in first.cells] == [
        (1, 2, "b", "1", 1.0),
        (2, None, None, "Z", 0.0),
    ]
    assert rows[1].points == 1.0
