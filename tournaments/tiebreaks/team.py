"""Team standings and the team tie-breaks of FIDE's Tie-Break Regulations (Handbook C.07):
pure Python, no Django.

A team event ranks its teams by their **primary score**, match points (2 / 1 / 0 by default)
or game points (the sum of the boards' points), then by tie-breaks the director lists:

- ``MPvGP``: the other of the two scores (game points when match points rank first);
- the individual tie-breaks read at the team's level, on the primary score: Buchholz (BH,
  C.07 8.1, with its cut), Sonneborn-Berger (SB, 9.1), direct encounter (DE, 6), wins (WIN,
  7.1: matches won, by forfeit too) and matches won over the board (WON, 7.2), the pairing
  number (TPN);
- the **Extended Sonneborn-Berger** family: ``EMMSB``, ``EMGSB``, ``EGMSB``, ``EGGSB``, the
  opponents' match (M) or game (G) points times the match (M) or game (G) points scored
  against them (so ``EMGSB`` = the opponents' match points times one's game points);
- the board criteria: **board count** (BC: the sum over the boards of the board's number times
  the points scored on it; the lower ranks first, as points won on the higher boards count
  more), **top-board result** (TBR: the points on board 1, then board 2, ...) and
  **board-by-board elimination** (BBE: the game points without the last board, then without
  the last two, ...).

Unplayed rounds follow C.07 Art. 16 exactly as for players (:mod:`tournaments.tiebreaks.table`,
the team's match being its game): a match forfeited as a whole is unplayed, the pairing-
allocated bye too. The values are those of FIDE's own TieBreakServer (``gacrux``), checked
against it on generated team events (``tests/tournaments/test_team_tiebreaks_checker.py``).

The rounds come as the team Swiss engine's :class:`TeamMatchRecord` (the first team has Black,
FIDE's White, on board 1; each board's result from its Black's side; ``second`` None for the
bye), so a team round-robin and a team Swiss are ranked alike.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from core.messages import gettext_noop
from tournaments.pairing.matches import game_points, shares
from tournaments.pairing.model import BLACK, WHITE, PairingError, Scoring
from tournaments.pairing.team_swiss import TeamMatchRecord
from tournaments.pairing.teams import TeamScoring, board_colours, team_match_score, team_presence
from tournaments.tiebreaks import scores
from tournaments.tiebreaks.encounter import direct_encounter
from tournaments.tiebreaks.model import (
    FIDE_2023,
    GameEntry,
    StandingsInput,
    StandingsPlayer,
    Tiebreak,
)
from tournaments.tiebreaks.table import Table, cut

MATCH = "match"
GAME = "game"

_BH = "C.07 8.1 at the team's level, unplayed rounds 16"
_ESB = "C.07 Extended Sonneborn-Berger (team), unplayed rounds 16"
TEAM_TIEBREAKS: dict[str, Tiebreak] = {
    t.code: t
    for t in (
        Tiebreak(
            "secondary_score",
            "MPvGP",
            gettext_noop("The other score (game or match points)"),
            "C.07",
        ),
        Tiebreak("buchholz", "BH", gettext_noop("Buchholz"), _BH),
        Tiebreak("buchholz_cut1", "BH-C1", gettext_noop("Buchholz cut 1"), _BH + ", cuts 14"),
        Tiebreak(
            "sonneborn_berger",
            "SB",
            gettext_noop("Sonneborn-Berger"),
            "C.07 9.1, unplayed rounds 16",
        ),
        Tiebreak("esb_mm", "EMMSB", gettext_noop("Opponents' match points x match points"), _ESB),
        Tiebreak("esb_mg", "EMGSB", gettext_noop("Opponents' match points x game points"), _ESB),
        Tiebreak("esb_gm", "EGMSB", gettext_noop("Opponents' game points x match points"), _ESB),
        Tiebreak("esb_gg", "EGGSB", gettext_noop("Opponents' game points x game points"), _ESB),
        Tiebreak("direct_encounter", "DE", gettext_noop("Direct encounter"), "C.07 6"),
        Tiebreak("wins", "WIN", gettext_noop("Matches won (played or not)"), "C.07 7.1"),
        Tiebreak("games_won", "WON", gettext_noop("Matches won over the board"), "C.07 7.2"),
        Tiebreak("board_count", "BC", gettext_noop("Board count"), "C.07 (team)", lower_first=True),
        Tiebreak("top_board", "TBR", gettext_noop("Top-board result"), "C.07 (team)"),
        Tiebreak(
            "board_elimination", "BBE", gettext_noop("Board-by-board elimination"), "C.07 (team)"
        ),
        Tiebreak(
            "pairing_number", "TPN", gettext_noop("Pairing number"), "C.07 7.8", lower_first=True
        ),
    )
}


@dataclass(frozen=True, slots=True)
class TeamStandingsInput:
    """Everything the team standings need: the teams ``(number, name)``, the matches of the
    rounds so far, the event's boards, rounds and scores. ``primary`` is ``"match"`` or
    ``"game"``; ``game_scoring`` the points of one board's game (1 / ½ / 0)."""

    teams: tuple[tuple[int, str], ...]
    boards: int
    matches: tuple[TeamMatchRecord, ...]
    total_rounds: int
    rounds_played: int | None = None
    primary: str = MATCH
    scoring: TeamScoring = field(default_factory=TeamScoring)
    game_scoring: Scoring = field(default_factory=Scoring)
    round_robin: bool = False
    rules: str = FIDE_2023


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round of one team: the opponent (None: the bye or not paired), the team's colour on
    board 1, the match's result as a TRF code from this team's side (``1 = 0`` played, ``+ -``
    forfeited as a whole, ``U`` the bye), its match and game points and each board's points."""

    round: int
    opponent: int | None
    colour: str | None
    result: str
    match_points: float
    game_points: float
    board_points: tuple[float, ...]
    boards_played: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamStandingRow:
    rank: int
    number: int
    name: str
    match_points: float
    game_points: float
    values: dict[str, float | None]


def team_rounds(data: TeamStandingsInput) -> dict[int, dict[int, TeamRound]]:
    """Per team and round its :class:`TeamRound` (rounds it was not paired in are absent)."""
    numbers = {number for number, _ in data.teams}
    out: dict[int, dict[int, TeamRound]] = {number: {} for number in numbers}
    scoring, boards = data.scoring, data.boards
    for match in data.matches:
        if match.first not in numbers or (match.second is not None and match.second not in numbers):
            raise PairingError(f"round {match.round}: a match of a team not in the event")
        if match.second is None:
            game = data.game_scoring
            out[match.first][match.round] = TeamRound(
                match.round, None, None, "U", scoring.draw, boards * game.draw, (game.win,) * boards
            )
            continue
        first, second = _board_points(match.results, data.game_scoring)
        over_the_board = tuple(
            bool(result) and not (shares(result) or (0, 0, True))[2] for result in match.results
        )
        score = team_match_score(match.results, data.game_scoring)
        if match.played:
            points = score.match_points(scoring) or (0.0, 0.0)
            codes = tuple(
                "1" if mine > theirs else "0" if mine < theirs else "="
                for mine, theirs in (points, points[::-1])
            )
        else:  # forfeited as a whole: the team that came wins it, both lose when neither came
            came = team_presence(match.results)
            codes = tuple("+" if here and not all(came) else "-" for here in came)
            points = tuple(scoring.win if code == "+" else scoring.loss for code in codes)
        sides = ((match.first, match.second, BLACK), (match.second, match.first, WHITE))
        for index, (team, opponent, colour) in enumerate(sides):
            out[team][match.round] = TeamRound(
                match.round,
                opponent,
                colour,
                codes[index],
                points[index],
                (score.first, score.second)[index],
                (first, second)[index],
                over_the_board,
            )
    return out


def _board_points(results: Sequence[str], scoring: Scoring) -> tuple[tuple, tuple]:
    """Each board's points of the first and of the second team."""
    first, second = [], []
    for colour, result in zip(board_colours(len(results)), results, strict=True):
        read = shares(result) if result else None
        if read is None:
            first.append(0.0)
            second.append(0.0)
            continue
        black, white, forfeit = read
        black_points = game_points(black, forfeit, scoring)
        white_points = game_points(white, forfeit, scoring)
        mine, theirs = (
            (black_points, white_points) if colour == BLACK else (white_points, black_points)
        )
        first.append(mine)
        second.append(theirs)
    return tuple(first), tuple(second)


class TeamTable:
    """The event read once: per team its rounds, and one :class:`Table` per score (match
    points, game points), on which the individual tie-breaks' Art. 16 apply unchanged."""

    def __init__(self, data: TeamStandingsInput) -> None:
        if data.primary not in (MATCH, GAME):
            raise PairingError("the primary score is match or game points")
        self.data = data
        self.rounds = team_rounds(data)
        played = max((match.round for match in data.matches), default=0)
        self.played = data.rounds_played if data.rounds_played is not None else played
        scoring, game, boards = data.scoring, data.game_scoring, data.boards
        self.tables = {
            MATCH: self._table(
                lambda r: r.match_points,
                Scoring(scoring.win, scoring.draw, scoring.loss, scoring.draw),
            ),
            GAME: self._table(
                lambda r: r.game_points,
                Scoring(
                    boards * game.win, boards * game.draw, boards * game.loss, boards * game.draw
                ),
            ),
        }
        self.primary = self.tables[data.primary]
        self.secondary = self.tables[GAME if data.primary == MATCH else MATCH]

    def _table(self, points: Callable[[TeamRound], float], scoring: Scoring) -> Table:
        players = tuple(
            StandingsPlayer(
                number,
                name,
                entries=tuple(
                    GameEntry(r.round, r.opponent, r.colour, r.result, points=points(r))
                    for r in sorted(self.rounds[number].values(), key=lambda r: r.round)
                    if r.round <= self.played
                ),
            )
            for number, name in self.data.teams
        )
        return Table(
            StandingsInput(
                players,
                self.data.total_rounds,
                self.played,
                scoring,
                self.data.round_robin,
                self.data.rules,
            )
        )

    def board_totals(self, number: int) -> list[float]:
        """The team's points on each board, over the rounds counted."""
        totals = [0.0] * self.data.boards
        for r in self.rounds[number].values():
            if r.round <= self.played:
                for index, points in enumerate(r.board_points):
                    totals[index] += points
        return totals


Values = dict[int, float | None]


def _extended_sb(opponents: str, own: str, team: TeamTable) -> Values:
    """The opponents' ``opponents`` points (adjusted by Art. 16) times the ``own`` points
    scored against them."""
    table, results = team.tables[opponents], team.tables[own].round_points
    return {
        n: sum(c.product for c in cut(table.contributions_against(n, results[n]), 0, 0))
        for n in table.games
    }


def _secondary(team: TeamTable) -> Values:
    return dict(team.secondary.points)


def _wins(team: TeamTable, over_the_board: bool) -> Values:
    """WIN and WON in the primary score's units: matches won when match points rank first,
    boards won when game points do (WON: over the board only)."""
    if team.data.primary == MATCH:
        table = team.tables[MATCH]
        return scores.games_won(table) if over_the_board else scores.wins(table)
    win = team.data.game_scoring.win
    out: Values = {}
    for n in team.primary.games:
        count = 0
        for r in team.rounds[n].values():
            if r.round > team.played:
                continue
            played = r.boards_played or (False,) * len(r.board_points)
            count += sum(
                1
                for points, at_board in zip(r.board_points, played, strict=True)
                if points == win and (at_board or not over_the_board)
            )
        out[n] = float(count)
    return out


def _board_count(team: TeamTable) -> Values:
    return {
        n: sum(board * points for board, points in enumerate(team.board_totals(n), start=1))
        for n in team.primary.games
    }


_VALUES: dict[str, Callable[[TeamTable], Values]] = {
    "secondary_score": _secondary,
    "buchholz": lambda t: scores.buchholz(t.primary),
    "buchholz_cut1": lambda t: scores.buchholz(t.primary, low=1),
    "sonneborn_berger": lambda t: scores.sonneborn_berger(t.primary),
    "esb_mm": partial(_extended_sb, MATCH, MATCH),
    "esb_mg": partial(_extended_sb, MATCH, GAME),
    "esb_gm": partial(_extended_sb, GAME, MATCH),
    "esb_gg": partial(_extended_sb, GAME, GAME),
    "wins": lambda t: _wins(t, over_the_board=False),
    "games_won": lambda t: _wins(t, over_the_board=True),
    "board_count": _board_count,
    "pairing_number": lambda t: scores.pairing_number(t.primary),
}


def _top_board(team: TeamTable, number: int) -> list[float]:
    """TBR's comparisons in turn: board 1's points, then board 2's, ..."""
    return team.board_totals(number)


def _elimination(team: TeamTable, number: int) -> list[float]:
    """BBE's comparisons in turn: the game points without the last board, then without the
    last two, ... down to board 1's alone."""
    totals = team.board_totals(number)
    return [sum(totals[:kept]) for kept in range(len(totals) - 1, 0, -1)]


#: The board criteria compared in turn (each a list of values, higher first).
_SEQUENCES: dict[str, Callable[[TeamTable, int], list[float]]] = {
    "top_board": _top_board,
    "board_elimination": _elimination,
}


def _sort_value(tiebreak: Tiebreak, value: float | None) -> float:
    if value is None:
        return float("inf")
    return value if tiebreak.lower_first else -value


def compute_team_standings(data: TeamStandingsInput, order: Sequence[str]) -> list[TeamStandingRow]:
    """Rank the teams by their primary score, then by the tie-breaks named in ``order`` (codes
    of :data:`TEAM_TIEBREAKS`), then by pairing number. Teams share a rank only when the score
    and every chosen tie-break are equal. Raises :class:`PairingError` for an unknown code."""
    for code in order:
        if code not in TEAM_TIEBREAKS:
            raise PairingError(
                f"unknown team tie-break {code!r} (choose from {', '.join(TEAM_TIEBREAKS)})"
            )
    team = TeamTable(data)
    numbers = sorted(team.primary.games)
    keys: dict[int, list[float]] = {n: [-team.primary.points[n]] for n in numbers}
    values: dict[int, dict[str, float | None]] = {n: {} for n in numbers}
    for code in order:
        if code == "direct_encounter":
            groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
            for n in numbers:
                groups[tuple(keys[n])].append(n)
            for members in groups.values():
                ranks, display = direct_encounter(team.primary, members)
                for n in members:
                    keys[n].append(ranks[n])
                    values[n][code] = display.get(n, 0.0)
            continue
        if code in _SEQUENCES:
            for n in numbers:
                sequence = _SEQUENCES[code](team, n)
                keys[n].extend(-value for value in sequence)
                values[n][code] = sequence[0] if sequence else None
            continue
        computed = _VALUES[code](team)
        for n in numbers:
            keys[n].append(_sort_value(TEAM_TIEBREAKS[code], computed[n]))
            values[n][code] = computed[n]
    names = dict(data.teams)
    ordered = sorted(numbers, key=lambda n: (keys[n], n))
    rows: list[TeamStandingRow] = []
    for index, n in enumerate(ordered):
        tied = index > 0 and keys[n] == keys[ordered[index - 1]]
        rank = rows[-1].rank if tied else index + 1
        rows.append(
            TeamStandingRow(
                rank,
                n,
                names[n],
                team.tables[MATCH].points[n],
                team.tables[GAME].points[n],
                values[n],
            )
        )
    return rows
