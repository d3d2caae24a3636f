"""Sumito's own TRF records: what FIDE's format has no field for, so that an event exported and
imported again is the same event. Pure Python, no Django.

A TRF may carry a program's own alphabetic codes (JaVaFo's ``XX?``, bbpPairings' ``BB?``,
Tornelo's ``DAT``); other programs skip them. Sumito writes, after the FIDE lines:

- ``SMT marbles,buchholz_cut1,...``: the tie-break order, Sumito's codes (the FIDE ones are
  also in ``202``, which has no code for the marble tie-break);
- ``SMS entry=open marbles_to_win=6``: settings the event's pairings and tie-breaks were made
  under, each ``name=value``;
- ``SMB RRR PPPP PPPP ...``: round ``RRR``'s boards in their order, each by the pairing number of
  its first player (the first mover, TRF's white; a bye's player);
- ``SMM RRR PPPP FF SS HOW``: the game on the board of first player ``PPPP`` in round ``RRR``:
  the marbles pushed off by the first player (``FF``) and by the second (``SS``), ``-`` when not
  recorded, and how it ended (``marbles``, ``time``, ``resignation``, ...; ``-``: not said).

Public API: :class:`SumitoRecords`, :func:`write_records`, :func:`read_records`,
:func:`fide_codes`, :func:`from_fide_codes` (the ``202`` list from and to Sumito's codes) and
:func:`sumito_code` (one acronym).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.messages import Text, gettext_noop
from tournaments.pairing.model import PairingError

#: Sumito's tie-breaks that are FIDE's (C.07), by their ``202`` code.
FIDE_CODES = {
    "buchholz": "BH",
    "buchholz_cut1": "BH/C1",
    "buchholz_cut2": "BH/C2",
    "median_buchholz": "BH/M1",
    "median_buchholz2": "BH/M2",
    "fore_buchholz": "FB",
    "average_opponents_buchholz": "AOB",
    "sonneborn_berger": "SB",
    "sonneborn_berger_cut1": "SB/C1",
    "direct_encounter": "DE",
    "wins": "WIN",
    "games_won": "WON",
    "white_games": "BPG",
    "white_wins": "BWG",
    "progressive": "PS",
    "rounds_elected": "REP",
    "standard_points": "STD",
    "pairing_number": "TPN",
    "koya": "KS",
    "rating": "RTNG",
    "average_rating_opponents": "ARO",
    "average_rating_opponents_cut1": "ARO/C1",
    "performance": "TPR",
    "perfect_performance": "PTP",
    "average_performance_opponents": "APRO",
    "average_perfect_performance_opponents": "APPO",
}
_FROM_FIDE = {code: ours for ours, code in FIDE_CODES.items()} | {
    "MBH": "median_buchholz",
    # an individual event's extended direct encounter is the direct encounter (C.07 6)
    "EDE": "direct_encounter",
    # the 2023 text's name of REP, and the checker's of TPN
    "GE": "rounds_elected",
    "SNO": "pairing_number",
}


def sumito_code(acronym: str) -> str | None:
    """Sumito's code for a FIDE acronym (``BH/C1``, also written ``BH-C1``), ``None`` for one
    Sumito does not compute."""
    return _FROM_FIDE.get(acronym.strip().upper().replace("-", "/"))


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended: marbles pushed off by its first and second player (``None``: not
    recorded) and the way it ended (``""``: not said)."""

    first_marbles: int | None = None
    second_marbles: int | None = None
    termination: str = ""


@dataclass(frozen=True, slots=True)
class SumitoRecords:
    """What the ``SM?`` lines say; empty: not given."""

    tiebreaks: tuple[str, ...] = ()
    settings: dict[str, str] = field(default_factory=dict)
    #: round -> the first players' pairing numbers in board order
    board_order: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: (round, first player's number) -> the game's end
    games: dict[tuple[int, int], GameEnd] = field(default_factory=dict)


def fide_codes(tiebreaks: Iterable[str]) -> tuple[str, ...]:
    """The ``202`` codes of the FIDE tie-breaks among ``tiebreaks``, in their order."""
    return tuple(FIDE_CODES[code] for code in tiebreaks if code in FIDE_CODES)


def from_fide_codes(codes: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(Sumito's tie-breaks for the ``202`` codes Sumito computes, the codes it does not)."""
    known, unknown = [], []
    for code in codes:
        ours = sumito_code(code)
        if ours is None:
            unknown.append(code)
        elif ours not in known:
            known.append(ours)
    return tuple(known), tuple(unknown)


def write_records(records: SumitoRecords) -> list[str]:
    """The ``SM?`` lines of ``records``."""
    lines = []
    if records.tiebreaks:
        lines.append("SMT " + ",".join(records.tiebreaks))
    if records.settings:
        lines.append("SMS " + " ".join(f"{k}={v}" for k, v in sorted(records.settings.items())))
    for number in sorted(records.board_order):
        order = records.board_order[number]
        lines.append(f"SMB {number:03d}" + "".join(f" {player:>4}" for player in order))
    for (number, player), end in sorted(records.games.items()):
        first, second = (
            "-" if marbles is None else str(marbles)
            for marbles in (end.first_marbles, end.second_marbles)
        )
        lines.append(
            f"SMM {number:03d} {player:>4} {first:>2} {second:>2} {end.termination or '-'}"
        )
    return lines


def _marbles(word: str, line_number: int) -> int | None:
    if word == "-":
        return None
    if not word.isdigit():
        raise PairingError(
            gettext_noop("the SMM record's marbles %(word)r are not a number"),
            subject=_line(line_number),
            word=word,
        )
    return int(word)


def _line(line_number: int) -> Text:
    return Text(gettext_noop("line %(line)s"), line=line_number)


def _integers(words: list[str], count: int | None, line_number: int, code: str) -> list[int]:
    if count is not None and len(words) != count or count is None and len(words) < 2:
        raise PairingError(
            gettext_noop("the %(record)s record has %(count)s numbers"),
            subject=_line(line_number),
            record=code,
            count=len(words),
        )
    try:
        numbers = [int(word) for word in words]
    except ValueError:
        raise PairingError(
            gettext_noop("the %(record)s record holds something that is not a number"),
            subject=_line(line_number),
            record=code,
        ) from None
    if any(number < 0 for number in numbers):
        raise PairingError(
            gettext_noop("the %(record)s record holds a negative number"),
            subject=_line(line_number),
            record=code,
        )
    return numbers


def read_records(extensions: Iterable[tuple[int, str, str]]) -> SumitoRecords:
    """The ``SM?`` records among a TRF's extension lines (``(line, code, content)``, as
    :func:`tournaments.pairing.read_trf` keeps them); other codes are skipped. Raises
    :class:`PairingError` naming the line of a malformed record."""
    tiebreaks: tuple[str, ...] = ()
    settings: dict[str, str] = {}
    board_order: dict[int, tuple[int, ...]] = {}
    games: dict[tuple[int, int], GameEnd] = {}
    for line_number, code, content in extensions:
        if code == "SMT":
            tiebreaks = tuple(word for word in content.replace(" ", "").split(",") if word)
        elif code == "SMS":
            for word in content.split():
                name, equals, value = word.partition("=")
                if not equals or not name:
                    raise PairingError(
                        gettext_noop("the SMS record's %(word)r is not name=value"),
                        subject=_line(line_number),
                        word=word,
                    )
                settings[name] = value
        elif code == "SMB":
            number, *players = _integers(content.split(), None, line_number, code)
            if len(set(players)) != len(players):
                raise PairingError(
                    gettext_noop("a player has two boards in round %(round)s"),
                    subject=_line(line_number),
                    round=number,
                )
            board_order[number] = tuple(players)
        elif code == "SMM":
            words = content.split()
            if len(words) != 5:
                raise PairingError(
                    gettext_noop("the SMM record has %(count)s fields, not 5"),
                    subject=_line(line_number),
                    count=len(words),
                )
            number, player = _integers(words[:2], 2, line_number, code)
            games[(number, player)] = GameEnd(
                _marbles(words[2], line_number),
                _marbles(words[3], line_number),
                "" if words[4] == "-" else words[4],
            )
    return SumitoRecords(tiebreaks, settings, board_order, games)
