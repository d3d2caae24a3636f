"""The tie-break engine's value types and constants (pure Python, no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.pairing.model import PLAYED_RESULTS, Scoring

#: Rounds a participant chose not to play (C.07 16.2.5): a half-point or zero-point bye, an
#: absence, a forfeit loss. A pairing-allocated bye, a full-point bye and a forfeit win are
#: unplayed but not voluntary.
VOLUNTARILY_UNPLAYED = frozenset({"H", "Z", "-"})
#: The texts of C.07: as approved in 2023 (in force from 1 August 2024), and as amended in
#: March 2026 (approved by the FIDE Council on 2 February 2026, for events from 1 March 2026).
FIDE_2023 = "fide-2023"
FIDE_2026 = "fide-2026"
RULES = (FIDE_2023, FIDE_2026)


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One round of one player: as :class:`tournaments.pairing.RoundEntry`, plus the marble
    counts (``None`` when unknown), how the game ended (a ``games.engine`` termination such as
    ``"marbles"``, ``"time"``, ``"resignation"``, ``"forfeit"``), the game's
    ``marbles_to_win`` and, for a match round scored by game points, the ``points`` it scored
    (counted instead of the result's: :mod:`tournaments.pairing.matches`)."""

    round: int
    opponent: int | None
    colour: str | None
    result: str
    marbles_for: int | None = None
    marbles_against: int | None = None
    termination: str | None = None
    marbles_to_win: int = 6
    points: float | None = None

    @property
    def played(self) -> bool:
        return self.result in PLAYED_RESULTS and self.opponent is not None


@dataclass(frozen=True, slots=True)
class StandingsPlayer:
    """A participant; ``rating`` 0 (or less) means unrated."""

    number: int
    name: str
    rating: int = 0
    entries: tuple[GameEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything the standings need.  ``rounds_played`` (default: the last round present in
    any entry) is the number of rounds counted; ``round_robin`` switches the unplayed-round
    rules to their round-robin form and is required for Koya to mean anything.
    ``unrated_rating`` is the rating the event's regulations give unrated players for the
    rating-based tie-breaks (C.07 10: without it those tie-breaks are left empty for everyone
    as soon as one participant is unrated)."""

    players: tuple[StandingsPlayer, ...]
    total_rounds: int
    rounds_played: int | None = None
    scoring: Scoring = field(default_factory=Scoring)
    round_robin: bool = False
    #: the text of C.07 to follow: :data:`FIDE_2023` or :data:`FIDE_2026`
    rules: str = FIDE_2023
    unrated_rating: int | None = None


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tie-break: Sumito's ``code``, the FIDE acronym with its modifiers (``short``; the
    Abalone ones have their own), an English ``name``, the ``article`` of C.07 that defines
    it, and the direction: ``lower_first`` for the pairing number, the only one where less
    is better."""

    code: str
    short: str
    name: str
    article: str
    lower_first: bool = False


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings: ``values`` maps each requested tie-break code to its value
    (for ``direct_encounter``: the points scored against the players tied with this one when
    the criterion was applied; ``None``: no value, as a rating-based tie-break when unrated
    players take part)."""

    rank: int
    number: int
    name: str
    rating: int
    points: float
    values: dict[str, float | None]


@dataclass(frozen=True, slots=True)
class CrosstableCell:
    round: int
    opponent: int | None
    colour: str | None
    result: str
    points: float


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    number: int
    name: str
    rating: int
    points: float
    cells: tuple[CrosstableCell, ...]
