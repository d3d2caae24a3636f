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
