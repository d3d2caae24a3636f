"""Recomputing ratings from the history reproduces the stored ones; corrections ripple on."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from games import engine, services
from games.options import GameOptions
from ratings.models import PlayerRating, RatingChange
from ratings.recompute import ratings_recompute
from ratings.selectors import ratings_being_updated
from ratings.tasks import recompute_requested
from tournaments import services as tournament_services
from tournaments.models import Board

from .support import rated_otb_round_robin

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def snapshot():
    ratings = sorted(
        PlayerRating.objects.values_list(
            "user_id", "category", "rating", "games", "peak", "reached_2400"
        )
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "user_id", "game_id", "board_id", "rating_before", "rating_after"
        )
    )
    return ratings, changes


def play_random_games(players, count, rng):
    clock = T0
    for _ in range(count):
        black, white = rng.sample(players, 2)
        game = services.game_create(
            black=black,
            white=white,
            now=clock,
            options=GameOptions(rng.choice([180, 600, 1800]), 0, 6, "belgian", True),
        )
        for player in (black, white):
            game.refresh_from_db()
            notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
            clock += timedelta(seconds=1)
            services.game_move_apply(
                game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=clock
            )
        clock += timedelta(seconds=1)
        outcome = rng.random()
        if outcome < 0.4:
            services.game_resign(game_id=game.pk, player=white, now=clock)
        elif outcome < 0.8:
            services.game_resign(game_id=game.pk, player=black, now=clock)
        else:
            services.game_draw_offer(game_id=game.pk, player=black, now=clock)
            services.game_draw_answer(game_id=game.pk, player=white, accept=True, now=clock)
    return clock


def test_incremental_equals_recomputed(make_player):
    rng = random.Random(7)
    players = [make_player(f"r{i}") for i in range(6)]
    play_random_games(players, 40, rng)
    before = snapshot()
    assert len(before[1]) == 80
    report = ratings_recompute()
    assert report.changes_that_differed == 0 and report.results == 40
    assert snapshot() == before


def test_recompute_command_prints_a_report(make_player, capsys):
    rng = random.Random(3)
    play_random_games([make_player(f"c{i}") for i in range(4)], 5, rng)
    call_command("recompute_ratings")
    captured = capsys.readouterr()
    assert "5 rated results" in captured.out and "0 differed" in captured.out
    assert "[####" in captured.err


def test_recompute_repairs_a_tampered_rating(make_player):
    rng = random.Random(5)
    players = [make_player(f"t{i}") for i in range(4)]
    play_random_games(players, 10, rng)
    before = snapshot()
    PlayerRating.objects.filter(user=players[0]).update(rating=3000)
    report = ratings_recompute()
    assert report.changes_that_differed == 0  # the history itself was intact
    assert snapshot() == before


def test_a_corrected_otb_result_recomputes_later_ratings(make_player):
    event = rated_otb_round_robin(
        make_player,
        usernames=["o0", "o1", "o2", "o3"],
        result_for=lambda board: "1-0",
        start=T0,
        club_name="OTB Club",
        name="Rated OTB",
    )
    owner, moment = event.owner, event.last_result_at
    assert RatingChange.objects.filter(board__isnull=False).count() == 12
    first = Board.objects.get(round__number=1, number=1)
    later_before = dict(
        RatingChange.objects.filter(played_at__gt=T0 + timedelta(minutes=5)).values_list(
            "pk", "rating_after"
        )
    )
    before_correction = snapshot()
    tournament_services.board_result_set(
        board=first, actor=owner, result="0-1", reason="wrong scoresheet", now=moment
    )
    # the replay is a background job: nothing moved inside the request, and the pages say so
    assert snapshot() == before_correction
    assert ratings_being_updated()
    assert recompute_requested.apply().get() > 0  # the results from the corrected one on
    assert not ratings_being_updated()
    assert recompute_requested.apply().get() == 0  # a duplicate delivery changes nothing
    change = RatingChange.objects.get(board=first, user=first.black.user)
    assert change.rating_after < change.rating_before  # Black now lost that game
    # every rating after the corrected game was recomputed, and still matches a full replay
    assert RatingChange.objects.filter(board__isnull=False).count() == 12
    after = snapshot()
    assert ratings_recompute().changes_that_differed == 0
    assert snapshot() == after
    assert later_before  # there were later games to ripple through
    # a forfeit is not rated: correcting to a forfeit removes the game from the ratings
    tournament_services.board_result_set(
        board=first, actor=owner, result="+-", reason="no-show", now=moment
    )
    recompute_requested.apply()
    assert not RatingChange.objects.filter(board=first).exists()
