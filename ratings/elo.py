"""Elo as FIDE computes it: pure functions, no Django.

- Expected score: 1 / (1 + 10^(-D/400)), with the rating difference D capped at 400 points.
- Change: K x (score - expected). K = 40 for a player's first 30 rated games, 20 below 2400, and
  10 once the player has reached 2400 (for good).
- Speed categories follow lichess: the estimated game length is base + 40 x increment seconds;
  under 8 minutes is blitz, under 25 minutes rapid, the rest classical; a clock of days a move
  (``games.clock``'s correspondence, a base of a day or more) is correspondence.

Ratings are kept as whole numbers: each game's change is rounded half away from zero and applied
at once, so replaying the history reproduces every stored rating exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

DEFAULT_RATING = 1500
#: Black's score for each rated result (White's is one minus it); other results are not rated.
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
PROVISIONAL_GAMES = 30
RATING_DIFFERENCE_CAP = 400
CATEGORIES = ("blitz", "rapid", "classical", "correspondence")
#: The shortest base of a correspondence clock (``games.clock.DAY_SECONDS``; live ones end at
#: six hours).
CORRESPONDENCE_BASE_SECONDS = 24 * 3600


def expected_score(rating: float, opponent_rating: float) -> float:
    difference = max(-RATING_DIFFERENCE_CAP, min(RATING_DIFFERENCE_CAP, rating - opponent_rating))
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def k_factor(*, games_played: int, reached_2400: bool) -> int:
    """K for a player who has played ``games_played`` rated games before this one."""
    if games_played < PROVISIONAL_GAMES:
        return 40
    if reached_2400:
        return 10
    return 20


def rating_change(*, rating: int, opponent_rating: int, score: float, k: int) -> int:
    exact = k * (score - expected_score(rating, opponent_rating))
    return int(Decimal(str(exact)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def speed_category(base_seconds: int | None, increment_seconds: int) -> str:
    estimate = (base_seconds or 0) + 40 * increment_seconds
    if base_seconds is None:
        return "classical"
    if base_seconds >= CORRESPONDENCE_BASE_SECONDS:
        return "correspondence"
    if estimate < 8 * 60:
        return "blitz"
    if estimate < 25 * 60:
        return "rapid"
    return "classical"


@dataclass(frozen=True)
class PlayerState:
    rating: int
    games: int
    reached_2400: bool

    def after(self, delta: int) -> PlayerState:
        rating = self.rating + delta
        return PlayerState(rating, self.games + 1, self.reached_2400 or rating >= 2400)


def rate_game(black: PlayerState, white: PlayerState, black_score: float) -> tuple[int, int]:
    """The rating changes of Black and White for one game (both from the pre-game ratings)."""
    black_delta = rating_change(
        rating=black.rating,
        opponent_rating=white.rating,
        score=black_score,
        k=k_factor(games_played=black.games, reached_2400=black.reached_2400),
    )
    white_delta = rating_change(
        rating=white.rating,
        opponent_rating=black.rating,
        score=1.0 - black_score,
        k=k_factor(games_played=white.games, reached_2400=white.reached_2400),
    )
    return black_delta, white_delta


@dataclass(frozen=True)
class RatedSide:
    """One player's side of a rated result: their state before and after, the opponent's
    rating before the game, and their score."""

    before: PlayerState
    after: PlayerState
    opponent_rating: int
    score: float


def rate_result(black: PlayerState, white: PlayerState, result: str) -> tuple[RatedSide, RatedSide]:
    """Black's and White's sides of ``result`` (a key of :data:`SCORES`): the one step that
    applying a game and replaying the history both take."""
    black_score = SCORES[result]
    black_delta, white_delta = rate_game(black, white, black_score)
    return (
        RatedSide(black, black.after(black_delta), white.rating, black_score),
        RatedSide(white, white.after(white_delta), black.rating, 1.0 - black_score),
    )


def performance_rating(opponent_ratings: list[int], score: float) -> int | None:
    """FIDE's tournament performance: average opponent rating + dp(p), dp from the FIDE table."""
    if not opponent_ratings:
        return None
    fraction = score / len(opponent_ratings)
    average = sum(opponent_ratings) / len(opponent_ratings)
    return round(average + _dp(fraction))


# FIDE table 8.1.2: dp for p = 0.00 .. 1.00 in steps of 0.01.
_DP = [
    -800,
    -677,
    -589,
    -538,
    -501,
    -470,
    -444,
    -422,
    -401,
    -383,
    -366,
    -351,
    -336,
    -322,
    -309,
    -296,
    -284,
    -273,
    -262,
    -251,
    -240,
    -230,
    -220,
    -211,
    -202,
    -193,
    -184,
    -175,
    -166,
    -158,
    -149,
    -141,
    -133,
    -125,
    -117,
    -110,
    -102,
    -95,
    -87,
    -80,
    -72,
    -65,
    -57,
    -50,
    -43,
    -36,
    -29,
    -21,
    -14,
    -7,
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
]


def _dp(fraction: float) -> int:
    index = int(Decimal(str(fraction * 100)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
    return dp_for_percentage(index)


def dp_for_percentage(percent: int) -> int:
    """FIDE's dp (table 8.1.2) for a score of ``percent`` per cent (0 to 100)."""
    return _DP[max(0, min(100, percent))]


#: The rating category of three- and four-player games (multiplayer.Table).
MULTI_CATEGORY = "multi"
#: The bots' own pool: rated games a bot played (docs/bots.md), whatever their clock.
BOT_CATEGORY = "bot"
#: Every category a player can be rated in: the two-player speeds, then ``multi`` and ``bot``.
ALL_CATEGORIES = (*CATEGORIES, MULTI_CATEGORY, BOT_CATEGORY)


def game_category(base_seconds: int | None, increment_seconds: int, pool: str = "") -> str:
    """The category a two-player game is rated in: its ``pool`` when it has one (``bot``),
    else the speed of its clock."""
    return pool or speed_category(base_seconds, increment_seconds)


def rate_ranking(states: list[PlayerState], places: list[int]) -> list[int]:
    """The rating changes of the players of one N-player game from its final ranking.

    Pairwise Elo: each pair of players counts as one game between them, won by the better
    place (equal places: a draw), every expectation taken from the pre-game ratings; each
    player's K (as for two players) is scaled by 1/(N-1), and their changes over the N-1
    pairs are summed before rounding once. So a player who beats everyone gains what one
    win would bring against the field's average opposition, not N-1 wins.
    """
    if len(states) != len(places) or len(states) < 2:
        raise ValueError("one place per player, at least two players")
    others = len(states) - 1
    deltas = []
    for i, me in enumerate(states):
        k = k_factor(games_played=me.games, reached_2400=me.reached_2400) / others
        exact = 0.0
        for j, them in enumerate(states):
            if i == j:
                continue
            score = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
            exact += k * (score - expected_score(me.rating, them.rating))
        deltas.append(
            int(Decimal(str(round(exact, 9))).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
        )
    return deltas
