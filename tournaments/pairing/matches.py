"""Match rounds: each pairing of a round played as a match of N games, the colours
alternating (the usual answer to the first mover's advantage). Pure Python, no Django.

A pairing's two players are its Black (first mover of game 1) and its White. Game ``k`` of
the match has the pairing's colours when ``k`` is odd and swaps them when it is even; the
pairing engines see the pairing's colours only (the first game's), as colour history.

A game's result is written as a board result from its own first mover's side (``1-0``: the
game's first mover won; the forfeit codes ``+-``, ``-+``, ``--`` likewise). The match score is
counted from the pairing's side: game points per player, with the event's point system per
game (a forfeit win a win, a double forfeit nothing to either).

The round then scores, as the director chooses:

- :data:`MATCH_POINTS`: the match result, 1 / ½ / 0 with the event's point system, as one game
  would (the match's winner is the player with more game points);
- :data:`GAME_POINTS`: the game points themselves; the event's point system is then scaled by
  the number of games (:func:`round_scoring`: a bye or a forfeited match is worth a whole
  match), and each round's entry carries its game points (``RoundEntry.points``,
  ``GameEntry.points``), which the pairing and the standings count instead of the result's
  points.

A match none of whose games was played is a forfeit (``+-``, ``-+`` or ``--``) by who won more
games by forfeit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import gettext_noop
from tournaments.pairing.model import PairingError, Scoring

#: How a match round scores: the match result (1 / ½ / 0) or the game points.
MATCH_POINTS = "match"
GAME_POINTS = "game"
SCORINGS = (MATCH_POINTS, GAME_POINTS)
#: The most games a match may have.
MAX_GAMES = 8

_PLAYED = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}
_FORFEITS = {"+-": (1, 0), "-+": (0, 1), "--": (0, 0)}


def swapped(game: int) -> bool:
    """Whether game ``game`` (1-based) of a match swaps the pairing's colours."""
    if game < 1:
        raise PairingError(gettext_noop("games of a match are numbered from 1"))
    return game % 2 == 0


def game_sides(black, white, game: int) -> tuple:
    """The (first mover, second mover) of game ``game`` of a match between the pairing's
    ``black`` and ``white``."""
    return (white, black) if swapped(game) else (black, white)


_MIRRORED = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}


def pairing_side_result(result: str, game: int) -> str:
    """Game ``game``'s ``result`` (from its own first mover's side) from the pairing's side:
    a swapped game's ``1-0`` is the pairing's White winning, ``0-1`` from the board's side."""
    return _MIRRORED.get(result, result) if swapped(game) else result


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match's score from the pairing's side: game points of its Black and its White,
    games finished (played or forfeited) and played over the board, of ``games``."""

    black: float
    white: float
    finished: int
    played: int
    games: int

    @property
    def complete(self) -> bool:
        return self.finished == self.games

    @property
    def result(self) -> str:
        """The match result as a board result code (empty until every game is finished)."""
        if not self.complete:
            return ""
        if self.played == 0:
            if self.black > self.white:
                return "+-"
            if self.white > self.black:
                return "-+"
            return "--"
        if self.black > self.white:
            return "1-0"
        if self.white > self.black:
            return "0-1"
        return "1/2-1/2"

    def shown(self, side: str = "black") -> str:
        """``1½-½`` from the given side's view (``"black"`` or ``"white"``)."""
        mine, theirs = (self.black, self.white) if side == "black" else (self.white, self.black)
        return f"{_half(mine)}-{_half(theirs)}"


def match_score(results: Sequence[str], games: int, scoring: Scoring | None = None) -> MatchScore:
    """The score of a match of ``games`` games whose results so far are ``results`` (game 1
    first; each from its own first mover's side, ``""`` for a game not finished), counted
    with ``scoring`` per game (standard 1 / ½ / 0 by default)."""
    scoring = scoring or Scoring()
    if not 1 <= games <= MAX_GAMES:
        raise PairingError(
            gettext_noop("a match has 1 to %(max)s games, not %(games)s"),
            max=MAX_GAMES,
            games=games,
        )
    if len(results) > games:
        raise PairingError(
            gettext_noop("%(count)s results for a match of %(games)s games"),
            count=len(results),
            games=games,
        )
    black = white = 0.0
    finished = played = 0
    for number, result in enumerate(results, start=1):
        if not result:
            continue
        read = shares(result)
        if read is None:
            raise PairingError(
                gettext_noop("game %(game)s: unknown result %(result)r"),
                game=number,
                result=result,
            )
        first, second, forfeit = read
        played += not forfeit
        finished += 1
        first_points = game_points(first, forfeit, scoring)
        second_points = game_points(second, forfeit, scoring)
        if swapped(number):
            first_points, second_points = second_points, first_points
        black += first_points
        white += second_points
    return MatchScore(black, white, finished, played, games)


def shares(result: str) -> tuple[float, float, bool] | None:
    """(Black's share, White's share, whether a forfeit) of a board result code (``1-0``:
    1 and 0), or None for a code that is none."""
    if result in _PLAYED:
        return (*_PLAYED[result], False)
    if result in _FORFEITS:
        return (*_FORFEITS[result], True)
    return None


def game_points(share: float, forfeit: bool, scoring: Scoring) -> float:
    """The points of one game's share (1, ½, 0) by ``scoring``: a loss by forfeit scores 0."""
    if share == 1:
        return scoring.win
    if share == 0.5:
        return scoring.draw
    return 0.0 if forfeit else scoring.loss


def round_scoring(scoring: Scoring, games: int, mode: str) -> Scoring:
    """The point system a round is counted with: the event's own under match points, scaled
    by the number of games under game points (a won match is worth every game won)."""
    if mode not in SCORINGS:
        raise PairingError(
            gettext_noop("unknown match scoring %(mode)r (use %(modes)s)"),
            mode=mode,
            modes=", ".join(SCORINGS),
        )
    if mode == MATCH_POINTS or games == 1:
        return scoring
    return Scoring(
        win=scoring.win * games,
        draw=scoring.draw * games,
        loss=scoring.loss * games,
        pab=scoring.pab * games,
    )


def round_points(score: MatchScore, side: str, mode: str) -> float | None:
    """The points a finished match gives the player on ``side`` under game points (their
    game points), or ``None`` under match points (the result's points stand)."""
    if mode != GAME_POINTS or not score.complete:
        return None
    return score.black if side == "black" else score.white


def _half(value: float) -> str:
    whole = int(value)
    if abs(value - whole - 0.5) < 1e-9:
        return f"{whole}½" if whole else "½"
    if abs(value - whole) < 1e-9:
        return str(whole)
    return f"{value:g}"
