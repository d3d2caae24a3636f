"""Team standings on hand-made events: the scores, a match forfeited as a whole and the bye,
the board criteria, and bad input."""

import pytest

from tournaments.pairing.model import PairingError
from tournaments.pairing.team_swiss import TeamMatchRecord
from tournaments.tiebreaks.team import TeamStandingsInput, compute_team_standings, team_rounds

TEAMS = ((1, "Ghent"), (2, "Liege"), (3, "Namur"), (4, "Mons"))


def first(*points):
    """Board results (from each board's Black's side) giving the first team ``points`` on
    each board: the first team has Black on the odd boards, White on the even ones."""
    black = {1: "1-0", 0.5: "1/2-1/2", 0: "0-1"}
    white = {1: "0-1", 0.5: "1/2-1/2", 0: "1-0"}
    return tuple(
        (black if board % 2 else white)[value] for board, value in enumerate(points, start=1)
    )


def data(*matches, boards=4, **more):
    return TeamStandingsInput(TEAMS, boards, tuple(matches), total_rounds=3, **more)


def test_match_and_game_points_forfeits_and_the_bye():
    rounds = team_rounds(
        data(
            # Ghent (Black on board 1) 2½-1½ Liege; board 4 forfeited by Ghent
            TeamMatchRecord(1, 1, 2, ("1-0", "1/2-1/2", "1-0", "+-")),
            # Mons did not come: Namur wins the match by forfeit
            TeamMatchRecord(1, 3, 4, ("+-", "-+", "+-", "-+")),
            TeamMatchRecord(2, 1, None),
        )
    )
    ghent, liege = rounds[1][1], rounds[2][1]
    assert (ghent.result, ghent.match_points, ghent.game_points) == ("1", 2.0, 2.5)
    assert (liege.result, liege.match_points, liege.game_points) == ("0", 0.0, 1.5)
    # board 4: White is Ghent's (colours alternate by board), "+-" is Liege's forfeit win
    assert ghent.board_points == (1.0, 0.5, 1.0, 0.0) and liege.board_points[3] == 1.0
    assert ghent.boards_played == (True, True, True, False)
    namur, mons = rounds[3][1], rounds[4][1]
    assert (namur.result, namur.match_points, namur.game_points) == ("+", 2.0, 4.0)
    assert (mons.result, mons.match_points, mons.game_points) == ("-", 0.0, 0.0)
    bye = rounds[1][2]
    assert (bye.opponent, bye.result, bye.match_points, bye.game_points) == (None, "U", 1.0, 2.0)


def test_board_count_ranks_points_on_the_higher_boards_first():
    matches = (
        # both win 3-1 on game points: Ghent on boards 1-3, Namur on boards 2-4
        TeamMatchRecord(1, 1, 2, first(1, 1, 1, 0)),
        TeamMatchRecord(1, 3, 4, first(0, 1, 1, 1)),
    )
    rows = compute_team_standings(data(*matches), ["secondary_score", "board_count"])
    assert [(row.number, row.values["board_count"]) for row in rows[:2]] == [(1, 6.0), (3, 9.0)]
    # the top-board result and the elimination of the lowest boards agree here
    for order in (["top_board"], ["board_elimination"]):
        assert [row.number for row in compute_team_standings(data(*matches), order)][:2] == [1, 3]


def test_a_tie_the_board_criteria_cannot_break_is_a_shared_rank():
    matches = (
        TeamMatchRecord(1, 1, 2, ("1/2-1/2",) * 4),
        TeamMatchRecord(1, 3, 4, ("1/2-1/2",) * 4),
    )
    rows = compute_team_standings(data(*matches), ["top_board", "board_elimination"])
    assert {row.rank for row in rows} == {1}


def test_game_points_first_rank_by_game_points():
    matches = (
        TeamMatchRecord(1, 1, 2, first(1, 1, 1, 1)),  # 4-0
        TeamMatchRecord(1, 3, 4, first(1, 1, 0.5, 0.5)),  # 3-1
        TeamMatchRecord(2, 1, 3, first(0, 1, 0, 0.5)),  # Ghent 1½-2½ Namur
        TeamMatchRecord(2, 2, 4, ("1/2-1/2",) * 4),
    )
    by_match = compute_team_standings(data(*matches), [])
    by_game = compute_team_standings(data(*matches, primary="game"), [])
    assert [(row.number, row.match_points) for row in by_match[:2]] == [(3, 4.0), (1, 2.0)]
    assert [(row.number, row.game_points) for row in by_game[:2]] == [(1, 5.5), (3, 5.5)]
    assert by_game[0].rank == by_game[1].rank == 1


def test_bad_input_is_refused():
    with pytest.raises(PairingError, match="unknown team tie-break"):
        compute_team_standings(data(), ["koya"])
    with pytest.raises(PairingError, match="not in the event"):
        compute_team_standings(data(TeamMatchRecord(1, 1, 9, ("1-0",) * 4)), [])
    with pytest.raises(PairingError, match="match or game"):
        compute_team_standings(data(primary="board"), [])
