"""Who goes through a team cup's match (tournaments.pairing.team_cup): game points, then
board-by-board elimination, then an Armageddon game, the higher seed or the lot; forfeits; both
teams out. Pure."""

import random

import pytest

from tournaments.pairing import knockout
from tournaments.pairing.model import BLACK, PairingError
from tournaments.pairing.team_cup import (
    BY_ELIMINATION,
    BY_FORFEIT,
    BY_GAME_POINTS,
    FIRST,
    PLAY_ARMAGEDDON,
    SECOND,
    armageddon_first,
    team_cup_decision,
)
from tournaments.pairing.teams import board_colours, team_match_score

# Results are from each board's Black's side; the first team has Black on boards 1, 3, ...
WIN_FIRST = {1: "1-0", 2: "0-1"}  # by the board's parity: 1 odd, 2 even
LOSS_FIRST = {1: "0-1", 2: "1-0"}
DRAW = "1/2-1/2"


def won(board: int) -> str:
    return WIN_FIRST[2 - board % 2]


def lost(board: int) -> str:
    return LOSS_FIRST[2 - board % 2]


def test_more_game_points_go_through():
    decision = team_cup_decision([won(1), lost(2), won(3), DRAW], knockout.LOT)
    assert (decision.stage, decision.winner, decision.by) == (
        knockout.DECIDED,
        FIRST,
        BY_GAME_POINTS,
    )
    decision = team_cup_decision([lost(1), lost(2), won(3), DRAW], knockout.HIGHER_SEED)
    assert (decision.winner, decision.by) == (SECOND, BY_GAME_POINTS)


def test_a_tie_goes_to_the_team_ahead_without_the_last_boards():
    # 2-2: the first team won board 1 and lost board 4: without board 4 it leads
    decision = team_cup_decision([won(1), DRAW, DRAW, lost(4)], knockout.LOT)
    assert (decision.winner, decision.by) == (FIRST, BY_ELIMINATION)
    # the second team won board 2, the first board 4; boards 1-3 alone: the second leads
    decision = team_cup_decision([DRAW, lost(2), DRAW, won(4)], knockout.HIGHER_SEED)
    assert (decision.winner, decision.by) == (SECOND, BY_ELIMINATION)
    # equal down to board 2, board 1 decides
    decision = team_cup_decision([lost(1), won(2), DRAW, DRAW], knockout.HIGHER_SEED)
    assert (decision.winner, decision.by) == (SECOND, BY_ELIMINATION)


def test_still_tied_the_higher_seed_or_the_lot():
    every_draw = [DRAW] * 4
    assert team_cup_decision(every_draw, knockout.HIGHER_SEED) == team_cup_decision(
        every_draw, knockout.HIGHER_SEED, lot=SECOND
    )
    decision = team_cup_decision(every_draw, knockout.HIGHER_SEED)
    assert (decision.winner, decision.by) == (FIRST, knockout.HIGHER_SEED)
    assert team_cup_decision(every_draw, knockout.LOT).stage == knockout.DRAW_LOTS
    decision = team_cup_decision(every_draw, knockout.LOT, lot=SECOND)
    assert (decision.stage, decision.winner, decision.by) == (
        knockout.DECIDED,
        SECOND,
        knockout.LOT,
    )
    # a lot entered for a match decided on the boards changes nothing
    assert team_cup_decision([won(1), DRAW, DRAW, DRAW], knockout.LOT, lot=SECOND).winner == FIRST


def test_forfeits_and_a_match_nobody_came_to():
    # the second team sent nobody: every board forfeited to the first
    decision = team_cup_decision(["+-", "-+", "+-", "-+"], knockout.LOT)
    assert (decision.winner, decision.by) == (FIRST, BY_FORFEIT)
    decision = team_cup_decision(["-+", "+-"], knockout.LOT)
    assert (decision.winner, decision.by) == (SECOND, BY_FORFEIT)
    assert team_cup_decision(["--"] * 4, knockout.HIGHER_SEED).stage == knockout.BOTH_OUT
    # one board left empty by the second team counts as a won board for the first
    decision = team_cup_decision(["+-", won(2), DRAW, lost(4)], knockout.LOT)
    assert (decision.winner, decision.by) == (FIRST, BY_GAME_POINTS)


def test_a_match_in_play_is_not_decided():
    assert team_cup_decision([won(1), "", DRAW, DRAW], knockout.LOT).stage == knockout.PLAY


def test_still_tied_an_armageddon_game_decides_a_draw_going_to_its_second_mover():
    # four boards: the Armageddon is board 5, the first team Black (the first mover) on it
    tied = [DRAW] * 4  # 2-2, and equal down to board 1: every board drawn
    assert team_cup_decision(tied, knockout.ARMAGEDDON).stage == PLAY_ARMAGEDDON
    assert armageddon_first(4) == FIRST
    for result, winner in (("1-0", FIRST), ("+-", FIRST), ("0-1", SECOND), ("-+", SECOND)):
        decision = team_cup_decision(tied, knockout.ARMAGEDDON, armageddon=result)
        assert (decision.stage, decision.winner, decision.by) == (
            knockout.DECIDED,
            winner,
            knockout.ARMAGEDDON_GAME,
        )
    # a draw goes to the second mover: here the second team
    assert team_cup_decision(tied, knockout.ARMAGEDDON, armageddon=DRAW).winner == SECOND
    # three boards: the Armageddon is board 4, the first team White: the draw is the first's
    assert armageddon_first(3) == SECOND
    three = [DRAW, DRAW, DRAW]
    assert team_cup_decision(three, knockout.ARMAGEDDON, armageddon=DRAW).winner == FIRST
    assert team_cup_decision(three, knockout.ARMAGEDDON, armageddon="1-0").winner == SECOND
    # both forfeit it: both out
    assert team_cup_decision(three, knockout.ARMAGEDDON, armageddon="--").stage == (
        knockout.BOTH_OUT
    )
    # a match decided on its boards, or by elimination, has no Armageddon game to wait for
    decision = team_cup_decision([won(1), DRAW, DRAW, DRAW], knockout.ARMAGEDDON)
    assert (decision.winner, decision.by) == (FIRST, BY_GAME_POINTS)
    decision = team_cup_decision([won(1), lost(2), DRAW, DRAW], knockout.ARMAGEDDON)
    assert (decision.winner, decision.by) == (FIRST, BY_ELIMINATION)
    assert team_cup_decision([DRAW, "", DRAW], knockout.ARMAGEDDON).stage == knockout.PLAY


@pytest.mark.parametrize("seed", range(40))
def test_the_armageddon_s_winner_by_its_colours(seed):
    """Any number of boards, any result: the winner is the team holding the colour the result
    names (board N+1's colour by the boards' alternation), a draw its White's."""
    rng = random.Random(seed)
    boards = rng.randint(1, 10)
    result = rng.choice(["1-0", "0-1", DRAW, "+-", "-+"])
    black_team = FIRST if board_colours(boards + 1)[boards] == BLACK else SECOND
    white_team = SECOND if black_team == FIRST else FIRST
    expected = black_team if result in ("1-0", "+-") else white_team
    decision = team_cup_decision([DRAW] * boards, knockout.ARMAGEDDON, armageddon=result)
    assert decision.winner == expected


def test_refusals():
    with pytest.raises(PairingError):
        team_cup_decision([DRAW] * 4, "coin")
    with pytest.raises(PairingError):
        team_cup_decision([DRAW] * 4, knockout.ARMAGEDDON, armageddon="2-0")
    with pytest.raises(PairingError):
        team_cup_decision([DRAW] * 4, knockout.LOT, lot="black")
    with pytest.raises(PairingError):
        team_cup_decision(["2-0"] * 4, knockout.LOT)


def _first_points(results: list[str], kept: int) -> tuple[float, float]:
    """The two teams' points on boards 1..kept, counted board by board from each board's
    Black (an independent count of what the engine reads)."""
    first = second = 0.0
    points = {"1-0": (1, 0), "0-1": (0, 1), DRAW: (0.5, 0.5), "+-": (1, 0), "-+": (0, 1)}
    for colour, result in zip(board_colours(len(results))[:kept], results[:kept], strict=True):
        black, white = points.get(result, (0, 0))
        if colour == BLACK:
            first, second = first + black, second + white
        else:
            first, second = first + white, second + black
    return first, second


@pytest.mark.parametrize("seed", range(200))
def test_generated_matches(seed):
    """Every decision against an independent count: the winner leads on all boards, or, tied
    there, on the longest run of first boards where the two differ; else the last word."""
    rng = random.Random(seed)
    boards = rng.randint(1, 8)
    results = [rng.choice(["1-0", "0-1", DRAW, DRAW, DRAW]) for _ in range(boards)]
    decider = rng.choice([knockout.HIGHER_SEED, knockout.LOT])
    decision = team_cup_decision(results, decider)
    score = team_match_score(results)
    assert (score.first, score.second) == _first_points(results, boards)
    differing = [
        kept for kept in range(boards, 0, -1) if len(set(_first_points(results, kept))) == 2
    ]
    if not differing:
        assert decision.stage == (
            knockout.DECIDED if decider == knockout.HIGHER_SEED else knockout.DRAW_LOTS
        )
        assert decision.winner in ("", FIRST)
        return
    kept = differing[0]
    first, second = _first_points(results, kept)
    assert decision.stage == knockout.DECIDED
    assert decision.winner == (FIRST if first > second else SECOND)
    assert decision.by == (BY_GAME_POINTS if kept == boards else BY_ELIMINATION)
