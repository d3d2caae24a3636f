"""Our tie-breaks against FIDE's own checker, the TEC's TieBreakServer ("Gacrux",
``gacrux.tiebreakchecker``, MIT, a dev dependency), on generated events with every kind of
unplayed round, under the 2023 text (an event started before 1 March 2026) and the March 2026
text of C.07. Runs where the checker is installed."""

import subprocess
import sys
from datetime import date

import pytest

from tournaments.pairing import read_trf, write_trf
from tournaments.pairing.trf import TrfHeader
from tournaments.standings import standings_table

from .generated_events import random_event

pytest.importorskip("gacrux")

#: The tie-breaks both programs compute, as both name them.
COMMON = ["BH", "BH/C1", "BH/M1", "SB", "WIN", "WON", "PS"]
#: (players, rounds) of the generated events: small to a big open.
SIZES = [(7, 3), (9, 5), (12, 7), (16, 5), (25, 9), (40, 7), (64, 11), (120, 9), (200, 9)]


def checker(path) -> dict[int, list[float]]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gacrux.tiebreakchecker",
            "-i",
            str(path),
            "-d",
            "T",
            "-s",
            "-t",
            "PTS",
            *COMMON,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line.split("\t") for line in done.stdout.strip().splitlines()]
    assert lines[0][2:] == ["PTS", *COMMON], lines[0]
    return {int(line[0]): [float(value) for value in line[2:]] for line in lines[1:]}


@pytest.mark.parametrize(
    "start", [date(2025, 10, 4), date(2026, 4, 11)], ids=["fide-2023", "fide-2026"]
)
@pytest.mark.parametrize("seed", range(len(SIZES) * 2))
def test_our_values_are_fide_s_checker_s(tmp_path, seed, start):
    players, rounds = SIZES[seed % len(SIZES)]
    event = random_event(1000 + seed, players, rounds)
    header = TrfHeader(start_date=start, tournament_type="Swiss")
    text = write_trf("Generated", event, total_rounds=rounds, header=header)
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="latin-1")
    theirs = checker(path)
    ours = {
        int(row[0]): [float(value) for value in row[2:]]
        for row in standings_table(read_trf(text), COMMON)[1:]
    }
    assert ours.keys() == theirs.keys()
    differ = {n: (ours[n], theirs[n]) for n in ours if ours[n] != theirs[n]}
    assert differ == {}, f"{len(differ)} players differ (PTS, {', '.join(COMMON)}): {differ}"
