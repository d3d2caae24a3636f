"""Sumito's own TRF records (``SMT``, ``SMS``, ``SMB``, ``SMM``) and the ``202`` tie-break line:
written, read back the same, malformed ones refused with their line, other programs' codes
kept aside; pure, no database."""

import pytest

from tournaments.pairing import PairingError, PairingPlayer, RoundEntry, read_trf, write_trf
from tournaments.pairing.trf import TrfHeader
from tournaments.trf_sumito import (
    GameEnd,
    SumitoRecords,
    fide_codes,
    from_fide_codes,
    read_records,
    write_records,
)

RECORDS = SumitoRecords(
    tiebreaks=("marbles", "buchholz_cut1", "sonneborn_berger"),
    settings={"entry": "open", "marbles_to_win": "6"},
    board_order={1: (3, 1), 2: (2, 4, 1)},
    games={(1, 3): GameEnd(6, 2, "marbles"), (1, 1): GameEnd(None, 1, "time")},
)


def players():
    return [
        PairingPlayer(1, "Alpha", 1900, (RoundEntry(1, 2, "b", "1"),)),
        PairingPlayer(2, "Bravo", 1800, (RoundEntry(1, 1, "w", "0"),)),
        PairingPlayer(3, "Charlie", 1700, (RoundEntry(1, 4, "b", "1"),)),
        PairingPlayer(4, "Delta", 1600, (RoundEntry(1, 3, "w", "0"),)),
    ]


def test_records_come_back_as_written():
    lines = write_records(RECORDS)
    assert lines[0] == "SMT marbles,buchholz_cut1,sonneborn_berger"
    assert "SMS entry=open marbles_to_win=6" in lines
    assert "SMB 001    3    1" in lines
    assert "SMM 001    1  -  1 time" in lines
    extensions = [(n, line[:3], line[4:]) for n, line in enumerate(lines, start=1)]
    assert read_records(extensions) == RECORDS


def test_a_trf_carries_them_after_the_fide_lines_and_the_202_line():
    text = write_trf(
        "Cup",
        players(),
        total_rounds=3,
        header=TrfHeader(tiebreaks=fide_codes(RECORDS.tiebreaks)),
        extensions=write_records(RECORDS),
    )
    assert "202 BH/C1,SB" in text.splitlines()
    event = read_trf(text.replace("\n", "\r"))
    assert event.header.tiebreaks == ("BH/C1", "SB")
    assert read_records(event.extensions) == RECORDS
    assert event.players == tuple(players())


def test_other_programs_codes_are_kept_aside_and_skipped():
    text = write_trf("Cup", players(), total_rounds=3) + "DAT 0001 EMAIL a@b.c\n"
    event = read_trf(text)
    assert [(code, content) for _, code, content in event.extensions] == [
        ("DAT", "0001 EMAIL a@b.c")
    ]
    assert read_records(event.extensions) == SumitoRecords()


@pytest.mark.parametrize(
    "line, words",
    [
        ("SMB 001    3   x1", "not a number"),
        ("SMB 001    3    3", "two boards in round 1"),
        ("SMB 001", "has 1 numbers"),
        ("SMM 001    3  6", "3 fields, not 5"),
        ("SMM 001    3  6  y time", "'y' are not a number"),
        ("SMM 001   -3  6  1 time", "negative"),
        ("SMS entry", "not name=value"),
    ],
)
def test_a_malformed_record_is_refused_naming_its_line(line, words):
    text = write_trf("Cup", players(), total_rounds=3) + line + "\n"
    event = read_trf(text)
    with pytest.raises(PairingError) as error:
        read_records(event.extensions)
    message = str(error.value)
    assert words in message
    assert f"line {len(text.splitlines())}" in message


def test_202_codes_map_to_sumitos_tiebreaks_and_name_the_rest():
    assert from_fide_codes(["BH/C1", "bh", "SB", "ARO", "BH-C1", "TPR", "XYZ", "BH/C3"]) == (
        (
            "buchholz_cut1",
            "buchholz",
            "sonneborn_berger",
            "average_rating_opponents",
            "performance",
        ),
        ("XYZ", "BH/C3"),
    )
    assert from_fide_codes(["EDE", "GE", "SNO"])[0] == (
        "direct_encounter",
        "rounds_elected",
        "pairing_number",
    )
    assert fide_codes(["marbles", "black_games", "koya", "wins"]) == ("KS", "WIN")
