"""A team event's TRF-2026 file written and read back (pure): generated events with rosters,
changing line-ups, boards left empty, matches not played and byes come back equal."""

from __future__ import annotations

import pytest

from tests.tournaments.generated_team_files import generated_team_event
from tournaments.pairing.model import PairingError
from tournaments.pairing.team_trf_event import (
    ROUND_ROBIN,
    TrfTeam,
    TrfTeamEvent,
    TrfTeamMatch,
    TrfTeamPlayer,
    write_team_event,
)
from tournaments.pairing.team_trf_read import read_team_event


@pytest.mark.parametrize("seed", range(60))
def test_a_generated_event_reads_back_equal(seed):
    event = generated_team_event(seed)
    text = write_team_event(event)
    assert read_team_event(text) == event
    assert write_team_event(read_team_event(text)) == text


def _small(**changes) -> TrfTeamEvent:
    fields = dict(
        name="Club league",
        system=ROUND_ROBIN,
        rounds=3,
        boards=2,
        players=tuple(TrfTeamPlayer(n, f"P{n}") for n in range(1, 7)),
        teams=(
            TrfTeam(1, "Ghent 1", (1, 2)),
            TrfTeam(2, "Bruges", (3, 4)),
            TrfTeam(3, "Ypres", (5, 6)),
        ),
        matches=(
            TrfTeamMatch(1, 1, 2, (1, 2), (4, None), ("1-0", "-+")),
            TrfTeamMatch(1, 3, None),
        ),
    )
    fields.update(changes)
    return TrfTeamEvent(**fields)


def test_the_records_say_what_happened():
    text = write_team_event(_small())
    lines = text.splitlines()
    assert "192 BERGER_TEAM_ROUNDROBIN" in lines
    assert "352 WB" in lines
    # board 1: P1 (Ghent 1, FIDE's White) beat P4; board 2: Ghent's P2 waited for nobody
    player = {int(line[4:8]): line for line in lines if line.startswith("001")}
    assert player[1][91:99] == "   4 w 1"
    assert player[4][91:99] == "   1 b 0"
    assert player[2][91:99] == "0000 - +"
    assert player[2][80:84] == " 1.0"
    assert "300   1   2   1    4    0" in lines
    assert "300   1   1   2    1    2" in lines
    assert [line for line in lines if line.startswith("320")] == ["320  1.0  1.0   3"]
    team = {int(line[4:7]): line for line in lines if line.startswith("310")}
    assert team[1][8:40].strip() == "Ghent 1"
    assert float(team[1][54:60]) == 2.0 and float(team[1][61:67]) == 2.0
    assert float(team[3][54:60]) == 1.0 and float(team[3][61:67]) == 1.0


def test_a_match_not_played_is_a_330():
    event = _small(matches=(TrfTeamMatch(1, 1, 2, (1, 2), (None, None), ("+-", "-+")),))
    lines = write_team_event(event).splitlines()
    assert "330 +-   1   1   2" in lines
    assert read_team_event("\n".join(lines)) == event


def test_a_file_without_line_ups_reads_the_roster_order():
    text = write_team_event(_small())
    kept = "\n".join(line for line in text.splitlines() if not line.startswith("300"))
    read = read_team_event(kept)
    match = read.matches[0]
    # without 300 the present players sit at the first boards in the order of 310
    assert match.first_lineup == (1, 2) and match.second_lineup == (4, None)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda t: t.replace("310   1", "310   9"), "run from 1 to 3"),
        (lambda t: t.replace("   5    6", "   5    1"), "listed twice"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("001    6")), "no 001"),
        (lambda t: t.replace("   4 w 1", "   4 w 0"), "do not match"),
        (lambda t: t.replace("352 WB", "352 BW"), "352"),
        (lambda t: t.replace("192 BERGER_TEAM_ROUNDROBIN", "192 FIDE_DUTCH_2026"), "192"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("310")), "no teams"),
    ],
)
def test_a_file_sumito_cannot_represent_is_refused_naming_the_problem(change, problem):
    with pytest.raises(PairingError) as refused:
        read_team_event(change(write_team_event(_small())))
    assert problem in str(refused.value)
