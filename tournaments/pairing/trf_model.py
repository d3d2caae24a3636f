"""TRF files, part 1: the column layout, the codes and the value types shared by the reader and
the writer (see :mod:`tournaments.pairing.trf`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations

from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingPlayer,
    RoundEntry,
    Scoring,
)

# Abalone colour -> TRF (FIDE) colour letter.
_TRF_COLOUR = {BLACK: "w", WHITE: "b", None: "-"}
_OUR_COLOUR = {"w": BLACK, "b": WHITE, "-": None, " ": None}
_OTHER_COLOUR = {BLACK: WHITE, WHITE: BLACK}
# Results of games played but not rated (less than one move) count as played for pairing.
_UNRATED = {"W": "1", "D": "=", "L": "0"}

ROUNDS_COLUMN = 91  # 0-based index of the first round block (column 92)
BLOCK = 10
#: 192 codes of the Dutch system (bbpPairings reads both the same way).
DUTCH_CODES = frozenset({"FIDE_DUTCH_2025", "FIDE_DUTCH"})


@dataclass(frozen=True, slots=True)
class TrfHeader:
    """The tournament section of a TRF besides its name (``012``) and what pairing needs
    (rounds, initial colour, point system).  Empty strings, ``None`` and ``()`` mean "not
    given": the line is written blank.  ``system`` is the ``192`` code, ``round_dates`` one
    date (or ``None``) per round from round 1."""

    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""
    round_dates: tuple[date | None, ...] = ()
    system: str = ""
    encoded_time_control: str = ""
    #: the ``202`` codes in order (``BH/C1``, ``SB``, ...), as written
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrfIdentity:
    """Who a player is on their ``001`` line besides name and rating: sex (column 10, ``m`` or
    ``w``), title (11-13), federation (54-56), FIDE id (58-68) and birth date (70-79, written
    ``YYYY/MM/DD`` or just ``YYYY``). Empty: not given."""

    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""

    @property
    def birth_year(self) -> int | None:
        year = self.birth[:4]
        return int(year) if year.isdigit() and int(year) > 0 else None


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A bye asked for in advance (a ``240`` record): player ``number`` takes a bye of
    ``kind`` (``"F"``, ``"H"`` or ``"Z"``) in round ``round``."""

    round: int
    number: int
    kind: str


@dataclass(frozen=True, slots=True)
class ForbiddenGroup:
    """A ``260`` record: no two of ``players`` meet in rounds ``first_round..last_round``."""

    first_round: int
    last_round: int
    players: tuple[int, ...]

    def pairs(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in combinations(sorted(set(self.players)), 2)]


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """What :func:`read_trf` found. ``next_round`` is the round a pairing engine would pair:
    one after the last round in which any game or pairing-allocated bye is recorded.

    ``forbidden_pairs`` are the pairs that may not meet in ``next_round`` (``XXP`` lines and
    the ``260`` records whose rounds include it), each ``(lower, higher)``, once;
    ``forbidden_groups`` every ``260`` record as written.  ``requested_byes`` are the ``240``
    byes of rounds after ``next_round`` (those of ``next_round`` are in the histories)."""

    name: str
    players: tuple[PairingPlayer, ...]
    total_rounds: int | None
    first_colour: str = BLACK
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    rounds_played: int = 0
    header: TrfHeader = field(default_factory=TrfHeader)
    requested_byes: tuple[TrfBye, ...] = ()
    forbidden_groups: tuple[ForbiddenGroup, ...] = ()
    #: pairing number -> the player's identity columns, for the players that have any
    identities: dict[int, TrfIdentity] = field(default_factory=dict)
    #: lines of a program's own alphabetic codes this module does not read (Sumito's ``SM?``
    #: records, Tornelo's ``DAT``, ...): ``(line number, code, content)`` in file order
    extensions: tuple[tuple[int, str, str], ...] = ()

    @property
    def next_round(self) -> int:
        return self.rounds_played + 1


def last_paired_round(histories: Iterable[Iterable[RoundEntry]]) -> int:
    """The last round in which a game (played or forfeited) or a pairing-allocated bye is
    recorded: later entries can only be requested byes or absences entered in advance."""
    return max(
        (
            e.round
            for history in histories
            for e in history
            if e.opponent is not None or e.result == "U"
        ),
        default=0,
    )
