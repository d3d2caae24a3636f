"""The search solves tactics (issue 17): a push-off that wins now is played, and a winning
push-off threat is stopped, over a wide generated set (games.engine.tactics) whose answers are
checked here with the game rules (``Game`` decides who won), never with the search.

The searches run with the budget the issue names (3 s); a won position returns at depth 1, the
defences use their time, so those run on all cores at once.
"""

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

from games.engine import Game, Position, apply_move, legal_moves
from games.engine.levels import best_move
from games.engine.position import opponent
from games.engine.tactics import (
    DEFEND,
    HAND_BUILT,
    WIN,
    classify,
    generate,
    hand_built_tactics,
    saving_moves,
)

COUNT = 64
WINS = generate(WIN, COUNT, seed=0)
BLITZ_WINS = generate(WIN, 16, seed=1, marbles_to_win=4)
DEFENCES = generate(DEFEND, COUNT, seed=0)


def ids(tactics):
    return [t.source for t in tactics]


def game_from(tactic) -> Game:
    return Game(tactic.position, marbles_to_win=tactic.marbles_to_win)


def mover_wins_with(tactic, notation: str) -> bool:
    game = game_from(tactic)
    mover = game.side_to_move
    game.play(notation)
    return game.is_over and game.winner == mover


def opponent_can_win_after(tactic, notation: str) -> bool:
    """By the rules alone: after the mover's move, some reply of the other side ends the game
    in its favour."""
    game = game_from(tactic)
    mover = game.side_to_move
    game.play(notation)
    if game.is_over:
        return False
    for reply in legal_moves(game.position):
        trial = game_from(tactic)
        trial.play(notation)
        trial.play(reply)
        if trial.is_over and trial.winner == opponent(mover):
            return True
    return False


# --- the generated set is what it claims to be -------------------------------------------------


def test_the_sets_are_large_distinct_and_repeatable():
    for tactics, count in ((WINS, COUNT), (DEFENCES, COUNT), (BLITZ_WINS, 16)):
        assert len(tactics) == count
        assert len({t.position for t in tactics}) == count
    again = generate(DEFEND, COUNT, seed=0)
    assert [t.position for t in again] == [t.position for t in DEFENCES]
    assert [t.position for t in generate(WIN, COUNT, seed=3)] != [t.position for t in WINS]


@pytest.mark.parametrize("tactics", [WINS, DEFENCES], ids=["win", "defend"])
def test_the_sets_are_varied(tactics):
    sources = {t.source.split()[0] for t in tactics}
    assert {"standard", "belgian", "german", "scattered", "hand:"} <= sources
    movers = [t.position.side_to_move for t in tactics]
    assert movers.count("b") >= COUNT // 4 and movers.count("w") >= COUNT // 4
    both_lost = [t for t in tactics if min(t.position.pushed_off("b"), t.position.pushed_off("w"))]
    assert len(both_lost) >= COUNT // 4
    assert len({t.legal for t in tactics}) >= 10


def test_the_defences_include_hard_ones_and_traps():
    hard = [t for t in DEFENCES if len(t.answers) <= 2 and t.legal >= 20]
    assert len(hard) >= COUNT // 4
    assert any(len(t.answers) == 1 for t in DEFENCES)
    assert sum(t.trap for t in DEFENCES) >= 3  # a push-off that does not save is on offer


def test_every_hand_built_position_is_the_kind_it_says():
    tactics = hand_built_tactics()
    assert len(tactics) == 4 * len(HAND_BUILT)
    assert {t.kind for t in tactics} == {WIN, DEFEND}
    assert {t.position.side_to_move for t in tactics} == {"b", "w"}


@pytest.mark.parametrize("tactic", WINS + BLITZ_WINS, ids=ids(WINS + BLITZ_WINS))
def test_a_win_answer_is_every_push_off_and_each_wins_the_game(tactic):
    offs = {m.notation for m in legal_moves(tactic.position) if m.pushed_off}
    assert tactic.answers == offs
    for notation in sorted(tactic.answers)[:3]:
        assert mover_wins_with(tactic, notation)
    quiet = [m.notation for m in legal_moves(tactic.position) if not m.pushed_off]
    assert not mover_wins_with(tactic, quiet[0])


@pytest.mark.parametrize("tactic", DEFENCES, ids=ids(DEFENCES))
def test_a_defence_answer_is_exactly_a_move_that_stops_every_winning_reply(tactic):
    moves = [m.notation for m in legal_moves(tactic.position)]
    assert not any(mover_wins_with(tactic, notation) for notation in moves)
    assert 0 < len(tactic.answers) < len(moves)
    for notation in moves:
        assert opponent_can_win_after(tactic, notation) == (notation not in tactic.answers)


def test_a_position_with_no_saving_move_or_nothing_at_stake_is_no_tactic():
    # Black has lost five and both e1 and i9 hang: no move saves both
    lost = Position.from_string("b|e1,i9,a2,a3,b2,b3,c2,c3,c4|e2,e3,g7,h8,e6,f6,f7,g6,d4,d5,d6,e7")
    assert saving_moves(lost) == [] and classify(lost) is None
    assert classify(Position.from_string("b|a1,a2|i9")) is None  # a finished game
    from games.engine import start_position

    assert classify(start_position("belgian")) is None


# --- the search solves them ---------------------------------------------------------------------


@pytest.mark.parametrize("tactic", WINS + BLITZ_WINS, ids=ids(WINS + BLITZ_WINS))
def test_level_8_plays_the_winning_push_off_at_once(tactic):
    result = best_move(tactic.position, level=8, seconds=3, marbles_to_win=tactic.marbles_to_win)
    assert result.move.notation in tactic.answers
    assert mover_wins_with(tactic, result.move.notation)
    assert result.depth == 1  # a won game ends the search: nothing deeper is tried


@pytest.mark.parametrize("level", [3, 4, 5, 6, 7])
def test_every_searching_level_plays_the_winning_push_off(level):
    import random

    for tactic in WINS + BLITZ_WINS:
        result = best_move(
            tactic.position,
            level=level,
            seconds=3,
            marbles_to_win=tactic.marbles_to_win,
            rng=random.Random(level),
        )
        assert result.move.notation in tactic.answers, tactic.source


def test_level_8_stops_every_threat_in_3_seconds():
    workers = max(2, os.cpu_count() or 2)
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = [
            pool.submit(
                best_move,
                tactic.position,
                level=8,
                seconds=3,
                marbles_to_win=tactic.marbles_to_win,
            )
            for tactic in DEFENCES
        ]
        played = [future.result().move.notation for future in futures]
    wrong = [
        (tactic.source, tactic.position.to_string(), move)
        for tactic, move in zip(DEFENCES, played, strict=True)
        if move not in tactic.answers
    ]
    assert wrong == []


def test_the_command_line_solves_tactics_in_3_seconds():
    cases = [WINS[0], WINS[-1], DEFENCES[0], DEFENCES[-1], BLITZ_WINS[-1]]
    cases += [
        next(t for t in WINS if t.position.side_to_move == "w" and t.source.startswith("bel")),
        next(t for t in DEFENCES if t.position.side_to_move == "w" and len(t.answers) <= 2),
    ]
    runs = []
    for tactic in cases:
        args = ["bestmove", tactic.position.to_string(), "--seconds", "3"]
        if tactic.marbles_to_win != 6:
            args += ["--marbles-to-win", str(tactic.marbles_to_win)]
        runs.append(
            subprocess.Popen(
                [sys.executable, "-m", "games.engine", *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for tactic, run in zip(cases, runs, strict=True):
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        move, after = out.strip().splitlines()[-1].split(" ")
        assert move in tactic.answers, tactic.source
        assert Position.from_string(after) == apply_move(tactic.position, move)[0]
