"""Live games in the production shape: real threads on PostgreSQL, a real Celery worker and a
real Celery beat through Redis. Skipped, with the reason, without DATABASE_URL and REDIS_URL."""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from core.errors import Conflict
from games import engine, services
from games.models import Game, Move
from games.options import GameOptions
from games.records import engine_game_of
from tests.support import wait_for

ROOT = Path(__file__).resolve().parents[2]


def new_game(black, white, *, base=60, first_move=30):
    return services.game_create(
        black=black,
        white=white,
        options=GameOptions(base, 0, 6, "belgian", True),
        now=timezone.now(),
        first_move_seconds=first_move,
    )


def run_together(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def race(game, player, moves) -> list[str]:
    """Submit ``moves`` for the same ply from one thread each, released together."""
    barrier = threading.Barrier(len(moves))
    outcomes = []

    def submit(notation):
        try:
            barrier.wait()
            services.game_move_apply(
                game_id=game.pk, player=player, move=notation, expected_ply=0, now=timezone.now()
            )
            outcomes.append("ok")
        except Conflict as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
    run_together(threads)
    return sorted(outcomes)


@pytest.mark.parametrize("compare_and_set", [True, False], ids=["compare-and-set", "locked"])
@pytest.mark.django_db(transaction=True)
def test_racing_moves_give_one_success_and_one_409(make_player, settings, compare_and_set):
    # Both ways a move is written on PostgreSQL (see games.services.game_move_apply).
    settings.GAME_MOVES_COMPARE_AND_SET = compare_and_set
    black, white = make_player("racer_b"), make_player("racer_w")
    moves = [m.notation for m in engine.legal_moves(engine.BELGIAN_DAISY_START)[:2]]
    for _round in range(5):
        game = new_game(black, white)
        assert race(game, black, moves) == ["ok", "stale_ply"]
        assert Move.objects.filter(game=game).count() == 1
        assert Game.objects.get(pk=game.pk).ply == 1


def _play_first_moves(game, black, white):
    for player in (black, white):
        game.refresh_from_db()
        move = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        services.game_move_apply(
            game_id=game.pk, player=player, move=move, expected_ply=game.ply, now=timezone.now()
        )


@pytest.mark.django_db(transaction=True)
def test_the_deadline_watcher_adjudicates_an_unwatched_game_without_celery(make_player):
    """No worker, no beat, no Redis needed: a web process's watcher ends the game."""
    from core.deadlines import DeadlineWatcher

    black, white = make_player("flag_b"), make_player("flag_w")
    game = new_game(black, white, base=2)
    _play_first_moves(game, black, white)  # Black's 2 s main clock now runs; nobody watches
    game.refresh_from_db()
    deadline = game.flag_deadline
    watcher = DeadlineWatcher(poll_seconds=1.0)
    watcher.start()
    try:
        assert wait_for(lambda: Game.objects.get(pk=game.pk).status == "finished", timeout=15.0)
    finally:
        watcher.stop()
    game.refresh_from_db()
    assert (game.result, game.termination) == ("0-1", "time")
    assert game.ended_at >= deadline
    print(f"adjudicated {(game.ended_at - deadline).total_seconds():.3f} s after the deadline")


@pytest.mark.django_db(transaction=True)
def test_one_process_at_a_time_sweeps(make_player):
    """While another connection holds the watchers' advisory lock, a watcher does not sweep."""
    import psycopg

    from core.deadlines import ADVISORY_LOCK_KEY, sweep_if_first

    black, white = make_player("lock_b"), make_player("lock_w")
    game = new_game(black, white, base=1)
    _play_first_moves(game, black, white)
    flagged_at = timezone.now() + timedelta(seconds=5)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [ADVISORY_LOCK_KEY])
        assert sweep_if_first(now=flagged_at) is None
        assert Game.objects.get(pk=game.pk).status == "started"
        other.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_LOCK_KEY])
    assert sweep_if_first(now=flagged_at) == 1
    assert Game.objects.get(pk=game.pk).status == "finished"


@pytest.fixture
def celery_beat_process():
    """A real `celery beat` process sending the periodic sweep through Redis."""
    with tempfile.TemporaryDirectory() as scratch:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "abalone_site",
                "beat",
                "--loglevel=info",
                "--schedule",
                os.path.join(scratch, "beat-schedule"),
            ],
            cwd=ROOT,
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            yield process
        finally:
            process.terminate()
            process.wait(timeout=10)


@pytest.mark.django_db(transaction=True)
def test_the_beat_sweep_adjudicates_when_no_deadline_task_exists(make_player, celery_beat_process):
    """Drop every scheduled task, then let only the beat's sweep find the flagged game."""
    from celery.contrib.testing.worker import start_worker

    from abalone_site.celery import app

    black, white = make_player("sweep_b"), make_player("sweep_w")
    game = new_game(black, white, base=1)
    _play_first_moves(game, black, white)
    # Simulate a lost deadline task (worker killed): only the sweep can end this game now.
    app.control.purge()
    Game.objects.filter(pk=game.pk).update(flag_deadline=timezone.now() - timedelta(milliseconds=1))
    app.loader.import_default_modules()
    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10
    ):
        assert wait_for(lambda: Game.objects.get(pk=game.pk).status == "finished", timeout=20)
    game.refresh_from_db()
    assert (game.result, game.termination) == ("0-1", "time")


@pytest.mark.django_db(transaction=True)
def test_duplicate_adjudication_deliveries_change_nothing(make_player, celery_worker_thread):
    from games.tasks import sweep_flags

    black, white = make_player("dup_b"), make_player("dup_w")
    game = new_game(black, white, base=1)
    _play_first_moves(game, black, white)
    game.refresh_from_db()
    time.sleep(max(0.0, (game.flag_deadline - timezone.now()).total_seconds()) + 0.1)
    sweep_flags.delay()  # the worker adjudicates
    assert wait_for(lambda: Game.objects.get(pk=game.pk).status == "finished", timeout=15.0)
    finished = Game.objects.get(pk=game.pk)
    for _ in range(3):
        sweep_flags.delay()
        services.game_adjudicate(game_id=game.pk, now=timezone.now())
    time.sleep(1.0)
    again = Game.objects.get(pk=game.pk)
    assert (again.result, again.termination, again.ended_at, again.white_ms, again.black_ms) == (
        finished.result,
        finished.termination,
        finished.ended_at,
        finished.white_ms,
        finished.black_ms,
    )


def resign_together(pairs) -> list[Exception]:
    """Resign every (game, loser) in ``pairs`` at the same moment from its own thread."""
    barrier = threading.Barrier(len(pairs))
    errors = []

    def resign(game, loser):
        try:
            barrier.wait()
            services.game_resign(game_id=game.pk, player=loser, now=timezone.now())
        except Exception as error:  # noqa: BLE001 - reported by the caller
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=pair) for pair in pairs]
    run_together(threads)
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_games_of_one_player_finishing_at_once_both_count(make_player):
    """Both resignations race on PostgreSQL: the shared player's rating counts both games."""
    from ratings.models import PlayerRating, RatingChange

    hub, left, right = make_player("hub"), make_player("left"), make_player("right")
    for _ in range(3):
        games = [new_game(hub, left, base=600), new_game(right, hub, base=600)]
        for game, (black, white) in zip(games, [(hub, left), (right, hub)], strict=True):
            _play_first_moves(game, black, white)
        before = PlayerRating.objects.filter(user=hub, category="rapid").first()
        before_games = before.games if before else 0
        assert resign_together([(games[0], left), (games[1], right)]) == []
        hub_rating = PlayerRating.objects.get(user=hub, category="rapid")
        assert hub_rating.games == before_games + 2
        changes = list(RatingChange.objects.filter(user=hub).order_by("pk"))
        assert hub_rating.rating == changes[-1].rating_after
        # the second change starts from the first one's result: nothing was lost
        assert changes[-1].rating_before == changes[-2].rating_after


@pytest.mark.django_db(transaction=True)
def test_a_change_outside_requests_reaches_the_games_sockets_through_redis(make_player):
    """A socket's process hears a game event published elsewhere (here by a service called
    outside any web request, as a Celery task does) through Redis publish/subscribe."""
    import asyncio

    import redis
    from channels.layers import get_channel_layer
    from django.conf import settings

    from games.events import game_group

    black, white = make_player("black"), make_player("white")
    game = new_game(black, white)
    layer = get_channel_layer()
    heard, subscribed = {}, threading.Event()

    def socket_process():
        async def listen():
            channel = await layer.new_channel()
            await layer.group_add(game_group(game.pk), channel)
            subscribed.set()
            try:
                heard["message"] = await asyncio.wait_for(layer.receive(channel), 10)
            finally:
                await layer.group_discard(game_group(game.pk), channel)

        asyncio.run(listen())

    listener = threading.Thread(target=socket_process)
    listener.start()
    assert subscribed.wait(10)
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert wait_for(
        lambda: client.pubsub_channels(f"*game-{game.pk}"), timeout=15.0
    )  # Redis took the SUBSCRIBE
    services.game_resign(game_id=game.pk, player=black, now=timezone.now())
    listener.join(15)

    message = heard["message"]
    assert message["type"] == "game.state"
    sent = json.loads(message["text"])  # what each socket is sent, encoded once
    assert sent["type"] == "state"
    assert (sent["state"]["id"], sent["state"]["status"]) == (game.pk, "finished")
    assert sent["state"]["result"] == Game.objects.get(pk=game.pk).result == "0-1"


def race_moves_and_an_offer(game, mover, other, notations) -> list[str]:
    """Two moves of ``mover`` for the game's ply and a draw offer of ``other``, each from its
    own thread, released together; the refusals' codes and "ok" for each move played."""
    barrier = threading.Barrier(len(notations) + 1)
    outcomes = []

    def submit(notation):
        try:
            barrier.wait()
            services.game_move_apply(
                game_id=game.pk,
                player=mover,
                move=notation,
                expected_ply=game.ply,
                now=timezone.now(),
            )
            outcomes.append("ok")
        except Conflict as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    def offer():
        try:
            barrier.wait()
            services.game_draw_offer(game_id=game.pk, player=other, now=timezone.now())
        except Conflict as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in notations]
    threads.append(threading.Thread(target=offer))
    run_together(threads)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_moves_and_draw_offers_racing_leave_a_game_that_replays(make_player):
    # Each round: two different moves for the same ply (one must win, one get stale_ply) while
    # the other player offers a draw. Whatever the order, the rows must stay one game: plies
    # 1..n, the row's position the replay's.
    black, white = make_player("storm_b"), make_player("storm_w")
    game = new_game(black, white, base=600)
    for _round in range(12):
        game.refresh_from_db()
        mover, other = (black, white) if game.side_to_move == "b" else (white, black)
        position = engine.Position.from_string(game.position)
        notations = [m.notation for m in engine.legal_moves(position) if not m.pushed][:2]
        outcomes = race_moves_and_an_offer(game, mover, other, notations)
        assert sorted(outcomes) == ["ok", "stale_ply"]
        game.refresh_from_db()
        if game.draw_offer:  # made after the move: the move could not decline it
            assert game.draw_offer == ("w" if other == white else "b")
            services.game_draw_answer(
                game_id=game.pk, player=mover, accept=False, now=timezone.now()
            )

    game.refresh_from_db()
    assert game.status == "started" and game.ply == 12
    rows = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "notation"))
    assert [ply for ply, _ in rows] == list(range(1, 13))
    replayed = engine_game_of(game, [notation for _, notation in rows])
    assert replayed.position.to_string() == game.position
