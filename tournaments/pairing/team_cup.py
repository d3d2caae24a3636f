"""Team knockout cups: who goes through a team match. Pure Python, no Django.

The bracket is the individual cup's (:mod:`tournaments.pairing.knockout`): the teams seeded by
rating, the byes to the top seeds, the standard 1-against-last placement, the winners of two
neighbouring slots meeting in the next round, an optional match for third place. Each pairing
is one team match of N boards (:mod:`tournaments.pairing.teams`); its first team, Black on
board 1, is the better seed.

**A tied match** (equal game points) is decided, as team knockouts in chess decide it, by

1. **board-by-board elimination** (FIDE C.07's team criterion BBE, applied to the one match):
   the game points without the last board, then without the last two, and so on down to
   board 1, the first difference deciding; points won on the top boards weigh most;
2. then the director's last word: :data:`~tournaments.pairing.knockout.HIGHER_SEED` (the
   better seed goes through) or :data:`~tournaments.pairing.knockout.LOT` (the director draws
   lots and enters who won them).

A match neither team came to puts both out: the slot sends nobody on and the next opponent
goes through unplayed, as a double forfeit does in the individual cup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import gettext_noop
from tournaments.pairing.knockout import BOTH_OUT, DECIDED, DRAW_LOTS, HIGHER_SEED, LOT, PLAY
from tournaments.pairing.model import PairingError
from tournaments.pairing.teams import team_match_score, team_presence

#: The deciders a team cup takes (an Armageddon game is an individual cup's).
TEAM_DECIDERS = (HIGHER_SEED, LOT)

FIRST = "first"
SECOND = "second"

#: What decided a team match.
BY_GAME_POINTS = "game_points"
BY_ELIMINATION = "board_elimination"
BY_FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class TeamCupDecision:
    """``stage``: :data:`PLAY` (boards still in play), :data:`DECIDED` (``winner``: first or
    second, ``by`` what), :data:`BOTH_OUT`, or :data:`DRAW_LOTS` (waiting for the lot)."""

    stage: str
    winner: str = ""
    by: str = ""


def team_cup_decision(results: Sequence[str], decider: str, lot: str = "") -> TeamCupDecision:
    """Who goes through a team match whose board results are ``results`` (board 1 first, each
    from its Black's side, ``""`` while it is played); ``lot``: the lot's winner once drawn."""
    if decider not in TEAM_DECIDERS:
        raise PairingError(
            gettext_noop("a team cup's last word is the higher seed or the lot, not %(decider)r"),
            decider=decider,
        )
    if lot not in ("", FIRST, SECOND):
        raise PairingError(gettext_noop("a lot goes to the first or the second team"))
    score = team_match_score(results)
    if not score.complete:
        return TeamCupDecision(PLAY)
    came_first, came_second = team_presence(results)
    if not came_first and not came_second:
        return TeamCupDecision(BOTH_OUT)
    if came_first != came_second:
        return TeamCupDecision(DECIDED, FIRST if came_first else SECOND, BY_FORFEIT)
    if score.first != score.second:
        return TeamCupDecision(
            DECIDED, FIRST if score.first > score.second else SECOND, BY_GAME_POINTS
        )
    for kept in range(len(results) - 1, 0, -1):
        part = team_match_score(_first_boards(results, kept))
        if part.first != part.second:
            return TeamCupDecision(
                DECIDED, FIRST if part.first > part.second else SECOND, BY_ELIMINATION
            )
    if decider == HIGHER_SEED:
        return TeamCupDecision(DECIDED, FIRST, HIGHER_SEED)
    if lot:
        return TeamCupDecision(DECIDED, lot, LOT)
    return TeamCupDecision(DRAW_LOTS)


def _first_boards(results: Sequence[str], kept: int) -> list[str]:
    """The match as if only its first ``kept`` boards had been played: the other boards count
    as unplayed for both (a double forfeit scores nothing), the colours unchanged."""
    return list(results[:kept]) + ["--"] * (len(results) - kept)
