"""Team matches (pure): colours by board, line-ups in roster order with the last boards left
empty, boards decided by the line-ups, game points and match points, and a team round-robin's
board-1 colour alternating by round from the Berger tables."""

import itertools
import random

import pytest

from tournaments.pairing import PairingError, Scoring
from tournaments.pairing.berger import berger_pairings, berger_rounds
from tournaments.pairing.model import BLACK, WHITE
from tournaments.pairing.teams import (
    TeamMatchScore,
    TeamScoring,
    board_colours,
    lineup_problems,
    lineup_results,
    team_match_score,
    team_presence,
)

ROSTER = ["ann", "bert", "carl", "dirk", "eva", "finn"]


def shown(problems) -> list[str]:
    return [str(problem) for problem in problems]


def test_colours_alternate_by_board_from_the_first_teams_black():
    assert board_colours(1) == [BLACK]
    assert board_colours(4) == [BLACK, WHITE, BLACK, WHITE]
    with pytest.raises(PairingError, match="1 to 16 boards, not 0"):
        board_colours(0)


def test_a_line_up_keeps_the_roster_order_and_leaves_only_the_last_boards_empty():
    assert lineup_problems(ROSTER, ["ann", "carl", "dirk", "finn"], 4) == []  # reserves skipped
    assert lineup_problems(ROSTER, ["bert", "carl", None, None], 4) == []
    assert shown(lineup_problems(ROSTER, ["carl", "bert", "dirk", "eva"], 4)) == [
        "bert is above carl on the roster, so plays a higher board"
    ]
    assert shown(lineup_problems(ROSTER, ["ann", None, "carl", "dirk"], 4)) == [
        "board 3 is filled below an empty board; leave the last boards empty"
    ]
    assert shown(lineup_problems(ROSTER, ["ann", "zoe", "ann", "dirk"], 4)) == [
        "not on the team's roster: zoe",
        "on two boards: ann",
    ]
    assert shown(lineup_problems(ROSTER, ["ann", "bert"], 4)) == [
        "the line-up names 2 boards; the match has 4"
    ]


@pytest.mark.parametrize("seed", range(20))
def test_any_choice_of_players_in_roster_order_stands(seed):
    """Every subset of the roster put on the boards in roster order, the rest empty at the
    bottom, stands; any swap of two placed players is refused."""
    rng = random.Random(seed)
    boards = rng.randint(1, 6)
    chosen = sorted(rng.sample(range(len(ROSTER)), rng.randint(0, boards)))
    lineup = [ROSTER[i] for i in chosen] + [None] * (boards - len(chosen))
    assert lineup_problems(ROSTER, lineup, boards) == []
    if len(chosen) >= 2:
        i, j = sorted(rng.sample(range(len(chosen)), 2))
        swapped = list(lineup)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert any("on the roster" in str(p) for p in lineup_problems(ROSTER, swapped, boards))


def test_empty_boards_are_forfeits_from_each_boards_black():
    # the first team is Black on boards 1 and 3
    assert lineup_results(["a", "b", "c", None], ["w", "x", None, None]) == [
        None,
        None,
        "+-",  # board 3: the first team's Black is there, the second's White is not
        "--",
    ]
    assert lineup_results(["a", None], ["w", "x"]) == [None, "+-"]  # board 2: Black is team 2's
    with pytest.raises(PairingError, match="line-ups of 2 and 3 boards"):
        lineup_results(["a", "b"], ["w", "x", "y"])


def test_game_points_and_match_points_from_the_first_teams_side():
    # board 1 first team Black wins; board 2 first team White, Black (team 2) wins; board 3 draw;
    # board 4 first team White: "-+" is the first team's forfeit win
    score = team_match_score(["1-0", "1-0", "1/2-1/2", "-+"])
    assert score == TeamMatchScore(first=2.5, second=1.5, finished=4, played=3, boards=4)
    assert score.match_points() == (2.0, 0.0)
    assert team_match_score(["1-0", "1-0"]).match_points(TeamScoring(3, 1, 0)) == (1, 1)
    assert team_match_score(["0-1", "1-0"]).match_points() == (0.0, 2.0)  # both lost
    unfinished = team_match_score(["1-0", ""])
    assert (unfinished.complete, unfinished.match_points()) == (False, None)
    assert team_match_score(["--", "--"]) == TeamMatchScore(0, 0, 2, 0, 2)
    three = team_match_score(["1-0", "0-1"], Scoring(win=3, draw=1, loss=0))
    assert (three.first, three.second) == (6, 0)
    with pytest.raises(PairingError, match="board 2: unknown result"):
        team_match_score(["1-0", "2-0"])


@pytest.mark.parametrize("results", list(itertools.product(["1-0", "0-1", "1/2-1/2"], repeat=4)))
def test_every_four_board_outcome_sums_to_four(results):
    score = team_match_score(list(results))
    assert score.first + score.second == 4
    first, second = score.match_points()
    assert first + second == 2
    assert (first > second) == (score.first > score.second)


@pytest.mark.parametrize("teams", [4, 5, 6, 8])
def test_a_team_round_robin_alternates_board_ones_colour(teams):
    """A team round-robin is the Berger tables with teams for players: each pair of teams meets
    once, and most teams have board 1's Black (the tables' first mover) in alternate rounds,
    so over the event their board-1 colours balance within one."""
    rounds = berger_rounds(teams)
    met = set()
    first_count = {team: 0 for team in range(1, teams + 1)}
    for number in range(1, rounds + 1):
        for first, second in berger_pairings(teams, number):
            if second is None:
                continue
            pair = frozenset((first, second))
            assert pair not in met
            met.add(pair)
            first_count[first] += 1
    assert len(met) == teams * (teams - 1) // 2
    played = rounds - (1 if teams % 2 else 0)
    for count in first_count.values():
        assert abs(count - (played - count)) <= 2


@pytest.mark.parametrize(
    ("results", "came"),
    [
        (("1-0", "0-1"), (True, True)),
        (("+-", "-+"), (True, False)),  # board 2's White is the first team
        (("-+", "+-"), (False, True)),
        (("--", "--"), (False, False)),
        (("+-", "+-"), (True, True)),
        (("", "--"), (False, False)),
        (("--", ""), (False, False)),
    ],
)
def test_a_team_came_when_one_of_its_players_was_at_a_board(results, came):
    assert team_presence(results) == came


def test_presence_refuses_an_unknown_result():
    with pytest.raises(PairingError):
        team_presence(("2-0",))
