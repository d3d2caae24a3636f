"""Standings, FIDE tie-breaks and the Abalone marble tie-break: pure Python, no Django.

Public API:

- input: :class:`StandingsInput` ``(players, total_rounds, rounds_played=None,
  scoring=Scoring(), round_robin=False, rules=FIDE_2023, unrated_rating=None)`` of
  :class:`StandingsPlayer` ``(number, name, rating=0, entries=())`` of :class:`GameEntry`
  ``(round, opponent, colour, result, marbles_for=None, marbles_against=None,
  termination=None, marbles_to_win=6)``;
- :data:`TIEBREAKS`: code -> :class:`Tiebreak` ``(code, short, name, article, lower_first)``;
- :func:`compute_standings` ``(data, order) -> list[StandingRow]``: ranked rows with points and
  the value of each tie-break named in ``order``;
- :func:`crosstable` ``(data) -> list[CrosstableRow]``: per player and round the opponent,
  colour and result, in pairing-number order.

Colours and result codes are those of :mod:`tournaments.pairing` (``"b"`` = Black = the first
mover = FIDE's White; TRF codes ``1 = 0 + - H F U Z``). Missing rounds up to ``rounds_played``
count as ``Z``.

Every tie-break of the FIDE Tie-Break Regulations (Handbook C.07) that applies to individual
events, in the 2023 text (``rules=FIDE_2023``) and as amended in March 2026 (``FIDE_2026``),
as FIDE's own TieBreakServer (TEC) computes them and checked against it on generated events
(``tests/tournaments/test_tiebreaks_fide_checker.py``). Unplayed rounds follow Art. 16
(:mod:`tournaments.tiebreaks.table`); the rating-based ones Art. 10
(:mod:`tournaments.tiebreaks.ratings`); direct encounter Art. 6
(:mod:`tournaments.tiebreaks.encounter`). The articles are those of the 2023 text as the TEC's
exercise and checker cite them; ``docs/tiebreaks.md`` lists each with what it counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import partial

from tournaments.pairing.model import PairingError
from tournaments.tiebreaks import scores
from tournaments.tiebreaks.encounter import direct_encounter
from tournaments.tiebreaks.model import (
    FIDE_2023,
    FIDE_2026,
    RULES,
    VOLUNTARILY_UNPLAYED,
    CrosstableCell,
    CrosstableRow,
    GameEntry,
    StandingRow,
    StandingsInput,
    StandingsPlayer,
    Tiebreak,
)
from tournaments.tiebreaks.ratings import RatingTiebreaks
from tournaments.tiebreaks.scores import game_marbles
from tournaments.tiebreaks.table import Table

__all__ = [
    "FIDE_2023",
    "FIDE_2026",
    "RULES",
    "TIEBREAKS",
    "VOLUNTARILY_UNPLAYED",
    "CrosstableCell",
    "CrosstableRow",
    "GameEntry",
    "StandingRow",
    "StandingsInput",
    "StandingsPlayer",
    "Tiebreak",
    "compute_standings",
    "crosstable",
    "game_marbles",
]

_BH = "C.07 8.1, cuts 14, unplayed rounds 16"
TIEBREAKS: dict[str, Tiebreak] = {
    t.code: t
    for t in (
        Tiebreak("buchholz", "BH", "Buchholz", _BH),
        Tiebreak("buchholz_cut1", "BH-C1", "Buchholz cut 1", _BH),
        Tiebreak("buchholz_cut2", "BH-C2", "Buchholz cut 2", _BH),
        Tiebreak("median_buchholz", "BH-M1", "Median Buchholz", _BH),
        Tiebreak("median_buchholz2", "BH-M2", "Median Buchholz 2", _BH),
        Tiebreak("fore_buchholz", "FB", "Fore Buchholz", "C.07 8.3, unplayed rounds 16"),
        Tiebreak("average_opponents_buchholz", "AOB", "Average of opponents' Buchholz", "C.07 8.2"),
        Tiebreak("sonneborn_berger", "SB", "Sonneborn-Berger", "C.07 9.1, unplayed rounds 16"),
        Tiebreak(
            "sonneborn_berger_cut1", "SB-C1", "Sonneborn-Berger cut 1", "C.07 9.1, cuts 14, 16.5"
        ),
        Tiebreak("direct_encounter", "DE", "Direct encounter", "C.07 6"),
        Tiebreak("wins", "WIN", "Number of wins (played or not)", "C.07 7.1"),
        Tiebreak("games_won", "WON", "Number of games won over the board", "C.07 7.2"),
        Tiebreak("white_games", "BPG", "Games played with White (second mover)", "C.07 7.3"),
        Tiebreak("white_wins", "BWG", "Games won with White (second mover)", "C.07 7.4"),
        Tiebreak("progressive", "PS", "Progressive score", "C.07 7.5"),
        Tiebreak("rounds_elected", "REP", "Rounds elected to play", "C.07 7.6"),
        Tiebreak("standard_points", "STD", "Standard points (1, ½, 0)", "C.07 7.7"),
        Tiebreak("pairing_number", "TPN", "Pairing number", "C.07 7.8", lower_first=True),
        Tiebreak("koya", "KS", "Koya score (round-robin)", "C.07 9.2"),
        Tiebreak("rating", "RTNG", "Rating", "C.07 10.6"),
        Tiebreak("average_rating_opponents", "ARO", "Average rating of opponents", "C.07 10.1"),
        Tiebreak(
            "average_rating_opponents_cut1",
            "ARO-C1",
            "Average rating of opponents cut 1",
            "C.07 10.1, cuts 14",
        ),
        Tiebreak("performance", "TPR", "Tournament performance rating", "C.07 10.2"),
        Tiebreak("perfect_performance", "PTP", "Perfect tournament performance", "C.07 10.3"),
        Tiebreak(
            "average_performance_opponents",
            "APRO",
            "Average performance rating of opponents",
            "C.07 10.4",
        ),
        Tiebreak(
            "average_perfect_performance_opponents",
            "APPO",
            "Average perfect performance of opponents",
            "C.07 10.5",
        ),
        Tiebreak("black_games", "B1G", "Games played with Black (first mover)", "Abalone"),
        Tiebreak("marbles", "MB", "Marble difference (Abalone)", "Abalone practice"),
    )
}

_SCORES: dict[str, Callable[[Table], dict[int, float | None]]] = {
    "buchholz": scores.buchholz,
    "buchholz_cut1": partial(scores.buchholz, low=1),
    "buchholz_cut2": partial(scores.buchholz, low=2),
    "median_buchholz": partial(scores.buchholz, low=1, high=1),
    "median_buchholz2": partial(scores.buchholz, low=2, high=2),
    "fore_buchholz": partial(scores.buchholz, fore=True),
    "average_opponents_buchholz": scores.average_opponents_buchholz,
    "sonneborn_berger": scores.sonneborn_berger,
    "sonneborn_berger_cut1": partial(scores.sonneborn_berger, low=1),
    "wins": scores.wins,
    "games_won": scores.games_won,
    "white_games": scores.second_mover_games,
    "white_wins": scores.second_mover_wins,
    "black_games": scores.first_mover_games,
    "progressive": scores.progressive,
    "rounds_elected": scores.rounds_elected,
    "standard_points": scores.standard_points,
    "pairing_number": scores.pairing_number,
    "koya": scores.koya,
    "marbles": scores.marbles,
}
_RATINGS: dict[str, Callable[[RatingTiebreaks], dict[int, float | None]]] = {
    "rating": RatingTiebreaks.rating,
    "average_rating_opponents": RatingTiebreaks.aro,
    "average_rating_opponents_cut1": partial(RatingTiebreaks.aro, low=1),
    "performance": lambda r: dict(r.tpr),
    "perfect_performance": lambda r: dict(r.ptp),
    "average_performance_opponents": lambda r: r.average_of_opponents(r.tpr),
    "average_perfect_performance_opponents": lambda r: r.average_of_opponents(r.ptp),
}


def _sort_value(tiebreak: Tiebreak, value: float | None) -> float:
    """The value as a sort key where smaller ranks first; no value ranks last."""
    if value is None:
        return float("inf")
    return value if tiebreak.lower_first else -value


def compute_standings(data: StandingsInput, order: Sequence[str]) -> list[StandingRow]:
    """Rank the players by points, then by the tie-breaks named in ``order`` (codes of
    :data:`TIEBREAKS`), then by pairing number.  Players share a rank only when their points and
    every chosen tie-break are equal.  Raises :class:`PairingError` for an unknown code."""
    for code in order:
        if code not in TIEBREAKS:
            raise PairingError(f"unknown tie-break {code!r} (choose from {', '.join(TIEBREAKS)})")
    table = Table(data)
    ratings: RatingTiebreaks | None = None
    numbers = sorted(table.games)
    keys: dict[int, list[float]] = {n: [-table.points[n]] for n in numbers}
    values: dict[int, dict[str, float | None]] = {n: {} for n in numbers}
    for code in order:
        if code == "direct_encounter":
            groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
            for n in numbers:
                groups[tuple(keys[n])].append(n)
            for members in groups.values():
                ranks, display = direct_encounter(table, members)
                for n in members:
                    keys[n].append(ranks[n])
                    values[n][code] = display.get(n, 0.0)
            continue
        if code in _RATINGS:
            ratings = ratings or RatingTiebreaks(table)
            computed = _RATINGS[code](ratings)
        else:
            computed = _SCORES[code](table)
        for n in numbers:
            keys[n].append(_sort_value(TIEBREAKS[code], computed[n]))
            values[n][code] = computed[n]

    ordered = sorted(numbers, key=lambda n: (keys[n], n))
    rows: list[StandingRow] = []
    for index, n in enumerate(ordered):
        tied = index > 0 and keys[n] == keys[ordered[index - 1]]
        rank = rows[-1].rank if tied else index + 1
        player = table.players[n]
        rows.append(StandingRow(rank, n, player.name, player.rating, table.points[n], values[n]))
    return rows


def crosstable(data: StandingsInput) -> list[CrosstableRow]:
    """Per player (in pairing-number order) and round: opponent, colour, result and points."""
    table = Table(data)
    rows = []
    for n in sorted(table.games):
        player = table.players[n]
        cells = tuple(
            CrosstableCell(g.round, g.opponent, g.colour, g.result, points)
            for g, points in zip(table.games[n], table.round_points[n], strict=True)
        )
        rows.append(CrosstableRow(n, player.name, player.rating, table.points[n], cells))
    return rows
