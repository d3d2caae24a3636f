"""``python -m tournaments.standings``: the TEC checker's layout (a header, then StartNo, Rank,
PTS and one column per tie-break, tab-separated, in pairing-number order), the same values as
the engine the site uses, the file's 202 order by default, ``--rounds``, and errors on stderr
with exit code 2. Pure: no database."""

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.pairing import read_trf, write_trf
from tournaments.pairing.trf import TrfHeader
from tournaments.standings import _number, main, standings_input
from tournaments.tiebreaks import compute_standings

from .generated_events import random_event

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def run(tmp_path, text: str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "event.trf"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "tournaments.standings", str(path), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize("seed", range(6))
def test_it_prints_the_engine_s_values_in_the_checker_s_layout(tmp_path, seed):
    players = random_event(seed)
    text = write_trf("Generated", players, total_rounds=5).replace("\n", "\r\n")
    done = run(tmp_path, text, "--tiebreaks", "BH/C1,BH,BH/M1,SB,PS,WIN,WON,DE")
    assert done.returncode == 0, done.stderr
    lines = [line.split("\t") for line in done.stdout.splitlines()]
    assert lines[0] == [
        "StartNo",
        "Rank",
        "PTS",
        "BH/C1",
        "BH",
        "BH/M1",
        "SB",
        "PS",
        "WIN",
        "WON",
        "DE",
    ]
    assert [int(line[0]) for line in lines[1:]] == list(range(1, 12))
    codes = [
        "buchholz_cut1",
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "progressive",
        "wins",
        "games_won",
        "direct_encounter",
    ]
    rows = {r.number: r for r in compute_standings(standings_input(read_trf(text)), codes)}
    for line in lines[1:]:
        row = rows[int(line[0])]
        assert line[1:3] == [str(row.rank), _number(row.points)]
        assert line[3:] == [_number(row.values[code], code) for code in codes]


def test_without_tiebreaks_the_file_s_202_order_counts_and_rounds_cut_the_event(tmp_path):
    players = random_event(7)
    text = write_trf("Generated", players, total_rounds=5, header=TrfHeader(tiebreaks=("SB", "BH")))
    done = run(tmp_path, text)
    assert done.stdout.splitlines()[0] == "StartNo\tRank\tPTS\tSB\tBH"
    early = run(tmp_path, text, "--rounds", "2", "--tiebreaks", "BH")
    cut = [[e for e in p.history if e.round <= 2] for p in players]
    points = {
        p.number: sum(
            {"1": 1, "+": 1, "F": 1, "U": 1, "=": 0.5, "H": 0.5}.get(e.result, 0) for e in h
        )
        for p, h in zip(players, cut, strict=True)
    }
    shown = {
        int(line.split("\t")[0]): float(line.split("\t")[2])
        for line in early.stdout.splitlines()[1:]
    }
    assert shown == points


@pytest.mark.parametrize(
    "args, words",
    [
        (("--tiebreaks", "BH,XYZ"), "unknown tie-break 'XYZ'"),
        (("--rounds", "9"), "the file records rounds 1 to 5"),
        (("--rules", "fide-1999"), "invalid choice"),
    ],
)
def test_errors_go_to_stderr_with_exit_code_2(tmp_path, args, words):
    done = run(tmp_path, write_trf("Generated", random_event(1), total_rounds=5), *args)
    assert done.returncode == 2 and done.stdout == "" and words in done.stderr


def test_an_unreadable_file_is_exit_code_2(tmp_path, capsys):
    assert main([str(tmp_path / "missing.trf")]) == 2
    assert "No such file" in capsys.readouterr().err
    bad = tmp_path / "bad.trf"
    bad.write_text(
        "001    1      A                                 1500                             1.0    1     2 w x\n"
    )
    assert main([str(bad)]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_numbers_have_one_or_two_decimals_counts_and_ratings_none():
    assert [_number(v) for v in (12, 12.5, 12.25, 0, 3.75, 11.125)] == [
        "12.0",
        "12.5",
        "12.25",
        "0.0",
        "3.75",
        "11.125",
    ]
    assert [_number(3.0, "wins"), _number(1451.0, "performance"), _number(None, "rating")] == [
        "3",
        "1451",
        "",
    ]
