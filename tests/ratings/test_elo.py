"""FIDE Elo arithmetic, checked against values worked by hand."""

import pytest

from ratings import elo


@pytest.mark.parametrize(
    ("rating", "opponent", "expected"),
    [
        (1500, 1500, 0.5),
        (1600, 1500, 0.640065),  # 1 / (1 + 10^(-100/400))
        (1500, 1600, 0.359935),
        (1900, 1500, 0.909091),  # D = 400: 1 / 1.1
        (2300, 1500, 0.909091),  # D = 800 counts as 400
        (1500, 2300, 0.090909),
    ],
)
def test_expected_score_with_the_400_point_cap(rating, opponent, expected):
    assert elo.expected_score(rating, opponent) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("games", "reached_2400", "k"),
    [
        (0, False, 40),
        (29, False, 40),
        (30, False, 20),
        (200, False, 20),
        (29, True, 40),
        (30, True, 10),
        (500, True, 10),
    ],
)
def test_k_changes_at_30_games_and_at_2400(games, reached_2400, k):
    assert elo.k_factor(games_played=games, reached_2400=reached_2400) == k


@pytest.mark.parametrize(
    ("rating", "opponent", "score", "k", "change"),
    [
        (1500, 1500, 1.0, 40, 20),
        (1500, 1500, 0.5, 40, 0),
        (1600, 1500, 1.0, 20, 7),  # 20 x 0.359935 = 7.2
        (1600, 1500, 0.0, 20, -13),  # 20 x -0.640065 = -12.8
        (1600, 1500, 0.5, 20, -3),  # 20 x -0.140065 = -2.8
        (2500, 2000, 1.0, 10, 1),  # capped: 10 x 0.090909 = 0.9
        (2000, 2500, 1.0, 10, 9),  # 10 x 0.909091 = 9.1
    ],
)
def test_rating_change(rating, opponent, score, k, change):
    assert elo.rating_change(rating=rating, opponent_rating=opponent, score=score, k=k) == change


def test_rate_game_uses_each_players_own_k():
    newcomer = elo.PlayerState(1500, 0, False)
    veteran = elo.PlayerState(1500, 100, False)
    assert elo.rate_game(newcomer, veteran, 1.0) == (20, -10)
    assert elo.rate_game(newcomer, veteran, 0.5) == (0, 0)


def test_reaching_2400_is_for_good():
    state = elo.PlayerState(2395, 40, False).after(8)
    assert state.reached_2400 and state.rating == 2403
    assert state.after(-20).reached_2400


@pytest.mark.parametrize(
    ("base", "increment", "category"),
    [
        (180, 2, "blitz"),
        (300, 0, "blitz"),
        (420, 2, "rapid"),
        (600, 0, "rapid"),
        (900, 0, "rapid"),
        (1500, 0, "classical"),
        (1800, 0, "classical"),
        (None, 0, "classical"),
        (6 * 3600, 0, "classical"),  # the longest live clock
        (86_400, 0, "correspondence"),  # a day a move
        (14 * 86_400, 0, "correspondence"),
    ],
)
def test_speed_categories(base, increment, category):
    assert elo.speed_category(base, increment) == category


def test_performance_rating():
    assert elo.performance_rating([1500, 1500], 2.0) == 1500 + 800
    assert elo.performance_rating([1400, 1600], 1.0) == 1500
    assert elo.performance_rating([1500] * 4, 3.0) == 1500 + 193
    assert elo.performance_rating([], 0) is None
