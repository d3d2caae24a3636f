"""A real team event's TRF-2026 file as FIDE's TieBreakServer (gacrux, the TEC's) reads it:
rosters longer than the boards, line-ups that change from round to round (records 300), boards
left empty by one team (``0000 - +``), forfeits and byes (320). Its match points, game points
and team tie-breaks equal ours for generated events, so the file says what happened. (The
checker cannot read a board nobody sat at or a match a team sent nobody to: TRF-2026 gives those
no ``001`` block, only the ``300`` line-ups and a ``330``; the round trip tests them. And where
both teams came but no board had both its players, the checker counts the match as not played,
where we count its forfeits as C.04.6 scores a match: those are left out here.)"""

import subprocess
import sys
from datetime import date

import pytest

from tournaments.pairing.team_swiss import TeamMatchRecord
from tournaments.pairing.team_trf_event import TrfTeamEvent, write_team_event
from tournaments.tiebreaks.model import FIDE_2026
from tournaments.tiebreaks.team import TeamStandingsInput, compute_team_standings

from .generated_team_files import generated_team_event

pytest.importorskip("gacrux")

VALUED = {
    "secondary_score": "MPVGP",
    "buchholz": "BH",
    "sonneborn_berger": "SB",
    "esb_mg": "EMGSB",
    "esb_gg": "EGGSB",
    "wins": "WIN",
    "games_won": "WON",
    "board_count": "BC",
}


def ours(event: TrfTeamEvent) -> dict[int, list]:
    records = tuple(
        TeamMatchRecord(m.round, m.first, m.second, m.results if m.second else ())
        for m in event.matches
    )
    data = TeamStandingsInput(
        tuple((team.number, team.name) for team in event.teams),
        event.boards,
        records,
        total_rounds=event.rounds,
        rounds_played=event.rounds_played,
        primary=event.primary,
        scoring=event.scoring,
        rules=FIDE_2026,
    )
    rows = compute_team_standings(data, list(VALUED))
    return {
        row.number: [row.match_points if event.primary == "match" else row.game_points]
        + [row.values[code] for code in VALUED]
        for row in rows
    }


def theirs(path, event: TrfTeamEvent) -> dict[int, list]:
    score = "MPTS" if event.primary == "match" else "GPTS"
    done = subprocess.run(
        [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-d", "T", "-s"]
        + ["-n", str(event.rounds_played), "-t", score, *VALUED.values()],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line.split("\t") for line in done.stdout.strip("\n").splitlines()]
    assert lines[0][2:] == [score, *VALUED.values()], lines[0]
    return {
        int(line[0]): [None if value in ("", "-0") else float(value) for value in line[2:]]
        for line in lines[1:]
    }


@pytest.mark.parametrize("seed", range(60))
def test_the_checker_reads_our_file_as_we_count_it(tmp_path, seed):
    event = generated_team_event(seed, checkable=True)
    path = tmp_path / "event.trf"
    text = write_team_event(event)
    path.write_text(text.replace("012 ", f"042 {date(2026, 4, 11):%Y/%m/%d}\n012 ", 1))
    mine, checkers = ours(event), theirs(path, event)
    differ = {n: (mine[n], checkers.get(n)) for n in mine if mine[n] != checkers.get(n)}
    assert differ == {}, f"{len(differ)} teams differ: {differ}"
