"""Match rounds (pure): colours by game, the match score, the round's points under match
points and game points, and the pairing and the standings counting a match's game points."""

import random

import pytest

from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    RoundEntry,
    Scoring,
    read_trf,
    write_trf,
)
from tournaments.pairing.dutch2026 import pair_dutch_2026
from tournaments.pairing.matches import (
    GAME_POINTS,
    MATCH_POINTS,
    game_sides,
    match_score,
    pairing_side_result,
    round_points,
    round_scoring,
    swapped,
)
from tournaments.pairing.model import BLACK, WHITE, score_before
from tournaments.tiebreaks import GameEntry, StandingsInput, StandingsPlayer, compute_standings


def test_colours_alternate_from_the_pairings_own():
    assert [swapped(game) for game in (1, 2, 3, 4)] == [False, True, False, True]
    assert game_sides("A", "B", 1) == ("A", "B")
    assert game_sides("A", "B", 2) == ("B", "A")
    assert game_sides("A", "B", 3) == ("A", "B")
    with pytest.raises(PairingError):
        swapped(0)


def test_a_games_result_reads_from_the_pairings_side():
    # Game 2's first mover is the pairing's White: its 1-0 is the pairing's White winning.
    assert [pairing_side_result(r, 1) for r in ("1-0", "+-", "1/2-1/2")] == ["1-0", "+-", "1/2-1/2"]
    assert [pairing_side_result(r, 2) for r in ("1-0", "0-1", "+-", "-+", "1/2-1/2", "--")] == [
        "0-1",
        "1-0",
        "-+",
        "+-",
        "1/2-1/2",
        "--",
    ]
    assert pairing_side_result("0-1", 3) == "0-1"


@pytest.mark.parametrize(
    ("results", "black", "white", "result", "shown"),
    [
        # game 2's first mover is the pairing's White: its "1-0" is a point for White
        (["1-0", "1-0"], 1, 1, "1/2-1/2", "1-1"),
        (["1-0", "0-1"], 2, 0, "1-0", "2-0"),
        (["0-1", "1-0"], 0, 2, "0-1", "0-2"),
        (["1/2-1/2", "0-1"], 1.5, 0.5, "1-0", "1½-½"),
        (["1-0", "1/2-1/2"], 1.5, 0.5, "1-0", "1½-½"),
        (["1/2-1/2", "1/2-1/2"], 1, 1, "1/2-1/2", "1-1"),
        # a forfeited game counts as a win for the other side; the match was played
        (["1-0", "+-"], 1, 1, "1/2-1/2", "1-1"),
        (["0-1", "+-"], 0, 2, "0-1", "0-2"),
        # no game played: the match is a forfeit
        (["-+", "+-"], 0, 2, "-+", "0-2"),
        (["--", "--"], 0, 0, "--", "0-0"),
    ],
)
def test_a_two_game_match_scores_from_the_pairings_side(results, black, white, result, shown):
    score = match_score(results, 2)
    assert (score.black, score.white) == (black, white)
    assert score.complete
    assert score.result == result
    assert score.shown() == shown
    assert score.shown("white") == "-".join(reversed(shown.split("-")))


def test_an_unfinished_match_has_a_score_but_no_result():
    score = match_score(["1-0", ""], 2)
    assert (score.black, score.white, score.finished, score.played) == (1, 0, 1, 1)
    assert not score.complete and score.result == ""
    assert round_points(score, "black", GAME_POINTS) is None
    empty = match_score([], 4)
    assert empty.shown() == "0-0" and empty.games == 4


def test_a_match_of_three_or_four_games():
    assert match_score(["1-0", "1-0", "1-0"], 3).result == "1-0"  # 2-1 for Black
    assert match_score(["1-0", "1-0", "1-0"], 3).shown() == "2-1"
    four = match_score(["0-1", "1-0", "1/2-1/2", "0-1"], 4)
    assert (four.black, four.white, four.result) == (1.5, 2.5, "0-1")


def test_the_event_point_system_counts_per_game():
    scoring = Scoring(win=3, draw=1, loss=0, pab=3)
    score = match_score(["1-0", "1/2-1/2"], 2, scoring)
    assert (score.black, score.white) == (4, 1)


def test_bad_matches_are_refused_naming_the_problem():
    with pytest.raises(PairingError, match="1 to 8 games"):
        match_score([], 0)
    with pytest.raises(PairingError, match="3 results for a match of 2"):
        match_score(["1-0", "1-0", "1-0"], 2)
    with pytest.raises(PairingError, match="unknown result"):
        match_score(["2-0"], 2)
    with pytest.raises(PairingError, match="unknown match scoring"):
        round_scoring(Scoring(), 2, "marbles")


def test_the_round_scores_the_match_result_or_the_game_points():
    score = match_score(["1/2-1/2", "0-1"], 2)
    assert round_points(score, "black", MATCH_POINTS) is None
    assert round_points(score, "black", GAME_POINTS) == 1.5
    assert round_points(score, "white", GAME_POINTS) == 0.5
    assert round_scoring(Scoring(), 2, MATCH_POINTS) == Scoring()
    assert round_scoring(Scoring(), 2, GAME_POINTS) == Scoring(win=2, draw=1, loss=0, pab=2)
    assert round_scoring(Scoring(), 1, GAME_POINTS) == Scoring()


def test_a_round_entry_with_its_own_points():
    entry = RoundEntry(1, 2, "b", "1", points=1.5)
    assert Scoring(win=2, draw=1).of(entry) == 1.5
    assert Scoring(win=2, draw=1).of(RoundEntry(1, 2, "b", "1")) == 2
    with pytest.raises(PairingError):
        RoundEntry(1, None, None, "U", points=2)
    with pytest.raises(PairingError):
        RoundEntry(1, 2, "b", "1", points=-1)


_CODES = {(2, 0): ("1", "0"), (0, 2): ("0", "1"), (1, 1): ("=", "=")}


def _play(seed: int, players: int, rounds: int, outcomes, with_points: bool):
    """A Swiss of two-game matches paired round by round by the 2026 engine under game
    points; returns the pairings of every round."""
    rng = random.Random(seed)
    scoring = round_scoring(Scoring(), 2, GAME_POINTS)
    histories = {n: [] for n in range(1, players + 1)}
    pairings = []
    for number in range(1, rounds + 1):
        field = [
            PairingPlayer(n, f"P{n}", 2000 - n, tuple(history)) for n, history in histories.items()
        ]
        pairs, bye = pair_dutch_2026(
            field, round_number=number, total_rounds=rounds, scoring=scoring, first_colour="b"
        )
        pairings.append((pairs, bye))
        for black, white in pairs:
            mine = rng.choice(outcomes)
            theirs = 2 - mine
            codes = _CODES.get((mine, theirs)) or (("1", "0") if mine > theirs else ("0", "1"))
            histories[black].append(
                RoundEntry(number, white, "b", codes[0], mine if with_points else None)
            )
            histories[white].append(
                RoundEntry(number, black, "w", codes[1], theirs if with_points else None)
            )
        if bye is not None:
            histories[bye].append(RoundEntry(number, None, None, "U"))
    return pairings, histories


@pytest.mark.parametrize("seed", range(12))
def test_game_points_pair_as_the_results_points_when_they_agree(seed):
    """2-0, 1-1 and 0-2 are a win, a draw and a loss of the scaled point system: with and
    without the entries' own points the engine pairs every round the same."""
    players = 7 + seed * 3
    outcomes = [2, 1, 0]
    with_points, _ = _play(seed, players, 5, outcomes, True)
    without, _ = _play(seed, players, 5, outcomes, False)
    assert with_points == without


def test_a_one_and_a_half_point_match_pairs_by_its_game_points():
    """Six players, round 1 played as 1-4 2-0, 2-5 1½-½, 3-6 1½-½ (game points 2, 1½, 1½,
    0, ½, ½): under game points player 1 (alone on 2) meets one of the 1½s and the other
    the best of the ½s; counted as match results, 1, 2, 3 would share a score group."""
    history = {
        1: RoundEntry(1, 4, "b", "1", 2),
        4: RoundEntry(1, 1, "w", "0", 0),
        2: RoundEntry(1, 5, "w", "1", 1.5),
        5: RoundEntry(1, 2, "b", "0", 0.5),
        3: RoundEntry(1, 6, "b", "1", 1.5),
        6: RoundEntry(1, 3, "w", "0", 0.5),
    }
    field = [PairingPlayer(n, f"P{n}", 2000 - n, (history[n],)) for n in range(1, 7)]
    scoring = round_scoring(Scoring(), 2, GAME_POINTS)
    assert [score_before(p, 2, scoring) for p in field] == [2, 1.5, 1.5, 0, 0.5, 0.5]
    pairs, bye = pair_dutch_2026(
        field, round_number=2, total_rounds=5, scoring=scoring, first_colour="b"
    )
    assert bye is None
    met = {frozenset(pair) for pair in pairs}
    one = next(pair for pair in met if 1 in pair)
    assert one - {1} <= {2, 3}
    other = ({2, 3} - one).pop()
    partner = next(pair for pair in met if other in pair) - {other}
    assert partner <= {5, 6}
    assert frozenset({4}) | ({5, 6} - partner) in met


def test_standings_count_the_game_points():
    """BH and SB (9.1: opponent's score times the points scored against them) under game
    points: the opponents' game points, a 1½-½ win worth 1½."""
    _, histories = _play(3, 8, 4, [2, 1, 0, 1.5, 0.5], True)
    data = StandingsInput(
        players=tuple(
            StandingsPlayer(
                n,
                f"P{n}",
                2000 - n,
                tuple(
                    GameEntry(e.round, e.opponent, e.colour, e.result, points=e.points)
                    for e in history
                ),
            )
            for n, history in histories.items()
        ),
        total_rounds=4,
        scoring=round_scoring(Scoring(), 2, GAME_POINTS),
    )
    rows = {row.number: row for row in compute_standings(data, ["buchholz", "sonneborn_berger"])}
    scoring = data.scoring
    for number, history in histories.items():
        total = sum(scoring.of(e) for e in history)
        assert rows[number].points == total
        played = [e for e in history if e.opponent is not None]
        assert rows[number].values["buchholz"] == sum(rows[e.opponent].points for e in played)
        assert rows[number].values["sonneborn_berger"] == pytest.approx(
            sum(rows[e.opponent].points * e.points for e in played)
        )


def test_game_points_go_to_trf_as_299_bonuses_and_penalties_and_come_back():
    """TRF-26 has no match rounds: a round is one result, scored by the event's (scaled)
    point system; where the game points differ (1½-½ is a win worth 2), a ``299`` record of
    type blank gives the difference, which the reader adds back."""
    _, histories = _play(5, 9, 4, [2, 1, 0, 1.5, 0.5], True)
    scoring = round_scoring(Scoring(), 2, GAME_POINTS)
    players = [
        PairingPlayer(n, f"P{n}", 2000 - n, tuple(history)) for n, history in histories.items()
    ]
    text = write_trf("Match Swiss", players, total_rounds=4, scoring=scoring)
    abnormal = [line for line in text.splitlines() if line.startswith("299")]
    differing = [
        (e.round, number, e.points - scoring.points(e.result))
        for number, history in histories.items()
        for e in history
        if e.points is not None and e.points != scoring.points(e.result)
    ]
    assert len(abnormal) == len(differing) > 0
    for line, (round_number, number, difference) in zip(
        abnormal, sorted(differing, key=lambda item: (item[1], item[0])), strict=True
    ):
        assert line[4] == " " and line[7:11].strip() == ""  # type blank, no match points
        assert float(line[13:17]) == difference
        assert int(line[19:22]) == round_number and int(line[23:27]) == number
    back = read_trf(text)
    assert back.scoring == scoring
    for player in back.players:
        assert [scoring.of(e) for e in player.history] == [
            scoring.of(e) for e in histories[player.number]
        ]
    points_column = {
        int(line[4:8]): float(line[80:84]) for line in text.splitlines() if line.startswith("001")
    }
    assert points_column == {n: sum(scoring.of(e) for e in h) for n, h in histories.items()}
    # and the next round pairs the same from the file as from the histories
    mine = pair_dutch_2026(
        players, round_number=5, total_rounds=6, scoring=scoring, first_colour="b"
    )
    theirs = pair_dutch_2026(
        back.players, round_number=5, total_rounds=6, scoring=back.scoring, first_colour="b"
    )
    assert mine == theirs


def test_a_match_won_by_one_and_a_half_counts_as_a_win():
    """WIN (C.07 7.1) counts the rounds won; under game points a 1½-½ match scores 1½, less
    than the scaled win's 2, yet the round was won: it counts, as a 2-0 and a forfeit win do,
    and a 1-1 does not. WON and BWG (7.2, 7.4) count the matches won over the board."""
    scoring = round_scoring(Scoring(), 2, GAME_POINTS)
    rounds = {
        1: [(2, BLACK, "1", 1.5), (3, WHITE, "1", 2.0), (4, BLACK, "=", 1.0), (2, None, "+", 2.0)],
        2: [(1, WHITE, "0", 0.5), (4, WHITE, "1", 1.5), (3, BLACK, "=", 1.0), (1, None, "-", 0.0)],
        3: [
            (4, WHITE, "0", 0.0),
            (1, BLACK, "0", 0.0),
            (2, WHITE, "=", 1.0),
            (None, None, "H", 1.0),
        ],
        4: [
            (3, BLACK, "1", 2.0),
            (2, BLACK, "0", 0.5),
            (1, WHITE, "=", 1.0),
            (None, None, "U", 2.0),
        ],
    }
    data = StandingsInput(
        players=tuple(
            StandingsPlayer(
                n,
                f"P{n}",
                2000 - n,
                tuple(
                    GameEntry(r, opp, colour, result, points=points)
                    for r, (opp, colour, result, points) in enumerate(entries, start=1)
                ),
            )
            for n, entries in rounds.items()
        ),
        total_rounds=4,
        scoring=scoring,
    )
    rows = {
        row.number: row.values
        for row in compute_standings(data, ["wins", "games_won", "white_wins", "standard_points"])
    }
    assert {n: v["wins"] for n, v in rows.items()} == {1: 3, 2: 1, 3: 0, 4: 2}
    assert {n: v["games_won"] for n, v in rows.items()} == {1: 2, 2: 1, 3: 0, 4: 1}
    assert {n: v["white_wins"] for n, v in rows.items()} == {1: 1, 2: 1, 3: 0, 4: 0}
    assert {n: v["standard_points"] for n, v in rows.items()} == {1: 3.5, 2: 1.5, 3: 1.0, 4: 2.5}
