"""The computer opponent's search (games.engine.search): tactics in every orientation of the
board, defence against a winning push-off, the incremental hash, stopping, levels, the CLI."""

import random
import subprocess
import sys
import threading
import time
from itertools import pairwise

import pytest

from games.engine import Position, apply_move, start_position
from games.engine.board import symmetry_maps
from games.engine.evaluation import (
    WIN,
    ZOBRIST_SIDE,
    evaluate,
    ordered_moves,
    zobrist,
    zobrist_delta,
)
from games.engine.levels import LEVELS, best_move
from games.engine.search import CONTEMPT, MATE_BOUND, Searcher, _from_table, _to_table

#: Black to move pushes White's sixth marble off: e3 e2 push e1 off the west edge.
WIN_NOW = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,e2,e3|e1,h5,h6,h7,i5,i6,i7,i8,i9"
#: Black has lost five; White threatens e3e2 pushing Black's e1 off: Black must answer.
DEFEND = "b|e1,h5,h6,h7,i5,i6,i7,i8,i9|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,e2,e3"


#: Black, a marble up, to move in a quiet middle game (30 random plies from the Belgian start).
AHEAD = "b|a2,b2,b4,c2,c3,d4,d5,e6,g6,g8,h8,h9,i7,i9|a3,a4,a5,c7,d7,e9,f5,f7,g4,h4,h6,i5,i6,i8"


def transformed(text: str, mapping: dict[str, str]) -> Position:
    position = Position.from_string(text)
    return Position.from_cells(
        position.side_to_move,
        [mapping[c] for c in position.black_cells],
        [mapping[c] for c in position.white_cells],
    )


def winning_push_offs(position: Position, marbles_to_win: int = 6) -> list[str]:
    own, opp = position.own_and_opponent_bits()
    offs = ordered_moves(own, opp)[0]
    other = position.white_cells if position.side_to_move == "b" else position.black_cells
    return [m.notation for m in offs if 14 - len(other) + 1 >= marbles_to_win]


@pytest.mark.parametrize("mapping", symmetry_maps(), ids=lambda m: f"a1->{m['a1']},e1->{m['e1']}")
def test_the_sixth_push_off_is_found_in_every_orientation(mapping):
    position = transformed(WIN_NOW, mapping)
    wins = winning_push_offs(position)
    assert wins, "the tactic must survive the symmetry"
    result = best_move(position, level=8, seconds=3)
    assert result.move.notation in wins
    after, outcome = apply_move(position, result.move)
    assert outcome.is_push_off and after.pushed_off("w") == 6


@pytest.mark.parametrize("mapping", symmetry_maps()[::3], ids=lambda m: f"a1->{m['a1']}")
def test_a_winning_push_off_threat_is_stopped(mapping):
    position = transformed(DEFEND, mapping)
    threat = winning_push_offs(position.with_side_to_move("w"))
    assert threat
    result = best_move(position, level=8, seconds=3)
    after, _ = apply_move(position, result.move)
    assert winning_push_offs(after) == []


def test_a_search_stopped_after_its_first_depth_still_stops_the_threat():
    searcher = Searcher()
    position = Position.from_string(DEFEND)

    def stop_after_the_first(iteration) -> None:
        searcher.stop()

    result = searcher.search(position, seconds=30, on_iteration=stop_after_the_first)
    assert result.depth == 1 and len(result.iterations) == 1
    after, _ = apply_move(position, result.move)
    assert winning_push_offs(after) == []


def test_won_and_lost_scores_count_the_plies_to_the_end():
    won = Searcher().search(Position.from_string(WIN_NOW), seconds=3)
    assert won.score == WIN - 1 and won.depth == 1
    # White to move cannot stop both threats: Black pushes e1 or i9 off whatever it does
    doomed = Position.from_string(
        "w|e2,e3,g7,h8,e6,f6,f7,g6,d4,d5,d6,e7|e1,i9,a2,a3,b2,b3,c2,c3,c4"
    )
    lost = Searcher().search(doomed, seconds=3)
    assert lost.score == -WIN + 2
    for ply in (1, 5, 30):
        for score in (WIN - 3, -WIN + 7, 1234, -MATE_BOUND + 1):
            assert _from_table(_to_table(score, ply), ply) == score
    assert _to_table(WIN - 3, 2) == WIN - 1  # a win in one more ply from that node


def test_the_incremental_hash_is_the_hash_of_the_position():
    rng = random.Random(4)
    for start in ("standard", "belgian", "german"):
        position = start_position(start)
        key = zobrist(position)
        for _ in range(60):
            own, opp = position.own_and_opponent_bits()
            offs, others, quiet = ordered_moves(own, opp)
            moves = offs + others + quiet
            if not moves:
                break
            move = rng.choice(offs or moves)
            colour = 0 if position.side_to_move == "b" else 1
            key ^= (
                zobrist_delta(colour, move.own_xor)
                ^ zobrist_delta(1 - colour, move.opp_xor)
                ^ ZOBRIST_SIDE
            )
            position, _ = apply_move(position, move)
            assert key == zobrist(position)


def test_the_evaluation_is_antisymmetric_and_counts_marbles_first():
    rng = random.Random(9)
    position = start_position("belgian")
    for _ in range(40):
        own, opp = position.own_and_opponent_bits()
        assert evaluate(own, opp) == -evaluate(opp, own)
        position, _ = apply_move(position, rng.choice(position.legal_moves()))
    up = Position.from_string(WIN_NOW)
    own, opp = up.own_and_opponent_bits()
    assert evaluate(own, opp) > 4000  # five marbles up


def test_ordered_moves_are_the_legal_moves_push_offs_first():
    position = Position.from_string(WIN_NOW)
    offs, others, quiet = ordered_moves(*position.own_and_opponent_bits())
    assert sorted(m.notation for m in offs + others + quiet) == sorted(
        m.notation for m in position.legal_moves()
    )
    assert all(m.pushed_off for m in offs) and all(m.pushed and not m.pushed_off for m in others)
    assert not any(m.pushed for m in quiet)


def test_a_search_can_be_stopped_from_another_thread_and_still_answers():
    searcher = Searcher()
    timer = threading.Timer(0.3, searcher.stop)
    started = time.perf_counter()
    timer.start()
    result = searcher.search(start_position("german"), seconds=60)
    assert time.perf_counter() - started < 10
    assert result.move in start_position("german").legal_moves()


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_legal_move(level):
    position = start_position("standard")
    result = best_move(position, level=level, seconds=0.5, rng=random.Random(level))
    assert result.move in position.legal_moves()


def test_a_side_ahead_does_not_walk_back_into_an_earlier_position():
    position = Position.from_string(AHEAD)
    first = Searcher().search(position, seconds=30, max_depth=3)
    assert first.score > 500  # Black is a marble up
    seen, _ = apply_move(position, first.move)
    again = Searcher().search(position, seconds=30, max_depth=3, history=[seen])
    assert again.move != first.move and again.score > 500


def test_the_levels_grow_stronger_one_by_one():
    searching = [LEVELS[n] for n in range(3, 9)]
    assert LEVELS[1].depth == LEVELS[2].depth == 0  # random, then greedy one-ply
    assert all(a.depth <= b.depth for a, b in pairwise(searching))
    assert all(a.seconds < b.seconds for a, b in pairwise(searching))
    assert all(a.blunder >= b.blunder for a, b in pairwise(searching))
    assert LEVELS[8].blunder == 0 and LEVELS[8].depth > LEVELS[7].depth


def test_a_level_out_of_range_is_refused():
    with pytest.raises(ValueError):
        best_move(start_position("standard"), level=9)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args], capture_output=True, text=True, timeout=60
    )


def test_the_command_line_bestmove_and_analyse():
    done = run_cli("bestmove", WIN_NOW, "--seconds", "2")
    assert done.returncode == 0
    move, position = done.stdout.strip().splitlines()[-1].split(" ")
    assert move == "e3e2" and Position.from_string(position).pushed_off("w") == 6
    analysed = run_cli("analyse", "standard", "--seconds", "1")
    lines = analysed.stdout.strip().splitlines()
    assert analysed.returncode == 0 and lines[0].startswith("depth 1 score ")
    assert " pv " in lines[-2] and lines[-1].startswith("best ")
    for bad in (["bestmove", "standard", "--level", "0"], ["bestmove", "x|y"], ["analyse"]):
        refused = run_cli(*bad)
        assert refused.returncode == 2 and refused.stderr.startswith("error:")
    three = run_cli("bestmove", "three", "--seconds", "1")
    assert three.returncode == 0 and three.stdout.count("|") == 3


def test_a_side_ahead_scores_a_repetition_below_a_draw_and_a_side_behind_does_not():
    ahead = Position.from_string(AHEAD.replace(",i8", ""))  # Black, a marble up, to move
    behind = ahead.with_side_to_move("w")
    for position, draw in ((ahead, -CONTEMPT), (behind, 0)):
        # every move leads back into the game's history: the best is a repetition
        everything = [apply_move(position, move)[0] for move in position.legal_moves()]
        result = Searcher().search(position, seconds=30, max_depth=2, history=everything)
        assert result.score == draw


def test_the_move_cap_scores_as_a_draw_and_hurries_the_progress_terms():
    ahead = Position.from_string(AHEAD.replace(",i8", ""))
    capped = Searcher().search(ahead, seconds=30, max_depth=3, plies_left=1)
    assert capped.score == -CONTEMPT  # after one ply the game is drawn: less contempt, ahead
    far = Searcher().search(ahead, seconds=30, max_depth=3, plies_left=400)
    assert far.score > 500


def test_the_progress_terms_reward_the_side_ahead_for_the_rim_and_contact():
    # White is three marbles down; the same Black group, White's eleven in the centre or on
    # the rim: Black (ahead) scores the rim position higher, by more than the rings alone
    centre = Position.from_string(
        "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,c4,c5|d4,d5,d6,e4,e5,e6,e7,f5,f6,f7,g6"
    )
    rim = Position.from_string(
        "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,c4,c5|e1,f2,g3,h4,i5,i6,i7,i8,i9,h9,g9"
    )
    own_c, opp_c = centre.own_and_opponent_bits()
    own_r, opp_r = rim.own_and_opponent_bits()
    gain = evaluate(own_r, opp_r) - evaluate(own_c, opp_c)
    assert gain > 11 * (40 - -10) // 2
    assert evaluate(own_r, opp_r, 12) > evaluate(own_r, opp_r)  # urgent: the rim weighs more
    assert evaluate(opp_r, own_r, 12) == -evaluate(own_r, opp_r, 12)


class _NodeClock:
    """The search module's ``time`` on a clock that counts the searcher's nodes."""

    def __init__(self, searcher: Searcher, rate: int) -> None:
        self.searcher, self.rate = searcher, rate

    def perf_counter(self) -> float:
        return self.searcher.nodes / self.rate


@pytest.mark.parametrize("budget", [0.05, 0.3, 1.0])
def test_the_search_stops_at_its_deadline_inside_a_depth_and_starts_none_past_55_percent(
    monkeypatch, budget
):
    import games.engine.search as search_module

    searcher = Searcher()
    monkeypatch.setattr(search_module, "time", _NodeClock(searcher, rate=20_000))
    position = start_position("german")
    result = searcher.search(position, seconds=budget)
    allowed = budget * 20_000
    # abandoned at the first check past the deadline: at most one check interval over
    assert searcher.nodes <= allowed + search_module.CHECK_EVERY
    assert result.move in position.legal_moves() and result.depth >= 1
    for iteration in result.iterations[:-1]:
        assert iteration.nodes <= 0.55 * allowed  # a further depth started only before 55 %
