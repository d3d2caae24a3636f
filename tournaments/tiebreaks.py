"""Standings, FIDE tie-breaks and the Abalone marble tie-break: pure Python, no Django.

Public API:

- input: :class:`StandingsInput` ``(players, total_rounds, rounds_played=None,
  scoring=Scoring(), round_robin=False)`` of :class:`StandingsPlayer` ``(number, name,
  rating=0, entries=())`` of :class:`GameEntry` ``(round, opponent, colour, result,
  marbles_for=None, marbles_against=None, termination=None, marbles_to_win=6)``;
- :data:`TIEBREAKS`: code -> :class:`Tiebreak` ``(code, short, name, article)``;
- :func:`compute_standings` ``(data, order) -> list[StandingRow]``: ranked rows with points and
  the value of each tie-break named in ``order``;
- :func:`crosstable` ``(data) -> list[CrosstableRow]``: per player and round the opponent,
  colour and result, in pairing-number order.

Colours and result codes are those of :mod:`tournaments.pairing` (``"b"`` = Black = the first
mover; TRF codes ``1 = 0 + - H F U Z``).  Missing rounds up to ``rounds_played`` count as ``Z``.

Tie-breaks follow the FIDE Tie-Break Regulations C.07 in their 2023 version (approved by the
FIDE Council in 2023, in force for tournaments from 1 August 2024), as implemented by FIDE's own
TieBreakServer (TEC-FIDE), and checked against the TEC's published 2024 exercise:

- Unplayed rounds (C.07 Art. 16).  A *voluntarily unplayed round* (VUR, 16.2.5) is a
  half-point bye (H), a zero-point bye or absence (Z) or a forfeit loss (-).  Pairing-allocated
  byes (U), full-point byes (F) and forfeit wins (+) are unplayed but not voluntary.
- Opponent's adjusted score (Art. 16.3; 16.3.2 evaluates VURs as draws): an opponent's score is used as it stands, except that
  each of their rounds *after their last round that is not a VUR* and without a scheduled
  opponent counts as a draw (a withdrawal is not allowed to drag the Buchholz of earlier
  opponents down).  In a round-robin such rounds count 0.
- Participant's own unplayed rounds (Art. 16.4, the "dummy opponent"): in a Swiss event each
  round in which the participant did not play over the board (bye, forfeit, absence) counts in
  Buchholz as an opponent with the participant's own final score, and in Sonneborn-Berger as that
  score times the points the participant got in that round.  In a round-robin it counts 0.
  As amended in March 2026 (``rules=FIDE_2026``; events from 1 March 2026) the dummy's score is
  capped: for a forfeit (16.4.1) at the scheduled opponent's adjusted score, for a round without
  an opponent (16.4.2: any bye, an absence) at half the maximum, a draw's points times the
  rounds counted.  FIDE's TieBreakServer computes it so; the TEC exercise moves players 4, 6
  and 11.
- Cut modifiers (Art. 14): Cut-1 removes the least significant value, but a VUR is removed
  first when there is one (Art. 14.6 as the TieBreakServer cites it); Median-1 also removes the
  highest value.

Article numbers are those of the 2023 text as cited by the TEC's TieBreakServer and by other
implementations; the Handbook page itself could not be consulted while writing this module.

Codes, FIDE acronyms and articles: see :data:`TIEBREAKS`.  ``black_games`` counts games played
over the board as Black, the *first* mover: that is what the club asked for ("games played with
Black, the side that moves first"); FIDE's BPG (7.3) rewards the second mover, which in
Abalone would be White.  ``wins`` is FIDE's WIN (rounds scored as a win, played or not);
``games_won`` is WON (games won over the board).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.model import (
    BLACK,
    PLAYED_RESULTS,
    RESULT_CODES,
    PairingError,
    Scoring,
)

# Decisive results reached without pushing off ``marbles_to_win`` marbles: the marble
# tie-break counts them as marbles_to_win for the winner (Abalone practice).
CONVENTIONAL_WIN_TERMINATIONS = frozenset(
    {"time", "resignation", "forfeit", "abandoned", "no_legal_moves"}
)
DRAW_MARBLES = (3, 3)
BYE_MARBLES = (6, 4)
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
    ``"marbles"``, ``"time"``, ``"resignation"``, ``"forfeit"``) and the game's
    ``marbles_to_win``."""

    round: int
    opponent: int | None
    colour: str | None
    result: str
    marbles_for: int | None = None
    marbles_against: int | None = None
    termination: str | None = None
    marbles_to_win: int = 6

    @property
    def played(self) -> bool:
        return self.result in PLAYED_RESULTS and self.opponent is not None


@dataclass(frozen=True, slots=True)
class StandingsPlayer:
    number: int
    name: str
    rating: int = 0
    entries: tuple[GameEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingsInput:
    """Everything the standings need.  ``rounds_played`` (default: the last round present in
    any entry) is the number of rounds counted; ``round_robin`` switches the unplayed-round
    rules to their round-robin form and is required for Koya to mean anything."""

    players: tuple[StandingsPlayer, ...]
    total_rounds: int
    rounds_played: int | None = None
    scoring: Scoring = field(default_factory=Scoring)
    round_robin: bool = False
    #: the text of C.07 to follow: :data:`FIDE_2023` or :data:`FIDE_2026`
    rules: str = "fide-2023"


@dataclass(frozen=True, slots=True)
class Tiebreak:
    code: str
    short: str
    name: str
    article: str


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings: ``values`` maps each requested tie-break code to its value
    (for ``direct_encounter``: the points scored against the players tied with this one when
    the criterion was applied)."""

    rank: int
    number: int
    name: str
    rating: int
    points: float
    values: dict[str, float]


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


TIEBREAKS: dict[str, Tiebreak] = {
    t.code: t
    for t in (
        Tiebreak("buchholz", "BH", "Buchholz", "C.07 8.1, unplayed rounds 16"),
        Tiebreak("buchholz_cut1", "BH-C1", "Buchholz cut 1", "C.07 8.1, modifier 14, 16"),
        Tiebreak("median_buchholz", "BH-M1", "Median Buchholz", "C.07 8.1, modifier 14, 16"),
        Tiebreak("sonneborn_berger", "SB", "Sonneborn-Berger", "C.07 9.1, unplayed rounds 16"),
        Tiebreak("direct_encounter", "DE", "Direct encounter", "C.07 6"),
        Tiebreak("wins", "WIN", "Number of wins (played or not)", "C.07 7.1"),
        Tiebreak("games_won", "WON", "Number of games won over the board", "C.07 7.2"),
        Tiebreak("black_games", "BPG", "Games played with Black (first mover)", "cf. C.07 7.3"),
        Tiebreak("progressive", "PS", "Progressive score", "C.07 7.5"),
        Tiebreak("koya", "KS", "Koya score (round-robin)", "C.07 9.2"),
        Tiebreak("marbles", "MB", "Marble difference (Abalone)", "Abalone practice"),
    )
}


class _Table:
    """The normalised input: per player a full list of rounds 1..R and the derived scores."""

    def __init__(self, data: StandingsInput) -> None:
        self.data = data
        self.scoring = data.scoring
        self.rr = data.round_robin
        numbers = [p.number for p in data.players]
        if len(set(numbers)) != len(numbers):
            raise PairingError("a pairing number appears twice in the standings input")
        for player in data.players:
            for entry in player.entries:
                if entry.result not in RESULT_CODES:
                    raise PairingError(
                        f"player {player.number}, round {entry.round}: unknown result "
                        f"{entry.result!r}"
                    )
                if entry.opponent is not None and entry.opponent not in numbers:
                    raise PairingError(
                        f"player {player.number}, round {entry.round}: unknown opponent "
                        f"{entry.opponent}"
                    )
        if data.rules not in RULES:
            raise PairingError(
                f"unknown tie-break rules {data.rules!r} (choose from {', '.join(RULES)})"
            )
        rounds = data.rounds_played
        if rounds is None:
            rounds = max((e.round for p in data.players for e in p.entries), default=0)
        self.rounds = rounds
        self.players = {p.number: p for p in data.players}
        self.games: dict[int, list[GameEntry]] = {}
        for player in data.players:
            by_round = {e.round: e for e in player.entries}
            self.games[player.number] = [
                by_round.get(r) or GameEntry(r, None, None, "Z") for r in range(1, rounds + 1)
            ]
        self.round_points = {
            n: [self.scoring.points(g.result) for g in games] for n, games in self.games.items()
        }
        self.points = {n: sum(values) for n, values in self.round_points.items()}
        self.adjusted = {n: self._adjusted_score(n) for n in self.games}

    def _adjusted_score(self, number: int) -> float:
        """C.07 16.3: the score an opponent contributes to Buchholz and Sonneborn-Berger."""
        games = self.games[number]
        last_available = max(
            (g.round for g in games if g.result not in VOLUNTARILY_UNPLAYED), default=0
        )
        total = 0.0
        for game, points in zip(games, self.round_points[number], strict=True):
            if game.round <= last_available or game.opponent is not None:
                total += points
            elif not self.rr:
                total += self.scoring.draw
        return total

    def _dummy(self, own: float, game: GameEntry) -> float:
        """The score of the dummy opponent of a participant's own unplayed round (C.07 16.4):
        their own final score; as amended in March 2026, at most the scheduled opponent's
        adjusted score for a forfeit (16.4.1), at most half the maximum (a draw's points
        times the rounds counted) for a round without an opponent (16.4.2)."""
        if self.data.rules == FIDE_2023:
            return own
        if game.opponent is not None:
            return min(own, self.adjusted[game.opponent])
        return min(own, self.scoring.draw * self.rounds)

    def opponent_items(self, number: int) -> list[tuple[float, float, bool]]:
        """Per counted round: (opponent's score, Sonneborn-Berger product, is a VUR)."""
        items = []
        own = self.points[number]
        for game, points in zip(self.games[number], self.round_points[number], strict=True):
            vur = game.result in VOLUNTARILY_UNPLAYED
            if game.played:
                score = self.adjusted[game.opponent]  # type: ignore[index]
            elif not self.rr:
                score = self._dummy(own, game)
            elif game.opponent is not None:
                score = 0.0
            else:
                continue  # a round-robin bye is no game at all
            items.append((score, score * points, vur))
        return items


def _cut(items: list[tuple[float, float, bool]], low: int, high: int) -> list:
    items = list(items)
    for _ in range(min(low, len(items))):
        vurs = [item for item in items if item[2]]
        pool = vurs or items
        items.remove(min(pool, key=lambda item: (item[0], item[1])))
    for _ in range(min(high, len(items))):
        items.remove(max(items, key=lambda item: (item[0], item[1])))
    return items


def _buchholz(table: _Table, low: int = 0, high: int = 0) -> dict[int, float]:
    return {
        n: sum(item[0] for item in _cut(table.opponent_items(n), low, high)) for n in table.games
    }


def _sonneborn_berger(table: _Table) -> dict[int, float]:
    return {n: sum(item[1] for item in table.opponent_items(n)) for n in table.games}


def _wins(table: _Table) -> dict[int, float]:
    win = table.scoring.win
    return {n: float(sum(1 for p in pts if p == win)) for n, pts in table.round_points.items()}


def _games_won(table: _Table) -> dict[int, float]:
    return {
        n: float(sum(1 for g in games if g.played and g.result == "1"))
        for n, games in table.games.items()
    }


def _black_games(table: _Table) -> dict[int, float]:
    return {
        n: float(sum(1 for g in games if g.played and g.colour == BLACK))
        for n, games in table.games.items()
    }


def _progressive(table: _Table) -> dict[int, float]:
    out = {}
    for n, pts in table.round_points.items():
        running = total = 0.0
        for value in pts:
            running += value
            total += running
        out[n] = total
    return out


def _koya(table: _Table) -> dict[int, float]:
    threshold = table.scoring.win * table.rounds / 2
    out = {}
    for n, games in table.games.items():
        out[n] = sum(
            points
            for game, points in zip(games, table.round_points[n], strict=True)
            if game.opponent is not None and table.points[game.opponent] >= threshold
        )
    return out


def game_marbles(game: GameEntry, scoring: Scoring) -> tuple[int, int]:
    """(marbles for, marbles against) of one round under the Abalone conventions: a draw counts
    3-3, a bye 6-4, a win on time, by resignation or forfeit ``marbles_to_win`` against what the
    loser had pushed off (0 when unknown), an absence 0-0; otherwise the recorded counts."""
    result = game.result
    if result in ("U", "F"):
        return BYE_MARBLES
    if result in ("H", "="):
        return DRAW_MARBLES
    if result == "Z":
        return (0, 0)
    won = result in ("1", "+")
    conventional = result in ("+", "-") or game.termination in CONVENTIONAL_WIN_TERMINATIONS
    known = game.marbles_for is not None and game.marbles_against is not None
    if won:
        if conventional or not known:
            return (game.marbles_to_win, game.marbles_against or 0)
        return (game.marbles_for, game.marbles_against)  # type: ignore[return-value]
    if conventional or not known:
        return (game.marbles_for or 0, game.marbles_to_win)
    return (game.marbles_for, game.marbles_against)  # type: ignore[return-value]


def _marbles(table: _Table) -> dict[int, float]:
    out = {}
    for n, games in table.games.items():
        total = 0
        for game in games:
            marbles_for, marbles_against = game_marbles(game, table.scoring)
            total += marbles_for - marbles_against
        out[n] = float(total)
    return out


_SIMPLE: dict[str, Callable[[_Table], dict[int, float]]] = {
    "buchholz": _buchholz,
    "buchholz_cut1": lambda table: _buchholz(table, low=1),
    "median_buchholz": lambda table: _buchholz(table, low=1, high=1),
    "sonneborn_berger": _sonneborn_berger,
    "wins": _wins,
    "games_won": _games_won,
    "black_games": _black_games,
    "progressive": _progressive,
    "koya": _koya,
    "marbles": _marbles,
}


def _direct_encounter(table: _Table, group: list[int]) -> tuple[dict[int, int], dict[int, float]]:
    """C.07 6: ranks (1 = best) inside a group tied on every earlier criterion, and each
    player's points against the rest of the group.

    Only games played over the board count.  If every member has met every other member (always
    so in a round-robin) the points decide; otherwise a player is placed above the rest only if
    their points exceed what any of the others could have reached by also winning their missing
    encounters.  Players still level are compared again among themselves, until nothing changes.
    """
    win = table.scoring.win
    ranks: dict[int, int] = {}
    display: dict[int, float] = {}

    def scores(members: list[int]) -> tuple[dict[int, float], dict[int, float]]:
        inside = set(members)
        value, maximum = {}, {}
        for n in members:
            per_opponent: dict[int, list[float]] = defaultdict(list)
            for game, points in zip(table.games[n], table.round_points[n], strict=True):
                if game.played and game.opponent in inside:
                    per_opponent[game.opponent].append(points)  # type: ignore[index]
            value[n] = sum(sum(v) / len(v) for v in per_opponent.values())
            missing = len(members) - 1 - len(per_opponent)
            maximum[n] = value[n] + (0 if table.rr else missing * win)
        return value, maximum

    def resolve(members: list[int], base: int, first_pass: bool) -> None:
        if len(members) == 1:
            ranks[members[0]] = base
            return
        value, maximum = scores(members)
        if first_pass:
            display.update(value)
        everyone_met = all(maximum[n] == value[n] for n in members)
        ordered = sorted(members, key=lambda n: (-value[n], -maximum[n], n))
        subgroups: list[list[int]] = [[ordered[0]]]
        separated = True
        for index in range(1, len(ordered)):
            previous, current = ordered[index - 1], ordered[index]
            if everyone_met:
                split = value[previous] != value[current]
            else:
                split = separated and value[previous] > max(maximum[n] for n in ordered[index:])
                separated = split
            if split:
                subgroups.append([current])
            else:
                subgroups[-1].append(current)
        if len(subgroups) == 1:
            for n in members:
                ranks[n] = base
            return
        offset = base
        for subgroup in subgroups:
            resolve(subgroup, offset, False)
            offset += len(subgroup)

    resolve(sorted(group), 1, True)
    return ranks, display


def compute_standings(data: StandingsInput, order: Sequence[str]) -> list[StandingRow]:
    """Rank the players by points, then by the tie-breaks named in ``order`` (codes of
    :data:`TIEBREAKS`), then by pairing number.  Players share a rank only when their points and
    every chosen tie-break are equal.  Raises :class:`PairingError` for an unknown code."""
    for code in order:
        if code not in TIEBREAKS:
            raise PairingError(f"unknown tie-break {code!r} (choose from {', '.join(TIEBREAKS)})")
    table = _Table(data)
    numbers = sorted(table.games)
    keys: dict[int, list[float]] = {n: [table.points[n]] for n in numbers}
    values: dict[int, dict[str, float]] = {n: {} for n in numbers}
    for code in order:
        if code == "direct_encounter":
            groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
            for n in numbers:
                groups[tuple(keys[n])].append(n)
            for members in groups.values():
                ranks, display = _direct_encounter(table, members)
                for n in members:
                    keys[n].append(-ranks[n])
                    values[n][code] = display.get(n, 0.0)
            continue
        computed = _SIMPLE[code](table)
        for n in numbers:
            keys[n].append(computed[n])
            values[n][code] = computed[n]

    ordered = sorted(numbers, key=lambda n: ([-k for k in keys[n]], n))
    rows: list[StandingRow] = []
    for index, n in enumerate(ordered):
        tied = index > 0 and keys[n] == keys[ordered[index - 1]]
        rank = rows[-1].rank if tied else index + 1
        player = table.players[n]
        rows.append(StandingRow(rank, n, player.name, player.rating, table.points[n], values[n]))
    return rows


def crosstable(data: StandingsInput) -> list[CrosstableRow]:
    """Per player (in pairing-number order) and round: opponent, colour, result and points."""
    table = _Table(data)
    rows = []
    for n in sorted(table.games):
        player = table.players[n]
        cells = tuple(
            CrosstableCell(g.round, g.opponent, g.colour, g.result, points)
            for g, points in zip(table.games[n], table.round_points[n], strict=True)
        )
        rows.append(CrosstableRow(n, player.name, player.rating, table.points[n], cells))
    return rows
