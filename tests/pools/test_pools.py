"""Quick play (pools): joining, pairing two players of close rating into a rated game on the
pool's clock, leaving, expiring, the API, and the players' tabs told on their socket."""

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import close_old_connections, connection

from games.models import Game
from pools import services
from pools.matching import ANYONE_AFTER
from pools.models import PoolSeek
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


def rated(player, rating, category="blitz"):
    PlayerRating.objects.create(
        user=player, category=category, rating=rating, peak=rating, games=40
    )
    return player


@pytest.fixture
def told(monkeypatch):
    """What the players' tabs hear: (user id, message)."""
    heard = []

    def send(group, event):
        heard.append((int(group.split("-")[1]), json.loads(event["text"])))

    monkeypatch.setattr(services, "send_group", send)
    return heard


def test_two_close_players_are_paired_into_a_rated_game_on_the_pool_s_clock(
    make_player, told, django_capture_on_commit_callbacks
):
    ann, bob = rated(make_player("ann"), 1600), rated(make_player("bob"), 1650)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.pool_join(user=ann, pool="blitz-3+2", now=T0)
    assert first.status == "waiting" and first.rating == 1600 and told == []
    with django_capture_on_commit_callbacks(execute=True):
        second = services.pool_join(user=bob, pool="blitz-3+2", now=T0 + timedelta(seconds=1))
    first.refresh_from_db()
    assert first.status == second.status == "paired" and first.game_id == second.game_id
    game = Game.objects.get(pk=first.game_id)
    assert {game.black_id, game.white_id} == {ann.pk, bob.pk}
    assert (game.base_seconds, game.increment_seconds, game.marbles_to_win) == (180, 2, 4)
    assert game.rated and game.start == "standard" and game.status == "started"
    assert sorted(user for user, _ in told) == [ann.pk, bob.pk]
    assert all(
        message == {"type": "game_ready", "game": game.pk, "url": f"/games/{game.pk}/",
                    "pool": "blitz-3+2"}
        for _, message in told
    )  # fmt: skip


def test_far_ratings_wait_until_the_range_has_widened(make_player):
    ann, bob = rated(make_player("ann"), 1300), rated(make_player("bob"), 2000)
    services.pool_join(user=ann, pool="blitz-3+2", now=T0)
    services.pool_join(user=bob, pool="blitz-3+2", now=T0)
    assert services.pools_sweep(now=T0 + timedelta(seconds=5)) == 0
    assert Game.objects.count() == 0
    assert services.pools_sweep(now=T0 + timedelta(seconds=ANYONE_AFTER)) == 1
    assert Game.objects.count() == 1
    assert services.pools_sweep(now=T0 + timedelta(seconds=ANYONE_AFTER + 2)) == 0  # once


def test_different_pools_and_categories_do_not_mix(make_player):
    ann = rated(make_player("ann"), 1500, "rapid")
    bob = make_player("bob")  # unrated: the default rating
    services.pool_join(user=ann, pool="rapid-10+0", now=T0)
    services.pool_join(user=bob, pool="blitz-5+0", now=T0)
    assert services.pools_sweep(now=T0 + timedelta(minutes=1)) == 0
    # joining another pool leaves the first
    services.pool_join(user=bob, pool="rapid-10+0", now=T0 + timedelta(minutes=1))
    assert PoolSeek.objects.get(user=bob, pool="blitz-5+0").status == "left"
    assert Game.objects.get().rating_pool == ""  # an ordinary rated game


def test_joining_twice_is_one_seek_and_leaving_ends_it(make_player):
    ann = make_player("ann")
    one = services.pool_join(user=ann, pool="rapid-15+0", now=T0)
    two = services.pool_join(user=ann, pool="rapid-15+0", now=T0 + timedelta(seconds=3))
    assert one.pk == two.pk and PoolSeek.objects.count() == 1
    assert services.pool_leave(user=ann, now=T0 + timedelta(seconds=4)) == 1
    assert PoolSeek.objects.get().status == "left"
    assert services.pool_leave(user=ann, now=T0 + timedelta(seconds=5)) == 0


def test_a_seek_nobody_answers_expires(make_player, settings):
    settings.POOL_WAIT_SECONDS = 60
    services.pool_join(user=make_player("ann"), pool="classical-30+0", now=T0)
    assert services.pools_sweep(now=T0 + timedelta(seconds=59)) == 0
    assert services.pools_sweep(now=T0 + timedelta(seconds=60)) == 1
    assert PoolSeek.objects.get().status == "expired"


def test_the_api_lists_the_pools_joins_and_leaves(api, make_player):
    ann, bob = make_player("ann"), make_player("bob")
    listing = api().get("/api/v1/pools/").json()
    assert [p["key"] for p in listing["pools"]][:2] == ["blitz-3+2", "blitz-5+0"]
    assert listing["mine"] is None
    joined = api(ann).post("/api/v1/pools/join/", {"pool": "rapid-10+0"}, format="json")
    assert joined.status_code == 200
    assert joined.json()["mine"]["status"] == "waiting"
    counts = {p["key"]: p["waiting"] for p in api().get("/api/v1/pools/").json()["pools"]}
    assert counts["rapid-10+0"] == 1
    paired = api(bob).post("/api/v1/pools/join/", {"pool": "rapid-10+0"}, format="json").json()
    game = Game.objects.get()
    assert paired["mine"] == {**paired["mine"], "status": "paired", "game": game.pk,
                              "url": f"/games/{game.pk}/"}  # fmt: skip
    mine = api(ann).get("/api/v1/pools/").json()["mine"]
    assert (mine["status"], mine["game"]) == ("paired", game.pk)  # a tab that missed the socket
    left = api(ann).post("/api/v1/pools/leave/").json()
    assert left["mine"]["status"] == "paired"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"pool": "blitz-1+0"}, 400, "invalid"), ({}, 400, "invalid"), ({"pool": 3}, 400, "invalid")],
)
def test_bad_joins_are_refused_and_change_nothing(api, make_player, body, status, code):
    answer = api(make_player("ann")).post("/api/v1/pools/join/", body, format="json")
    assert answer.status_code == status and answer.json()["error"] == code
    assert PoolSeek.objects.count() == 0


def test_visitors_and_bots_do_not_wait(api, make_player):
    assert api().post("/api/v1/pools/join/", {"pool": "blitz-3+2"}, format="json").status_code in (
        401,
        403,
    )
    bot = make_player("botty", is_bot=True)
    answer = api(bot).post("/api/v1/pools/join/", {"pool": "blitz-3+2"}, format="json")
    assert answer.status_code == 403 and answer.json()["error"] == "bot_not_allowed"
    assert PoolSeek.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_many_players_joining_at_once_each_play_one_game_at_most(make_player):
    """Twelve players join one pool from twelve threads at once: every seek is paired, each
    into exactly one game, and every game has two of them (the pool's waiting seeks are locked
    while it is paired). PostgreSQL: the tests' SQLite is one shared in-memory database, whose
    table locks refuse a second writer at once instead of queueing it as the site's file does."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL here (the tests' SQLite refuses them)")
    players = [rated(make_player(f"p{i}"), 1500 + i) for i in range(12)]
    barrier = threading.Barrier(len(players))
    errors = []

    def join(player):
        try:
            barrier.wait()
            services.pool_join(user=player, pool="blitz-5+0", now=T0)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=join, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    services.pools_sweep(now=T0)  # a join that found nobody yet is paired by beat
    seeks = list(PoolSeek.objects.all())
    assert len(seeks) == 12 and {s.status for s in seeks} == {"paired"}
    games = Game.objects.all()
    assert games.count() == 6
    seated = [uid for g in games for uid in (g.black_id, g.white_id)]
    assert sorted(seated) == sorted(p.pk for p in players)
