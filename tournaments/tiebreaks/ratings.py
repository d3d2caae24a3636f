"""The rating-based tie-breaks of C.07 Art. 10 (pure Python, no Django): RTNG, ARO and its
cuts, TPR, PTP, APRO and APPO, with FIDE's rating tables (B.02 8.1: dp for a percentage, and
the expected score for a rating difference).

Only games played over the board count; their score is the standard one (1, ½, 0) whatever
the event's point system. A participant is unrated when their rating is 0; then every
rating-based tie-break is left empty (``None``) for everyone, unless the event's regulations
give unrated players a rating (:attr:`StandingsInput.unrated_rating`), as FIDE's checker does
with ``-u``. Averages are rounded half up to whole rating points.
"""

from __future__ import annotations

from bisect import bisect_left
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from ratings.elo import dp_for_percentage
from tournaments.tiebreaks.table import Table

#: FIDE table 8.1.2 (B.02): the largest rating difference with an expected score of 50 %, 51 %,
#: ..., 99 % for the higher-rated player; above 735 points it is 100 %.
_PD_UPPER = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip
#: The rating performance stays this far from the opponents (the table's end, 8.1.2).
PERFORMANCE_SPAN = 800
#: The higher-rated player's expected score in per cent, by rating difference 0..800.
_PERCENT = tuple(50 + bisect_left(_PD_UPPER, d) for d in range(PERFORMANCE_SPAN + 1))


def expected_percent(rating: int, opponent: int) -> int:
    """A player's expected score in per cent against one opponent (FIDE table 8.1.2)."""
    difference = rating - opponent
    percent = _PERCENT[min(abs(difference), PERFORMANCE_SPAN)]
    return percent if difference >= 0 else 100 - percent


def _half_up(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def average_rating(ratings: list[int]) -> int | None:
    """ARO (10.1): the average, rounded half up."""
    if not ratings:
        return None
    return _half_up(Decimal(sum(ratings)) / len(ratings))


def performance(score: float, ratings: list[int]) -> int | None:
    """TPR (10.2): ARO plus FIDE's dp for the percentage scored (rounded half up)."""
    average = average_rating(ratings)
    if average is None:
        return None
    percent = _half_up(Decimal(round(score * 100)) / len(ratings))
    return average + dp_for_percentage(percent)


def perfect_performance(score: float, ratings: list[int]) -> int | None:
    """PTP (10.3): the lowest rating whose expected score against the opponents (table 8.1.2)
    reaches the score; a score of 0 gives the lowest opponent's rating less 800."""
    if not ratings:
        return None
    if score <= 0:
        return min(ratings) - PERFORMANCE_SPAN
    target = round(score * 100)
    low, high = min(ratings) - PERFORMANCE_SPAN, max(ratings) + PERFORMANCE_SPAN
    while high - low > 1:
        middle = (low + high) // 2
        if sum(expected_percent(middle, r) for r in ratings) >= target:
            high = middle
        else:
            low = middle
    return high


class RatingTiebreaks:
    """The rating-based values of every participant, computed once per standings."""

    def __init__(self, table: Table) -> None:
        self.table = table
        unrated = table.data.unrated_rating
        self.ratings = {
            n: (player.rating if player.rating > 0 else unrated)
            for n, player in table.players.items()
        }
        #: C.07 10: without a rating for unrated players, none of these tie-breaks applies
        self.valid = all(rating is not None for rating in self.ratings.values())

    @cached_property
    def tpr(self) -> dict[int, int | None]:
        if not self.valid:
            return dict.fromkeys(self.table.games)
        return {n: performance(*self._rated_games(n)) for n in self.table.games}

    @cached_property
    def ptp(self) -> dict[int, int | None]:
        if not self.valid:
            return dict.fromkeys(self.table.games)
        return {n: perfect_performance(*self._rated_games(n)) for n in self.table.games}

    def _rated_games(self, number: int, low: int = 0) -> tuple[float, list[int]]:
        """(standard score, opponents' ratings) of the games played over the board, without
        the ``low`` lowest-rated opponents."""
        games = [
            (self._standard(g.result), self.ratings[g.opponent])
            for g in self.table.games[number]
            if g.played
        ]
        games.sort(key=lambda item: item[1])
        games = games[low:]
        return sum(score for score, _ in games), [rating for _, rating in games]  # type: ignore[misc]

    @staticmethod
    def _standard(result: str) -> float:
        return {"1": 1.0, "=": 0.5}.get(result, 0.0)

    def rating(self) -> dict[int, float | None]:
        return {n: self.ratings[n] if self.valid else None for n in self.table.games}

    def aro(self, low: int = 0) -> dict[int, float | None]:
        if not self.valid:
            return dict.fromkeys(self.table.games)
        return {n: average_rating(self._rated_games(n, low)[1]) for n in self.table.games}

    def average_of_opponents(self, values: dict[int, int | None]) -> dict[int, float | None]:
        """APRO / APPO (10.4, 10.5): the average of the opponents' values over the games
        played over the board, rounded half up."""
        out: dict[int, float | None] = {}
        for n, games in self.table.games.items():
            found = [values[g.opponent] for g in games if g.played]
            known = [value for value in found if value is not None]
            out[n] = average_rating(known)  # type: ignore[arg-type]
        return out
