"""The command line, run as a real subprocess from the repository root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Position, apply_move, parse_move, start_position

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("start", "depth", "count"),
    [
        ("standard", "2", "1936"),
        ("belgian", "1", "52"),
        ("german", "2", "6244"),
        ("standard", "0", "1"),
    ],
)
def test_perft(start, depth, count):
    result = run("perft", start, depth)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{count}\n"


def test_perft_of_a_position_string():
    result = run("perft", start_position("belgian").to_string(), "2")
    assert result.stdout == "2692\n"


def test_moves_lists_every_move_with_the_resulting_position():
    result = run("moves", "standard")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 44 and lines == sorted(lines)
    start = start_position("standard")
    for line in lines:
        notation, position_text = line.split(" ")
        assert apply_move(start, parse_move(start, notation))[0] == Position.from_string(
            position_text
        )


def test_moves_of_a_custom_position():
    result = run("moves", "w|a1|e4,e5")
    assert result.returncode == 0
    assert "e4e5 b|a1|e5,e6" in result.stdout.splitlines()


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("dance",),
        ("perft",),
        ("perft", "standard"),
        ("perft", "standard", "two"),
        ("perft", "standard", "-1"),
        ("perft", "dutch", "1"),
        ("perft", "b|a1,a1|i9", "1"),
        ("moves",),
        ("moves", "standard", "extra"),
        ("moves", "x|a1|i9"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and "usage:" in result.stderr


#: Black, three marbles up (White's i8, i9 and h9 are off), to move; no marble touches another
#: side's, so every move is quiet and can be played back.
AHEAD = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,c4,c5|g5,g6,g7,h4,h5,h6,h7,h8,i5,i6,i7"


def there_and_back(position: Position, first: str) -> list[str]:
    """``first``, an answer, and both played back: four moves that lead to ``position`` again."""
    after, _ = apply_move(position, parse_move(position, first))
    for answer in after.legal_moves():
        later, _ = apply_move(after, answer)
        for back in later.legal_moves():
            last, _ = apply_move(later, back)
            if last.black_cells != position.black_cells:
                continue
            for answer_back in last.legal_moves():
                if apply_move(last, answer_back)[0] == position:
                    return [first, answer.notation, back.notation, answer_back.notation]
    raise AssertionError("no way back")


def test_bestmove_sees_a_repetition_in_the_moves_played_and_in_a_record():
    from games.engine import Game, write_record

    alone = run("bestmove", AHEAD, "--seconds", "1")
    assert alone.returncode == 0, alone.stderr
    first = alone.stdout.split()[-2]
    moves = there_and_back(Position.from_string(AHEAD), first)
    # the same position, now with a history in which ``first`` leads: a draw, which Black
    # (ahead) avoids
    again = run("bestmove", AHEAD, "--moves", ",".join(moves), "--seconds", "1")
    assert again.returncode == 0, again.stderr
    assert again.stdout.split()[-2] != first
    game = Game(AHEAD)
    for notation in moves:
        game.play(notation)
    assert game.position == Position.from_string(AHEAD)
    record = subprocess.run(
        [sys.executable, "-m", "games.engine", "bestmove", "--record", "-", "--seconds", "1"],
        cwd=REPO_ROOT,
        input=write_record(game, {}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert record.returncode == 0, record.stderr
    assert record.stdout.split()[-2] != first
    analysed = run("analyse", AHEAD, "--moves", " ".join(moves), "--seconds", "1")
    assert analysed.returncode == 0, analysed.stderr
    assert analysed.stdout.splitlines()[-1].split()[1] != first


@pytest.mark.parametrize(
    "args",
    [
        ("bestmove", "standard", "--record", "-"),
        ("bestmove", "--record", "-", "--moves", "a1b2"),
        ("bestmove", "standard", "--moves", "a1b2,a1b2"),
        ("bestmove", "--record", "/no/such/record"),
        ("analyse", "standard", "--max-plies", "0"),
    ],
)
def test_bad_games_for_bestmove_exit_2_with_a_message(args):
    result = run(*args)
    assert result.returncode == 2 and result.stderr.startswith("error: ")


def test_help_names_the_game_options():
    result = run("--help")
    assert result.returncode == 0
    assert "--moves" in result.stdout and "--record" in result.stdout
