"""The teams as the FIDE Swiss Team Pairing System (C.04.6) reads them before a round, pure
Python, no Django: the colour-preference models and each team's colour difference and
preference (arts. 1.6 and 1.7), and the past rounds' matches read into the teams to pair (their
scores, art. 1.2; colours; the teams met, [C1]; the PAB barred, [C2]; floaters, 1.5) and into
the standings (match points and game points, the PAB a draw's, art. 1.4).

:mod:`tournaments.pairing.team_swiss` pairs a round of them, and re-exports these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import gettext_noop
from tournaments.pairing.model import BLACK, WHITE, PairingError
from tournaments.pairing.teams import TeamScoring, team_match_score, team_presence

#: Art. 1.7's three colour-preference models.
TYPE_A, TYPE_B, NO_PREFERENCES = "A", "B", "none"
COLOUR_MODELS = (TYPE_A, TYPE_B, NO_PREFERENCES)

_OTHER = {BLACK: WHITE, WHITE: BLACK}


@dataclass(frozen=True, slots=True)
class SwissTeam:
    """One team as the pairing of the next round reads it.

    ``colours`` are the colours (of its board-1 player) in the matches it played, oldest first
    (:data:`BLACK`: FIDE's White); ``met`` the TPNs of the teams it played (matches forfeited as
    a whole excluded); ``bye_barred``: it had the PAB or won a match by forfeit ([C2]);
    ``matches``: matches played (3.4.3); ``floated``: it floated in the previous round (1.5).
    """

    tpn: int
    primary: float = 0.0
    secondary: float = 0.0
    colours: tuple[str, ...] = ()
    met: frozenset[int] = frozenset()
    bye_barred: bool = False
    matches: int = 0
    floated: bool = False


def colour_difference(colours: Sequence[str]) -> int:
    """Art. 1.6.2: matches with White (Abalone: first mover) less matches with Black."""
    return sum(1 if colour == BLACK else -1 for colour in colours)


def colour_preference(colours: Sequence[str], model: str, last_round: bool) -> tuple[str, bool]:
    """Art. 1.7: ``(colour, strong)``, colour ``""`` for none. Type A's preferences count as
    strong (Type A has one strength)."""
    if model == NO_PREFERENCES or not colours:
        return ("", False)
    difference = colour_difference(colours)
    last_two = tuple(colours[-2:])
    if difference < -1 or (difference in (0, -1) and last_two == (WHITE, WHITE)):
        return (BLACK, True)
    if difference > 1 or (difference in (0, 1) and last_two == (BLACK, BLACK)):
        return (WHITE, True)
    if model == TYPE_A:
        return ("", False)
    if difference == -1:
        return (BLACK, False)
    if difference == 1:
        return (WHITE, False)
    if not last_round:  # a difference of 0
        return (_OTHER[colours[-1]], False)
    return ("", False)


@dataclass(frozen=True, slots=True)
class TeamMatchRecord:
    """A match of a past round: ``first`` had Black (FIDE's White) on board 1, ``second`` is
    None for the PAB; ``results`` each board's result from its Black's side (board 1 first)."""

    round: int
    first: int
    second: int | None
    results: tuple[str, ...] = ()

    @property
    def played(self) -> bool:
        """Art. 1.6.1, C.04.2 3.5: a match counts as played when both teams came (one player
        each at a board); otherwise it was forfeited as a whole, no meeting for [C1]."""
        return self.second is not None and all(team_presence(self.results))


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's match points and game points after the rounds given."""

    match_points: float = 0.0
    game_points: float = 0.0


def team_standings(
    tpns: Sequence[int], matches: Sequence[TeamMatchRecord], boards: int, scoring: TeamScoring
) -> dict[int, TeamStanding]:
    """Each team's match points and game points (the PAB: a draw's, art. 1.4)."""
    points = {tpn: [0.0, 0.0] for tpn in tpns}
    for match in matches:
        for tpn, match_points, game_points in _match_points(match, boards, scoring):
            points[tpn][0] += match_points
            points[tpn][1] += game_points
    return {tpn: TeamStanding(*values) for tpn, values in points.items()}


def _match_points(
    match: TeamMatchRecord, boards: int, scoring: TeamScoring
) -> list[tuple[int, float, float]]:
    if match.second is None:
        return [(match.first, scoring.draw, boards / 2)]
    score = team_match_score(match.results)
    if match.played:
        first, second = score.match_points(scoring) or (0.0, 0.0)
    else:  # forfeited as a whole: the team that came wins it, a team that did not loses it
        came = team_presence(match.results)
        first, second = (scoring.win if here else scoring.loss for here in came)
        if not any(came):
            first = second = scoring.loss
    return [(match.first, first, score.first), (match.second, second, score.second)]


def swiss_teams(
    tpns: Sequence[int],
    matches: Sequence[TeamMatchRecord],
    boards: int,
    scoring: TeamScoring | None = None,
    primary: str = "match",
) -> list[SwissTeam]:
    """The teams ``tpns`` as the next round's pairing reads them, from the past rounds'
    ``matches`` of ``boards`` boards; ``primary`` is ``"match"`` (points, the default of
    art. 1.2.2) or ``"game"``."""
    scoring = scoring or TeamScoring()
    if primary not in ("match", "game"):
        raise PairingError(gettext_noop("the primary score is match or game points"))
    rounds = sorted({match.round for match in matches})
    colours: dict[int, list[str]] = {tpn: [] for tpn in tpns}
    met: dict[int, set[int]] = {tpn: set() for tpn in tpns}
    barred: set[int] = set()
    floated: set[int] = set()
    before = team_standings(tpns, [], boards, scoring)
    for number in rounds:
        of_round = [match for match in matches if match.round == number]
        floated = set()
        for match in of_round:
            if match.second is None:
                barred.add(match.first)
                continue
            sides = (match.first, match.second)
            if not match.played:
                winner = _forfeit_winner(match)
                if winner is not None:
                    barred.add(winner)
                continue
            colours[match.first].append(BLACK)
            colours[match.second].append(WHITE)
            met[match.first].add(match.second)
            met[match.second].add(match.first)
            scores = [_primary(before[tpn], primary) for tpn in sides]
            if scores[0] != scores[1]:
                floated.update(sides)
        before = team_standings(
            tpns, [match for match in matches if match.round <= number], boards, scoring
        )
    secondary = "game" if primary == "match" else "match"
    return [
        SwissTeam(
            tpn,
            _primary(before[tpn], primary),
            _primary(before[tpn], secondary),
            tuple(colours[tpn]),
            frozenset(met[tpn]),
            tpn in barred,
            len(colours[tpn]),
            tpn in floated,
        )
        for tpn in tpns
    ]


def _primary(standing: TeamStanding, score: str) -> float:
    return standing.match_points if score == "match" else standing.game_points


def _forfeit_winner(match: TeamMatchRecord) -> int | None:
    """The team that came to a match forfeited as a whole (None: neither came)."""
    came_first, came_second = team_presence(match.results)
    if came_first and not came_second:
        return match.first
    if came_second and not came_first:
        return match.second
    return None
