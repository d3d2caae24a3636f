"""TRF-16 writing and reading, and the bbpPairings-style command line."""

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    RoundEntry,
    Scoring,
    read_trf,
    write_trf,
)

REPO = Path(__file__).resolve().parents[2]


def e(round_number, opponent, colour, result):
    return RoundEntry(round_number, opponent, colour, result)


def small_event() -> list[PairingPlayer]:
    """Two rounds of five players, with a forfeit, a bye and a requested bye for round 3."""
    return [
        PairingPlayer(1, "Anna Alpha", 2100, (e(1, 4, "b", "1"), e(2, 2, "w", "="))),
        PairingPlayer(2, "Bert Bravo", 2000, (e(1, 5, "w", "+"), e(2, 1, "b", "="))),
        PairingPlayer(3, "Cleo Charlie", 1900, (e(1, None, None, "U"), e(2, 4, "b", "0"))),
        PairingPlayer(
            4,
            "Dirk Delta",
            1800,
            (e(1, 1, "w", "0"), e(2, 3, "w", "1"), e(3, None, None, "H")),
            available=False,
        ),
        PairingPlayer(5, "Eva Echo", 0, (e(1, 2, "b", "-"), e(2, None, None, "U"))),
    ]


def test_write_trf_puts_every_field_in_its_fide_columns():
    text = write_trf("Club Cup", small_event(), total_rounds=5, rounds_played=2)
    lines = text.split("\n")
    assert text.endswith("\n") and "\r" not in text
    assert lines[0] == "012 Club Cup"
    players = [line for line in lines if line.startswith("001")]
    first = players[0]
    col = lambda line, a, b: line[a - 1 : b]  # noqa: E731 - 1-based inclusive columns
    assert col(first, 5, 8) == "   1"
    assert col(first, 15, 47).strip() == "Anna Alpha"
    assert col(first, 49, 52) == "2100"
    assert col(first, 81, 84) == " 1.5"
    assert col(first, 86, 89) == "   1"
    # Round 1: opponent 4, our Black (first mover) is TRF "w", a win.
    assert col(first, 92, 95) == "   4" and col(first, 97, 97) == "w" and col(first, 99, 99) == "1"
    # Round 2 block starts ten columns later; our White is TRF "b".
    assert col(first, 102, 105) == "   2" and col(first, 107, 107) == "b"
    assert col(first, 109, 109) == "="
    assert col(players[2], 92, 99) == "0000 - U"
    assert col(players[1], 92, 99) == "   5 b +"
    assert col(players[4], 49, 52) == "    "  # unrated
    # The unavailable player carries their round-3 bye, as bbpPairings expects.
    assert col(players[3], 112, 119) == "0000 - H"
    assert col(players[3], 81, 84) == " 1.5"
    assert "XXR 5" in lines and "XXC white1" in lines
    assert not any(line.startswith("XXS") for line in lines)  # default scoring: no XXS


def test_round_trip_keeps_players_history_and_settings():
    players = small_event()
    scoring = Scoring(win=3.0, draw=1.0, loss=0.0, pab=1.0)
    text = write_trf(
        "Club Cup",
        players,
        total_rounds=5,
        scoring=scoring,
        first_colour="w",
        forbidden_pairs=[(5, 3)],
    )
    back = read_trf(text)
    assert back.name == "Club Cup"
    assert back.total_rounds == 5
    assert back.first_colour == "w"
    assert back.forbidden_pairs == ((3, 5),)
    assert back.scoring == scoring
    assert back.rounds_played == 2 and back.next_round == 3
    assert back.players == tuple(players)


def test_read_trf_accepts_cr_line_ends_and_blank_ranks():
    text = write_trf("CR file", small_event(), total_rounds=5)
    lines = []
    for line in text.split("\n"):
        if line.startswith("001"):
            line = line[:85] + "    " + line[89:]  # blank the rank field
        lines.append(line)
    cr_text = "\r".join(lines)
    crlf_text = "\r\n".join(lines)
    for variant in (cr_text, crlf_text):
        back = read_trf(variant)
        assert back.players == tuple(small_event())


def test_real_files_byes_written_as_a_result_without_opponent_are_read_as_byes():
    """Issue 25: real TRF files with half-point byes written ``0000 - =`` were refused (a
    draw needs an opponent); ``0000 - 1`` and ``0000 - 0`` likewise stand for byes."""
    text = write_trf("Bye forms", small_event(), total_rounds=5)
    eva = next(line for line in text.split("\n") if line.startswith("001    5"))
    assert eva[101:109] == "0000 - U"  # her round 2
    for written, meant in (("=", "H"), ("1", "F"), ("0", "Z")):
        line = eva[:101] + f"0000 - {written}" + eva[109:]
        back = read_trf(text.replace(eva, line))
        history = next(p for p in back.players if p.number == 5).history
        assert history[1] == e(2, None, None, meant), written
    with pytest.raises(PairingError, match="line"):  # a draw with an opponent's colour unset
        read_trf(text.replace(eva, eva[:101] + "   9 - =" + eva[109:]))


def test_read_trf_reports_the_line_of_a_bad_entry():
    text = "012 Bad\n001    1      A                                 1500                             1.0    1     2 w 1\nXXR 3\n"
    with pytest.raises(PairingError, match="line 2"):
        read_trf(text.replace("    2 w 1", "    2 x 1"))


def run_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_cli_prints_bbppairings_format(tmp_path):
    # Round 1 of seven players written the Swiss-Manager way: CR line ends, blank ranks.
    lines = ["012 Seven", "XXR 5", "XXC white1"]
    for number in range(1, 8):
        lines.append(
            f"001 {number:4d}      Player {number}".ljust(48)
            + f"{2000 - number:4d}".ljust(32)
            + " 0.0"
        )
    path = tmp_path / "seven.trf"
    path.write_bytes("\r".join(lines).encode())
    result = run_cli(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n") == ["4", "1 4", "5 2", "3 6", "7 0", ""]


def test_cli_reports_errors_on_stderr_with_exit_code_2(tmp_path):
    path = tmp_path / "no_rounds.trf"
    path.write_text(
        "012 No XXR\n001    1      A                                 1500                             0.0\n"
    )
    result = run_cli(path)
    assert result.returncode == 2
    assert "XXR" in result.stderr and result.stdout == ""
    missing = run_cli(tmp_path / "missing.trf")
    assert missing.returncode == 2 and "error" in missing.stderr
