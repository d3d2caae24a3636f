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
2. then the director's last word: :data:`~tournaments.pairing.knockout.ARMAGEDDON` (one
   more game, its players nominated by the captains from the match's line-ups, at the cup's
   tie-break clock, in which a draw goes to its second mover, as in the individual cup),
   :data:`~tournaments.pairing.knockout.HIGHER_SEED` (the better seed goes through) or
   :data:`~tournaments.pairing.knockout.LOT` (the director draws lots and enters who won
   them).

**The Armageddon game** is the match's board N+1 (:func:`armageddon_first`): the colours go on
alternating by board, as the individual cup's tie-break games go on alternating game by game,
so the first team moves first (Black) when N is even and second when N is odd. It counts for
nothing but the decision: not in the match's game points, nor in board-by-board elimination.
A draw goes to its second mover (White), who had the worse of the first move; a forfeit is the
other team's win; both forfeiting puts both teams out.

A match neither team came to puts both out: the slot sends nobody on and the next opponent
goes through unplayed, as a double forfeit does in the individual cup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import gettext_noop
from tournaments.pairing.knockout import (
    ARMAGEDDON,
    ARMAGEDDON_GAME,
    BOTH_OUT,
    DECIDED,
    DRAW_LOTS,
    HIGHER_SEED,
    LOT,
    PLAY,
)
from tournaments.pairing.model import PairingError
from tournaments.pairing.teams import team_match_score, team_presence

#: The deciders a team cup takes.
TEAM_DECIDERS = (ARMAGEDDON, HIGHER_SEED, LOT)

#: The stage of a match still level after board-by-board elimination whose last word is an
#: Armageddon game: the captains nominate its players, then it is played.
PLAY_ARMAGEDDON = "play_armageddon"

FIRST = "first"
SECOND = "second"

#: What decided a team match.
BY_GAME_POINTS = "game_points"
BY_ELIMINATION = "board_elimination"
BY_FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class TeamCupDecision:
    """``stage``: :data:`PLAY` (boards still in play), :data:`DECIDED` (``winner``: first or
    second, ``by`` what), :data:`BOTH_OUT`, :data:`DRAW_LOTS` (waiting for the lot) or
    :data:`PLAY_ARMAGEDDON` (waiting for the Armageddon game's result)."""

    stage: str
    winner: str = ""
    by: str = ""


def other(side: str) -> str:
    """The other team of a match: :data:`SECOND` for :data:`FIRST`, and the reverse."""
    return SECOND if side == FIRST else FIRST


def armageddon_first(boards: int) -> str:
    """Which team moves first (Black) in the Armageddon game of an N-board match: it is board
    N+1, the colours alternating by board from the first team's Black on board 1."""
    return FIRST if (boards + 1) % 2 else SECOND


def team_cup_decision(
    results: Sequence[str], decider: str, lot: str = "", armageddon: str = ""
) -> TeamCupDecision:
    """Who goes through a team match whose board results are ``results`` (board 1 first, each
    from its Black's side, ``""`` while it is played); ``lot``: the lot's winner once drawn;
    ``armageddon``: the Armageddon game's result from its Black's side, once played."""
    if decider not in TEAM_DECIDERS:
        raise PairingError(
            gettext_noop("a team cup's last word is the higher seed or the lot, not %(decider)r"),
            decider=decider,
        )
    if lot not in ("", FIRST, SECOND):
        raise PairingError(gettext_noop("a lot goes to the first or the second team"))
    if armageddon not in ("", *_ARMAGEDDON_WINNER):
        raise PairingError(
            gettext_noop("the Armageddon game: unknown result %(result)r"), result=armageddon
        )
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
    if decider == ARMAGEDDON:
        return _armageddon(armageddon, len(results))
    if decider == HIGHER_SEED:
        return TeamCupDecision(DECIDED, FIRST, HIGHER_SEED)
    if lot:
        return TeamCupDecision(DECIDED, lot, LOT)
    return TeamCupDecision(DRAW_LOTS)


#: The Armageddon game's result (from its Black's side) -> its winner's colour: a draw is
#: its second mover's (White's); None: both forfeited.
_ARMAGEDDON_WINNER = {
    "1-0": "black",
    "+-": "black",
    "0-1": "white",
    "-+": "white",
    "1/2-1/2": "white",
    "--": None,
}


def _armageddon(result: str, boards: int) -> TeamCupDecision:
    if not result:
        return TeamCupDecision(PLAY_ARMAGEDDON)
    colour = _ARMAGEDDON_WINNER[result]
    if colour is None:
        return TeamCupDecision(BOTH_OUT)
    black = armageddon_first(boards)
    return TeamCupDecision(DECIDED, black if colour == "black" else other(black), ARMAGEDDON_GAME)


def _first_boards(results: Sequence[str], kept: int) -> list[str]:
    """The match as if only its first ``kept`` boards had been played: the other boards count
    as unplayed for both (a double forfeit scores nothing), the colours unchanged."""
    return list(results[:kept]) + ["--"] * (len(results) - kept)
