"""Our tie-breaks against FIDE's own checker, the TEC's TieBreakServer ("Gacrux",
``gacrux.tiebreakchecker``, MIT, a dev dependency), on generated events with every kind of
unplayed round, under the 2023 text (an event started before 1 March 2026) and the March 2026
text of C.07: every tie-break both compute, the rating-based ones with and without a rating
for unrated players, direct encounter by the ranks it gives, and round-robins. Runs where the
checker is installed."""

import subprocess
import sys
from datetime import date

import pytest

from tournaments.pairing import read_trf, write_trf
from tournaments.pairing.trf import TrfHeader
from tournaments.standings import standings_table
from tournaments.tiebreaks.ratings import expected_percent

from .generated_events import random_event, random_round_robin

pytest.importorskip("gacrux")

#: The tie-breaks both programs compute, as both name them. FB comes last: the checker keeps
#: a value of its Fore Buchholz for the tie-breaks it computes after it.
COMMON = [
    "BH",
    "BH/C1",
    "BH/C2",
    "BH/M1",
    "BH/M2",
    "SB",
    "SB/C1",
    "AOB",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "PS",
    "REP",
    "STD",
    "TPN",
    "KS",
    "RTNG",
    "ARO",
    "ARO/C1",
    "TPR",
    "PTP",
    "APRO",
    "APPO",
    "FB",
]
ROUND_ROBIN = ["SB", "BH", "BH/C1", "KS", "WIN", "WON", "BPG", "PS", "STD", "ARO", "TPR", "PTP"]
#: (players, rounds) of the generated events: small to a big open.
SIZES = [(7, 3), (9, 5), (12, 7), (16, 5), (25, 9), (40, 7), (64, 11), (120, 9), (200, 9)]
STARTS = {"fide-2023": date(2025, 10, 4), "fide-2026": date(2026, 4, 11)}


def checker(path, tiebreaks, *options) -> list[list[str]]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gacrux.tiebreakchecker",
            "-i",
            str(path),
            "-d",
            "T",
            *options,
            "-t",
            "PTS",
            *tiebreaks,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line.split("\t") for line in done.stdout.strip("\n").splitlines()]
    assert lines[0][2:] == ["PTS", *tiebreaks], lines[0]
    return lines


def as_numbers(lines: list[list[str]]) -> dict[int, list[float | None]]:
    """Per pairing number the values; no value is an empty cell for us, ``-0`` for the
    checker."""
    return {
        int(line[0]): [None if value.strip() in ("", "-0") else float(value) for value in line[2:]]
        for line in lines[1:]
    }


def write(tmp_path, players, rounds, start, kind="Swiss") -> tuple:
    header = TrfHeader(start_date=start, tournament_type=kind)
    text = write_trf("Generated", players, total_rounds=rounds, header=header)
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="latin-1")
    return path, read_trf(text)


def assert_same(ours: dict, theirs: dict, names: list[str]) -> None:
    assert ours.keys() == theirs.keys()
    differ = {n: (ours[n], theirs[n]) for n in ours if ours[n] != theirs[n]}
    assert differ == {}, f"{len(differ)} players differ (PTS, {', '.join(names)}): {differ}"


@pytest.mark.parametrize("rules", list(STARTS))
@pytest.mark.parametrize("seed", range(len(SIZES) * 2))
def test_our_values_are_fide_s_checker_s(tmp_path, seed, rules):
    players, rounds = SIZES[seed % len(SIZES)]
    event = random_event(1000 + seed, players, rounds, spread=seed % 2 == 1)
    path, trf = write(tmp_path, event, rounds, STARTS[rules])
    theirs = as_numbers(checker(path, COMMON, "-s"))
    assert_same(as_numbers(standings_table(trf, COMMON)), theirs, COMMON)


@pytest.mark.parametrize("seed", range(6))
def test_unrated_players_empty_the_rating_tiebreaks_unless_rated_by_the_regulations(tmp_path, seed):
    players, rounds = SIZES[seed + 1]
    event = random_event(2000 + seed, players, rounds, spread=True, unrated=1 + seed % 3)
    path, trf = write(tmp_path, event, rounds, STARTS["fide-2026"])
    rating_based = ["RTNG", "ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO"]
    empty = as_numbers(standings_table(trf, rating_based))
    assert all(value is None for values in empty.values() for value in values[1:])
    assert_same(empty, as_numbers(checker(path, rating_based, "-s")), rating_based)
    ours = as_numbers(standings_table(trf, rating_based, unrated_rating=1200))
    assert_same(ours, as_numbers(checker(path, rating_based, "-s", "-u", "1200")), rating_based)


@pytest.mark.parametrize("acronym", ["DE", "EDE"])
@pytest.mark.parametrize("seed", range(8))
def test_direct_encounter_ranks_the_tied_players_as_the_checker_does(tmp_path, seed, acronym):
    players, rounds = [(7, 5), (10, 7), (16, 5), (30, 9)][seed % 4]
    event = random_event(3000 + seed, players, rounds)
    path, trf = write(tmp_path, event, rounds, STARTS["fide-2026"])
    theirs = {int(line[0]): int(line[1]) for line in checker(path, [acronym], "-s")[1:]}
    ours = {int(line[0]): int(line[1]) for line in standings_table(trf, [acronym])[1:]}
    assert ours == theirs


@pytest.mark.parametrize("rules", list(STARTS))
@pytest.mark.parametrize("players", [5, 6, 9, 12])
def test_round_robins_are_the_checker_s(tmp_path, players, rules):
    event = random_round_robin(4000 + players, players)
    rounds = players - 1 if players % 2 == 0 else players
    path, trf = write(tmp_path, event, rounds, STARTS[rules], kind="Round robin")
    assert_same(
        as_numbers(standings_table(trf, ROUND_ROBIN)),
        as_numbers(checker(path, ROUND_ROBIN)),
        ROUND_ROBIN,
    )
    theirs = {int(line[0]): int(line[1]) for line in checker(path, ["DE"])[1:]}
    assert {int(line[0]): int(line[1]) for line in standings_table(trf, ["DE"])[1:]} == theirs


def test_the_expected_score_table_is_fide_s():
    from gacrux import fidetables

    for difference in range(0, 801):
        assert expected_percent(1500 + difference, 1500) == fidetables.DiffToPd[difference]
        assert expected_percent(1500, 1500 + difference) == 100 - fidetables.DiffToPd[difference]
