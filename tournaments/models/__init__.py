"""The tournaments app's models, by what they hold: the event (``event``), its rounds and
boards (``rounds``), its records (``records``) and a team event's teams, matches and line-ups
(``team_events``)."""

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
from tournaments.models.team_events import TeamEntry, TeamLineup, TeamMatch, TeamMatchReport

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
    "TeamEntry",
    "TeamLineup",
    "TeamMatchReport",
    "TeamMatch",
    "Tournament",
    "default_tiebreaks",
]
