"""Which results with marbles can be (tournaments/result_rules.py, pure)."""

import pytest

from tournaments.result_rules import marbles_problem


@pytest.mark.parametrize(
    ("result", "black", "white", "to_win"),
    [
        ("1-0", None, None, 6),  # no marbles given
        ("1-0", 6, 0, 6),  # pushed off six: won on the board
        ("1-0", 6, 5, 6),
        ("1-0", 2, 5, 6),  # White resigned or lost on time ahead on marbles
        ("0-1", 3, 6, 6),
        ("0-1", 0, 0, 6),
        ("1/2-1/2", 5, 5, 6),
        ("1/2-1/2", 0, 0, 6),
        ("1-0", 4, 3, 4),  # blitz: four to win
        ("+-", None, None, 6),
    ],
)
def test_possible_results(result, black, white, to_win):
    assert marbles_problem(result, black, white, to_win) is None


@pytest.mark.parametrize(
    ("result", "black", "white", "to_win", "says"),
    [
        ("1-0", 2, 6, 6, "White reached 6 and would have won"),  # the example
        ("0-1", 6, 1, 6, "Black reached 6 and would have won"),
        ("1-0", 6, 6, 6, "would have won"),
        ("1/2-1/2", 6, 2, 6, "A draw with Black having pushed off 6"),
        ("1/2-1/2", 0, 4, 4, "A draw with White having pushed off 4"),
        ("1-0", 5, 2, 4, "Black cannot have pushed off 5"),
        ("0-1", 0, 7, 6, "White cannot have pushed off 7"),
        ("1-0", -1, 0, 6, "Black cannot have pushed off -1"),
        ("1-0", 6, None, 6, "by both players, or by neither"),
        ("+-", 0, 0, 6, "A forfeit has no marbles"),
        ("--", None, 3, 6, "A forfeit has no marbles"),
    ],
)
def test_impossible_results_name_the_rule(result, black, white, to_win, says):
    problem = marbles_problem(result, black, white, to_win)
    assert problem is not None and says in problem


def test_every_combination_is_judged_by_the_rules():
    for to_win in range(1, 7):
        for black in range(0, 7):
            for white in range(0, 7):
                for result in ("1-0", "0-1", "1/2-1/2"):
                    possible = black <= to_win and white <= to_win
                    if result == "1-0":
                        possible &= white < to_win
                    elif result == "0-1":
                        possible &= black < to_win
                    else:
                        possible &= black < to_win and white < to_win
                    problem = marbles_problem(result, black, white, to_win)
                    assert (problem is None) == possible, (result, black, white, to_win)
