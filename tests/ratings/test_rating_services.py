"""A rated game changes both ratings exactly once, in the transaction of its result."""

from datetime import UTC, datetime, timedelta

import pytest

from games import engine, services
from games.options import GameOptions
from ratings.models import PlayerRating, RatingChange

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def started_game(black, white, *, rated=True, base=600):
    game = services.game_create(
        black=black,
        white=white,
        now=T0,
        options=GameOptions(base, 0, 6, "belgian", rated),
    )
    for seconds, player in ((1, black), (2, white)):
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game = services.game_move_apply(
            game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=at(seconds)
        )
    return game


def rating(user, category="rapid"):
    return PlayerRating.objects.get(user=user, category=category)


def test_a_rated_win_changes_both_ratings_once(make_player):
    black, white = make_player("rb"), make_player("rw")
    game = started_game(black, white)
    services.game_resign(game_id=game.pk, player=white, now=at(3))
    assert (rating(black).rating, rating(white).rating) == (1520, 1480)
    assert (rating(black).games, rating(white).games) == (1, 1)
    # repeated finishing paths change nothing
    services.game_adjudicate(game_id=game.pk, now=at(10_000))
    assert (
        services.game_finish(game_id=game.pk, result="0-1", termination="forfeit", now=at(10_001))
        is False
    )
    assert RatingChange.objects.filter(game=game).count() == 2
    assert rating(black).rating == 1520
    change = RatingChange.objects.get(game=game, user=black)
    assert (change.rating_before, change.rating_after, change.opponent_rating) == (1500, 1520, 1500)


def test_blitz_and_rapid_are_separate(make_player):
    black, white = make_player("bb"), make_player("bw")
    game = started_game(black, white, base=180)
    services.game_resign(game_id=game.pk, player=black, now=at(3))
    assert rating(white, "blitz").rating == 1520
    assert not PlayerRating.objects.filter(category="rapid").exists()


def test_casual_and_aborted_games_are_not_rated(make_player):
    black, white = make_player("cb"), make_player("cw")
    casual = started_game(black, white, rated=False)
    services.game_resign(game_id=casual.pk, player=black, now=at(3))
    aborted = services.game_create(
        black=black,
        white=white,
        now=T0,
        options=GameOptions(600, 0, 6, "belgian", True),
    )
    services.game_abort(game_id=aborted.pk, player=black, now=at(1))
    assert not RatingChange.objects.exists()


def test_a_draw_between_equals_changes_nothing_but_counts(make_player):
    black, white = make_player("db"), make_player("dw")
    game = started_game(black, white)
    services.game_draw_offer(game_id=game.pk, player=black, now=at(3))
    services.game_draw_answer(game_id=game.pk, player=white, accept=True, now=at(4))
    assert (rating(black).rating, rating(black).games, rating(white).games) == (1500, 1, 1)


def test_the_game_state_shows_both_rating_changes(make_player):
    from games.selectors import game_state

    black, white = make_player("sb"), make_player("sw")
    game = started_game(black, white)
    assert game_state(game, now=at(3))["rating_changes"] == {}
    game = services.game_resign(game_id=game.pk, player=white, now=at(3))
    changes = game_state(game, now=at(4))["rating_changes"]
    assert changes == {
        "black": {"before": 1500, "after": 1520, "delta": 20},
        "white": {"before": 1500, "after": 1480, "delta": -20},
    }


def test_every_rating_lock_takes_the_rows_in_user_then_category_order(make_player):
    """One lock order for rating rows (user id, then category), whether a game is rated or the
    history replayed: two paths taking the same rows in different orders can deadlock."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.recompute import ratings_recompute

    if not connection.features.has_select_for_update:
        pytest.skip("SQLite serialises writers instead of locking rows")
    black, white = make_player("lo_b"), make_player("lo_w")
    game = started_game(black, white)
    with CaptureQueriesContext(connection) as queries:
        services.game_resign(game_id=game.pk, player=white, now=at(3))
        ratings_recompute()
    table = PlayerRating._meta.db_table
    locks = [
        query["sql"]
        for query in queries.captured_queries
        if "FOR UPDATE" in query["sql"] and f'FROM "{table}"' in query["sql"]
    ]
    assert len(locks) == 2, locks  # rating the game, then the replay
    for sql in locks:
        assert f'ORDER BY "{table}"."user_id" ASC, "{table}"."category" ASC' in sql, sql
