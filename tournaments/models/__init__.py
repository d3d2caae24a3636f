"""The tournaments app's models, by what they hold: the event (``event``), its rounds and
boards (``rounds``), and its records (``records``)."""

from tournaments.models.event import (
    DEFAULT_TIEBREAKS,
    NOTE_LENGTH,
    ROUND_ROBIN_TIEBREAKS,
    Arbiter,
    ByeRequest,
    Entrant,
    ForbiddenPair,
    Tournament,
    default_tiebreaks,
)
from tournaments.models.records import AuditEntry, Prize, ResultChange, ResultReport
from tournaments.models.rounds import Board, MatchGame, Round

__all__ = [
    "DEFAULT_TIEBREAKS",
    "NOTE_LENGTH",
    "ROUND_ROBIN_TIEBREAKS",
    "Arbiter",
    "AuditEntry",
    "Board",
    "ByeRequest",
    "Entrant",
    "ForbiddenPair",
    "MatchGame",
    "Prize",
    "ResultChange",
    "ResultReport",
    "Round",
    "Tournament",
    "default_tiebreaks",
]
