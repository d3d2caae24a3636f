"""Team standings and the team tie-breaks against FIDE's own TieBreakServer ("gacrux",
``gacrux.tiebreakchecker``, the TEC's, MIT, a dev dependency): generated team Swiss events
(paired by our engine, single boards and whole matches forfeited, byes) and team round-robins
(Berger tables, odd and even fields, single and double), after every round, under the 2023 text
of C.07 and the March 2026 one (record 042 tells the checker which): the primary score, the
other one (MPvGP), Buchholz and its cut, Sonneborn-Berger, the four Extended Sonneborn-Berger,
WIN, WON, the board count; direct encounter, the top-board result and the board-by-board
elimination by the ranks they give."""

import subprocess
import sys
from datetime import date

import pytest

from tournaments.pairing.team_trf import write_team_trf
from tournaments.tiebreaks.model import FIDE_2023, FIDE_2026
from tournaments.tiebreaks.team import TeamStandingsInput, compute_team_standings

from .generated_team_events import EVENTS, PlayedEvent, played_round_robin, played_swiss

pytest.importorskip("gacrux")

#: Our codes and the checker's names for the tie-breaks with a value.
VALUED = {
    "secondary_score": "MPVGP",
    "buchholz": "BH",
    "buchholz_cut1": "BH/C1",
    "sonneborn_berger": "SB",
    "esb_mm": "EMMSB",
    "esb_mg": "EMGSB",
    "esb_gm": "EGMSB",
    "esb_gg": "EGGSB",
    "wins": "WIN",
    "games_won": "WON",
    "board_count": "BC",
    "pairing_number": "TPN",
}
#: Orders whose ranks are compared (the criteria that rank inside a tie).
RANKED = [
    ["direct_encounter"],
    ["top_board"],
    ["board_elimination"],
    ["secondary_score", "direct_encounter"],
    ["secondary_score", "board_count", "top_board"],
    ["secondary_score", "board_elimination"],
]
NAMES = {**VALUED, "direct_encounter": "DE", "top_board": "TBR", "board_elimination": "BBE"}
STARTS = {FIDE_2023: date(2025, 10, 4), FIDE_2026: date(2026, 4, 11)}


def checker(path, upto: int, event: PlayedEvent, names: list[str]) -> dict[int, list]:
    """Per team the checker's rank and values (after round ``upto``)."""
    score = "MPTS" if event.primary == "match" else "GPTS"
    mode = "-p" if event.round_robin else "-s"
    done = subprocess.run(
        [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-d", "T", mode]
        + ["-n", str(upto), "-t", score, *names],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line.split("\t") for line in done.stdout.strip("\n").splitlines()]
    assert lines[0][2:] == [score, *names], lines[0]
    return {
        int(line[0]): [int(line[1])]
        + [None if value in ("", "-0") else float(value) for value in line[2:]]
        for line in lines[1:]
    }


def standings(event: PlayedEvent, upto: int, rules: str, order: list[str]):
    data = TeamStandingsInput(
        tuple(event.teams),
        event.boards,
        tuple(match for match in event.matches if match.round <= upto),
        total_rounds=event.rules.rounds,
        rounds_played=upto,
        primary=event.primary,
        round_robin=event.round_robin,
        rules=rules,
    )
    return compute_team_standings(data, order)


def write(tmp_path, event: PlayedEvent, upto: int, rules: str):
    path = tmp_path / f"round{upto}.trf"
    path.write_text(
        write_team_trf(
            name="Generated",
            teams=event.teams,
            boards=event.boards,
            matches=[match for match in event.matches if match.round <= upto],
            rules=event.rules,
            primary=event.primary,
            start_date=STARTS[rules],
        )
    )
    return path


def assert_values(tmp_path, event: PlayedEvent, upto: int, rules: str) -> None:
    path = write(tmp_path, event, upto, rules)
    valued = dict(VALUED)
    if event.round_robin and len(event.teams) % 2:
        # the checker stops (a KeyError) reading the game points of a round a team had no
        # match in, as the opponents' game points of these two need
        del valued["esb_gm"], valued["esb_gg"]
    theirs = checker(path, upto, event, list(valued.values()))
    rows = standings(event, upto, rules, list(valued))
    ours = {
        row.number: [row.match_points if event.primary == "match" else row.game_points]
        + [row.values[code] for code in valued]
        for row in rows
    }
    theirs = {number: values[1:] for number, values in theirs.items()}
    differ = {n: (ours[n], theirs[n]) for n in ours if ours[n] != theirs.get(n)}
    assert ours.keys() == theirs.keys()
    assert differ == {}, f"after round {upto}, {len(differ)} teams differ: {differ}"
    for order in RANKED:
        ranked = checker(path, upto, event, [NAMES[code] for code in order])
        ranks = {row.number: row.rank for row in standings(event, upto, rules, order)}
        assert ranks == {n: values[0] for n, values in ranked.items()}, (
            f"after round {upto}, ranks by {order}"
        )


@pytest.mark.parametrize("index", range(len(EVENTS)), ids=[f"swiss{e[0]}" for e in EVENTS])
def test_team_swiss_standings_are_the_checkers(tmp_path, index):
    event = played_swiss(EVENTS[index])
    texts = [FIDE_2023, FIDE_2026]
    for upto in range(1, event.rounds_played + 1):
        # every round under one text, the last under both
        for rules in texts if upto == event.rounds_played else [texts[(index + upto) % 2]]:
            assert_values(tmp_path, event, upto, rules)


ROUND_ROBINS = [
    (1, 4, 4, False),
    (2, 5, 3, False),
    (3, 6, 4, False),
    (4, 7, 2, False),
    (5, 8, 6, False),
    (6, 4, 4, True),
    (7, 5, 2, True),
    (8, 10, 5, False),
]


@pytest.mark.parametrize("seed,count,boards,double", ROUND_ROBINS)
def test_team_round_robin_standings_are_the_checkers(tmp_path, seed, count, boards, double):
    event = played_round_robin(seed, count, boards, double)
    for upto in range(1, event.rounds_played + 1):
        assert_values(tmp_path, event, upto, FIDE_2026 if (seed + upto) % 2 else FIDE_2023)
