"""TRF-2026: the full tournament section written, the 2026 codes read (142 152 162 192 240 250
260 ...), and files bbpPairings generated read right. Pure: no database.

The files in ``data/`` were made by bbpPairings (github.com/BieremaBoyzProgramming/bbpPairings,
HEAD of its v6 branch) as its random tournament generator writes them; ``data/README.md`` lists
the commands.
"""

import shutil
import subprocess
from dataclasses import replace
from datetime import date
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
from tournaments.pairing.model import validate_histories
from tournaments.pairing.trf import ForbiddenGroup, TrfBye, TrfHeader

DATA = Path(__file__).parent / "data"
BBP = shutil.which("bbpPairings.exe") or "/tmp/bbp/bbpPairings.exe"


def col(line: str, first: int, last: int) -> str:
    """Columns ``first..last`` (1-based, inclusive), as the TRF specification counts them."""
    return line[first - 1 : last]


def e(round_number, opponent, colour, result):
    return RoundEntry(round_number, opponent, colour, result)


PLAYERS = [
    PairingPlayer(1, "Alpha, Anna", 2100, (e(1, 3, "b", "1"), e(2, 2, "w", "="))),
    PairingPlayer(2, "Bravo, Bert", 2000, (e(1, 4, "w", "+"), e(2, 1, "b", "="))),
    PairingPlayer(3, "Charlie, Cleo", 0, (e(1, 1, "w", "0"), e(2, None, None, "U"))),
    PairingPlayer(4, "Delta, Dirk", 1800, (e(1, 2, "b", "-"), e(2, None, None, "H"))),
]
HEADER = TrfHeader(
    city="Ghent",
    federation="BEL",
    start_date=date(2026, 3, 1),
    end_date=date(2026, 3, 8),
    tournament_type="Swiss (FIDE Dutch), over the board",
    chief_arbiter="Doe, Jane",
    deputy_arbiters=("Roe, Rick", "Poe, Pia"),
    time_control="10 min + 5 s per move",
    round_dates=(date(2026, 3, 1), date(2026, 3, 2)),
    system="FIDE_DUTCH_2025",
    encoded_time_control="600+5",
)


def test_the_whole_tournament_section_is_written():
    text = write_trf(
        "Ghent Open",
        PLAYERS,
        total_rounds=5,
        header=HEADER,
        forbidden_pairs=[(4, 1)],
        requested_byes=[TrfBye(4, 2, "H"), TrfBye(4, 1, "H"), TrfBye(5, 3, "Z")],
    )
    lines = text.split("\n")
    head = lines[: lines.index(next(line for line in lines if line.startswith("001")))]
    assert head == [
        "012 Ghent Open",
        "022 Ghent",
        "032 BEL",
        "042 2026/03/01",
        "052 2026/03/08",
        "062 4",
        "072 3",  # player 3 is unrated
        "082 0",
        "092 Swiss (FIDE Dutch), over the board",
        "102 Doe, Jane",
        "112 Roe, Rick",
        "112 Poe, Pia",
        "122 10 min + 5 s per move",
        head[13],
        "142 5",
        "152 W",  # the top seed's first colour: our Black moves first, FIDE's white
        "192 FIDE_DUTCH_2025",
        "222 600+5",
    ]
    dates = head[13]
    assert col(dates, 1, 3) == "132" and col(dates, 4, 91).strip() == ""
    assert col(dates, 92, 99) == "26/03/01" and col(dates, 102, 109) == "26/03/02"
    # the round blocks of the 001 lines are in the same columns
    first = next(line for line in lines if line.startswith("001    1"))
    assert col(first, 92, 99) == "   3 w 1" and col(first, 102, 109) == "   2 b ="
    # 240 and 260 records, columns as TRF-26 gives them
    assert "240 H 004    1    2" in lines and "240 Z 005    3" in lines
    bye = lines[lines.index("240 H 004    1    2")]
    assert col(bye, 5, 5) == "H" and col(bye, 7, 9) == "004" and col(bye, 11, 14) == "   1"
    assert col(bye, 16, 19) == "   2"
    pair = next(line for line in lines if line.startswith("260"))
    assert (col(pair, 5, 7), col(pair, 9, 11)) == ("001", "005")
    assert (col(pair, 13, 16), col(pair, 18, 21)) == ("   1", "   4")
    # the older extension lines are still there for JaVaFo and older programs
    assert {"XXR 5", "XXC white1", "XXP 1 4"} <= set(lines)
    assert not any(line.startswith(("162", "XXS")) for line in lines)  # default points


def test_blank_header_lines_and_the_point_system():
    text = write_trf("Club Cup", PLAYERS, total_rounds=5, scoring=Scoring(win=3, draw=1, pab=1.5))
    lines = text.split("\n")
    for code in ("022", "032", "042", "052", "092", "102", "122", "132"):
        assert code in lines  # known to be unknown: written blank
    assert not any(line.startswith(("112", "192", "222", "240", "260")) for line in lines)
    points = next(line for line in lines if line.startswith("162"))
    assert points == "162  W 3.0    D 1.0    L 0.0    P 1.5"
    assert (col(points, 6, 6), col(points, 7, 10)) == ("W", " 3.0")
    assert (col(points, 15, 15), col(points, 16, 19)) == ("D", " 1.0")
    assert read_trf(text).scoring == Scoring(win=3, draw=1, pab=1.5)


def test_header_and_records_read_back():
    players = [*PLAYERS[:3], replace(PLAYERS[3], available=False)]
    text = write_trf(
        "Ghent Open",
        players,
        total_rounds=5,
        first_colour="w",
        header=HEADER,
        forbidden_pairs=[(4, 1)],
        requested_byes=[TrfBye(4, 2, "H"), TrfBye(5, 3, "Z")],
    )
    back = read_trf(text)
    assert back.name == "Ghent Open" and back.header == HEADER
    assert back.total_rounds == 5 and back.first_colour == "w"
    assert back.forbidden_pairs == ((1, 4),)
    assert back.forbidden_groups == (ForbiddenGroup(1, 5, (1, 4)),)
    assert back.requested_byes == (TrfBye(4, 2, "H"), TrfBye(5, 3, "Z"))
    assert back.players[:3] == tuple(PLAYERS[:3])
    assert back.players[3].history[-1] == e(3, None, None, "Z") and not back.players[3].available


# A TRF-26 file as a tournament program writes it for in-tournament data exchange: only the
# 2026 codes, comment lines, round 2 of 4 to pair.
TRF26 = """\
012 Spring Swiss
### comment lines start with three pound signs
022 Leuven
042 2026/04/04
052 04.04.2026
102 Kade, Karl
112 Roe, Rick
112 Poe, Pia
122 90'+30"
132                                                                                        26/04/04
142 4
152 B
162  W 1.0    D 0.5    L 0.0    A 0.0    P 0.5    X 0.5
192 FIDE_DUTCH_2025
001    1      Alpha, Anna                       2100                             1.0    1     4 b 1
001    2      Bravo, Bert                       2000                             0.5    2     5 w =
001    3      Charlie, Cleo                     1900                             0.5    3  0000 - U
001    4      Delta, Dirk                       1800                             0.0    4     1 w 0
001    5      Echo, Eva                         1700                             0.5    5     2 b =
240 H 002    3
240 F 003    5    4
260 002 004    1    2    5
260 001 001    3    4
250      0.0 001 004    1    5
"""


def test_the_2026_codes_are_read():
    event = read_trf(TRF26)
    assert event.name == "Spring Swiss" and event.total_rounds == 4
    assert event.first_colour == "w"  # 152 B: the top seed had FIDE's black, our White
    assert event.scoring == Scoring(win=1, draw=0.5, loss=0, pab=0.5)
    assert event.rounds_played == 1 and event.next_round == 2
    header = event.header
    assert (header.city, header.start_date, header.end_date) == (
        "Leuven",
        date(2026, 4, 4),
        date(2026, 4, 4),
    )
    assert header.chief_arbiter == "Kade, Karl"
    assert header.deputy_arbiters == ("Roe, Rick", "Poe, Pia")
    assert header.time_control == "90'+30\"" and header.system == "FIDE_DUTCH_2025"
    assert header.round_dates == (date(2026, 4, 4),)
    # 240 for the round to pair: in the history, not available; later rounds kept apart
    three = event.players[2]
    assert three.history[-1] == e(2, None, None, "H") and not three.available
    assert event.requested_byes == (TrfBye(3, 4, "F"), TrfBye(3, 5, "F"))
    # 260: every pair of the group, for the rounds it names; round 1's pair is not in force
    assert event.forbidden_pairs == ((1, 2), (1, 5), (2, 5))
    assert ForbiddenGroup(1, 1, (3, 4)) in event.forbidden_groups
    # TRF colours: 1 had TRF b, FIDE's black, which is our White
    assert event.players[0].history[0] == e(1, 4, "w", "1")


def test_the_older_codes_still_read_and_xxp_takes_groups():
    text = TRF26.replace("152 B", "XXC black1").replace("142 4", "XXR 4")
    text = text.replace("162  W 1.0    D 0.5    L 0.0    A 0.0    P 0.5    X 0.5", "BBU  0.5")
    text += "XXP 3 4 5\nXXZ 1\nXXA    2  0.0  0.0\n"
    event = read_trf(text)
    assert event.total_rounds == 4 and event.first_colour == "w"
    assert event.scoring == Scoring(pab=0.5)
    assert {(3, 4), (3, 5), (4, 5)} <= set(event.forbidden_pairs)
    assert not event.players[0].available  # XXZ


def test_without_152_the_initial_colour_is_inferred():
    # 1 had FIDE's black (our White) in the first round: the initial colour is black
    text = TRF26.replace("152 B\n", "")
    assert read_trf(text).first_colour == "w"
    swapped = (
        text.replace("     4 b 1", "     4 w 1")
        .replace("     1 w 0", "     1 b 0")
        .replace("     5 w =", "     5 b =")
        .replace("     2 b =", "     2 w =")
    )
    assert read_trf(swapped).first_colour == "b"
    # 1 absent in round 1: 2 is the top seed of round 1, its colour is the initial one
    absent = swapped.replace("     4 w 1", "  0000 - Z").replace("     1 b 0", "  0000 - Z")
    assert read_trf(absent).first_colour == "w"  # 2 had TRF b, our White
    # 1 paired to the bye (no colour): 2 is the second seed, so the initial colour is the
    # other one than 2's
    bye = swapped.replace("     4 w 1", "  0000 - U").replace("     1 b 0", "  0000 - Z")
    assert read_trf(bye).first_colour == "b"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("250      1.0 001    1    4", "250 MMMM GGGG"),
        ("250      1.0 003 002    1    4", "from low to high"),
        ("250  1.0 1.0 001 002    1    4", "team tournaments"),
        ("192 FIDE_BURSTEIN_BAKU", "only the Dutch system"),
        ("299 W     1.0  001    1", "bonus or penalty"),
        ("299         -0.5  000    1", "needs its round"),
        ("299         -0.5  001   99", "player 99, who is not listed"),
        ("299         -0.5  001    3", "player 3 in round 1, who has no game"),
        ("299         -1.5  001    4", "less than 0"),
        ("013 Team A                             1    2", "team tournaments"),
        ("310   1 India", "team tournaments"),
        ("162  W 1.0    A 0.5", "absence"),
        ("BBZ  0.5", "absence"),
        ("162  W 1.0    Q 0.5", "unknown result code"),
        ("152 X", "initial colour"),
        ("142 0", "at least 1"),
        ("240 H 002   99", "player 99"),
        ("260 002 001    1    2", "after round"),
    ],
)
def test_what_sumito_cannot_do_is_refused_with_the_line(line, message):
    with pytest.raises(PairingError, match=message):
        read_trf(TRF26 + line + "\n")


def test_accelerations_are_read_from_250_xxa_or_the_baku_method():
    """C.04.5.1 in TRF-2026: ``250`` records give virtual points (later records override
    earlier ones, as bbpPairings applies them); JaVaFo's ``XXA`` lines give them player by
    player; ``192 FIDE_DUTCH_BAKU`` alone applies the method's own: GA = 2 * ceil(5 / 4) = 4
    players, accelerated rounds ceil(4 / 2) = 2 (1 point, then ½)."""
    base = TRF26.replace("142 4", "142 4").replace("250      0.0 001 004    1    5\n", "")
    lines = read_trf(
        base + "250      1.0 001 002    1    3\n250      0.5 002 002    2    2\n"
    ).players
    assert [p.accelerations for p in lines] == [(1.0, 1.0), (1.0, 0.5), (1.0, 1.0), (), ()]
    xxa = read_trf(base + "XXA    2  1.0  0.5\n").players
    assert [p.accelerations for p in xxa] == [(), (1.0, 0.5), (), (), ()]
    baku = read_trf(base.replace("192 FIDE_DUTCH_2025", "192 FIDE_DUTCH_BAKU")).players
    assert [p.accelerations for p in baku] == [(1.0, 0.5)] * 4 + [()]
    assert read_trf(base).players[0].accelerations == ()


# -- files bbpPairings generated --------------------------------------------------------------

# file -> (players, rounds played, total rounds (142/XXR; None: not written), first colour,
# scoring).  First colours, from the files: the highest-ranked player paired in round 1 had
# TRF "w" (our Black, "b") or TRF "b" (our White, "w"); in the 120-player file player 1 was
# absent in round 1 and player 2 had TRF "b".
BBP_FILES = {
    "bbp_10p_5r.trf": (10, 5, None, "b", Scoring()),
    "bbp_37p_7r.trf": (37, 7, None, "b", Scoring()),
    "bbp_120p_9r.trf": (120, 9, None, "w", Scoring()),
    "bbp_300p_11r.trf": (300, 11, None, "b", Scoring()),
    "bbp_15p_4r_3-1-0.trf": (15, 4, None, "w", Scoring(win=3, draw=1, pab=1)),
    "bbp_24p_6r_half_pab.trf": (24, 6, None, "b", Scoring(pab=0.5)),
    "bbp_model_37p.trf": (37, 5, 7, "b", Scoring()),
}


def trf_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@pytest.mark.parametrize("name", sorted(BBP_FILES))
def test_bbppairings_generated_files_are_read(name):
    text = (DATA / name).read_bytes().decode()
    assert "\r" in text and "\n" not in text  # bbpPairings ends its lines with CR only
    players, played, total, first_colour, scoring = BBP_FILES[name]
    event = read_trf(text)
    assert len(event.players) == players
    assert [p.number for p in event.players] == list(range(1, players + 1))
    assert (event.rounds_played, event.total_rounds) == (played, total)
    assert (event.first_colour, event.scoring) == (first_colour, scoring)
    validate_histories(event.players)
    rows = [line for line in trf_lines(text) if line.startswith("001")]
    for player, line in zip(event.players, rows, strict=True):
        # every round of every player: the points column bbpPairings wrote is the sum
        assert len(player.history) == played
        points = sum(scoring.points(entry.result) for entry in player.history)
        assert float(col(line, 81, 84)) == pytest.approx(points), player.number
        assert player.name == col(line, 15, 47).strip()
        assert player.rating == int(col(line, 49, 52))
    # written back, the player lines are bbpPairings' own (but for its ranking of ties)
    written = write_trf(event.name, event.players, total_rounds=total or played, scoring=scoring)
    again = [line for line in trf_lines(written) if line.startswith("001")]
    for before, after in zip(rows, again, strict=True):
        assert after[:85] + after[89:] == before.rstrip()[:85] + before.rstrip()[89:]


def test_a_bbppairings_model_file_keeps_our_header():
    """bbpPairings generating from a model file (``-g`` with our TRF-26 output as the model,
    data/sumito_37p_model.trf) copies our tournament section, comments out 012, 152 and 240
    with ``###`` and adds the rounds: the header, 142 and 260 come back."""
    event = read_trf((DATA / "bbp_model_37p.trf").read_bytes().decode())
    assert event.name == "AutoTest Tournament 3"  # bbpPairings' own 012
    header = event.header
    assert (header.city, header.federation, header.chief_arbiter) == ("Ghent", "BEL", "Doe, Jane")
    assert header.deputy_arbiters == ("Roe, Rick", "Poe, Pia")
    assert header.round_dates == (date(2026, 3, 1), date(2026, 3, 1), None, date(2026, 3, 2))
    assert (header.system, header.encoded_time_control) == ("FIDE_DUTCH_2025", "600+5")
    assert event.forbidden_pairs == ((1, 2), (3, 30))
    assert event.requested_byes == ()  # its 240 lines are comments now


def test_a_forfeit_loss_worth_points_is_refused():
    # bbpPairings writes PointsForForfeitLoss=0.5 as "162 A 0.5" (and refuses it itself)
    with pytest.raises(PairingError, match="line 16: 0.5 points for an absence"):
        read_trf((DATA / "bbp_12p_3r_forfeit_half.trf").read_bytes().decode())


@pytest.mark.skipif(not Path(BBP).exists(), reason="bbpPairings is not installed here")
def test_bbppairings_pairs_the_file_we_write(tmp_path):
    """bbpPairings reads our TRF-26 output (every header line, 240, 260, XX lines) and pairs
    its next round."""
    event = read_trf((DATA / "bbp_37p_7r.trf").read_bytes().decode())
    players = [replace(p, history=p.history[:4]) for p in event.players]
    path = tmp_path / "event.trf"
    path.write_text(
        write_trf(
            "Ghent Open",
            players,
            total_rounds=7,
            header=HEADER,
            forbidden_pairs=[(1, 2)],
            requested_byes=[TrfBye(6, 7, "H")],
            first_colour=event.first_colour,
        )
    )
    out = tmp_path / "pairs.txt"
    result = subprocess.run(
        [BBP, "--dutch", str(path), "-p", str(out)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    pairs = out.read_text().split()
    assert int(pairs[0]) == (len(players) + 1) // 2
