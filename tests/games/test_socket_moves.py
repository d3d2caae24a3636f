"""Moves sent on the game socket, served by the site's ASGI application under uvicorn: the ack or
the refusal on the same socket (naming the move and the ply it answers), the small event the
other sockets hear (the legal moves only on the sockets of the player to move), exactly one
of two racing moves played, and the move thread's database connection: kept between moves,
handed back when idle, replaced when it fails."""

import asyncio
import json
import time

import pytest
from django.db import connection
from django.utils import timezone
from websockets.asyncio.client import connect

from games import engine, services
from games.consumers import move_thread
from games.models import Game, Move
from games.options import GameOptions
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.support import session_cookie

ANSWERS = ("ack", "error")


async def next_of(socket, kinds) -> dict:
    """The next message of one of ``kinds`` (the socket also carries spectator counts and
    notifications, which these tests are not about)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] in kinds:
            return message


async def state_at(socket, version: int) -> dict:
    while True:
        message = await next_of(socket, ("state",))
        if message["state"]["version"] >= version:
            return message["state"]


def new_game(make_player, prefix: str) -> Game:
    return services.game_create(
        black=make_player(f"{prefix}_b"),
        white=make_player(f"{prefix}_w"),
        options=GameOptions(600, 5, 6, "belgian", True),
        now=timezone.now(),
    )


def legal(position: str) -> list[str]:
    return [m.notation for m in engine.legal_moves(engine.Position.from_string(position))]


@pytest.mark.django_db(transaction=True)
def test_a_move_on_the_socket_is_acked_and_the_others_hear_a_small_event(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    game = new_game(make_player, "ack")
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
    as_black = {"Cookie": session_cookie(game.black)}
    as_white = {"Cookie": session_cookie(game.white)}
    first = legal(game.position)[0]

    async def play():
        async with (
            connect(url, origin=asgi_live_server, additional_headers=as_black) as black,
            connect(url, origin=asgi_live_server, additional_headers=as_white) as white,
            connect(url, origin=asgi_live_server) as watcher,
        ):
            whole = [await state_at(s, 0) for s in (black, white, watcher)]
            await black.send(json.dumps({"type": "move", "move": first, "ply": 0}))
            answer = await next_of(black, ANSWERS)
            events = [await state_at(s, 1) for s in (black, white, watcher)]
            # White answers at a stale ply, out of turn (Black's socket), then illegally
            await white.send(json.dumps({"type": "move", "move": first, "ply": 0}))
            stale = await next_of(white, ANSWERS)
            await black.send(json.dumps({"type": "move", "move": first, "ply": 1}))
            out_of_turn = await next_of(black, ANSWERS)
            await white.send(json.dumps({"type": "move", "move": "e5e6", "ply": 1}))
            illegal = await next_of(white, ANSWERS)
            await watcher.send(json.dumps({"type": "move", "move": first, "ply": 1}))
            anonymous = await next_of(watcher, ANSWERS)
        return whole, answer, events, [stale, out_of_turn, illegal, anonymous]

    whole, answer, events, refusals = asyncio.run(play())

    assert answer == {"type": "ack", "move": first, "ply": 0, "version": 1}
    assert all("black" in state and state["legal_moves"] for state in whole[:1])
    to_black, to_white, to_watcher = events
    for event in events:
        assert event["id"] == game.pk and event["side_to_move"] == "w"
        assert [m["notation"] for m in event["moves"]] == [first] and event["moves_after"] == 0
        assert not {"black", "white", "time_control", "rated", "url"} & set(event)
        assert event["last_move"]["marbles"]
    game.refresh_from_db()
    assert "legal_moves" not in to_black and "legal_moves" not in to_watcher
    assert [m["notation"] for m in to_white["legal_moves"]] == legal(game.position)
    assert [(r["type"], r["error"], r.get("ply")) for r in refusals] == [
        ("error", "stale_ply", 0),
        ("error", "not_your_turn", 1),
        ("error", "illegal_move", 1),
        ("error", "not_authenticated", None),
    ]
    assert refusals[2]["detail"] == "e5e6: e5 holds no marble"
    assert game.ply == 1 and Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_moves_racing_at_one_ply_on_two_sockets_play_once(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    game = new_game(make_player, "race")
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
    as_black = {"Cookie": session_cookie(game.black)}
    one, other = legal(game.position)[:2]

    async def race():
        async with (
            connect(url, origin=asgi_live_server, additional_headers=as_black) as tab,
            connect(url, origin=asgi_live_server, additional_headers=as_black) as second_tab,
        ):
            await state_at(tab, 0)
            await state_at(second_tab, 0)
            await asyncio.gather(
                tab.send(json.dumps({"type": "move", "move": one, "ply": 0})),
                second_tab.send(json.dumps({"type": "move", "move": other, "ply": 0})),
            )
            return [await next_of(tab, ANSWERS), await next_of(second_tab, ANSWERS)]

    answers = asyncio.run(race())
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    refused = next(a for a in answers if a["type"] == "error")
    played = next(a for a in answers if a["type"] == "ack")
    assert refused["error"] == "stale_ply"
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == [
        played["move"]
    ]


def _thread_connection_open() -> bool:
    return move_thread.executor.submit(lambda: connection.connection is not None).result()


def _thread_backend_pid() -> int:
    return move_thread.executor.submit(lambda: connection.connection.info.backend_pid).result()


@pytest.mark.django_db(transaction=True)
def test_the_move_thread_keeps_its_connection_then_hands_it_back_and_replaces_a_dead_one(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
    monkeypatch,
):
    monkeypatch.setattr(type(move_thread), "IDLE_SECONDS", 0.5)
    game = new_game(make_player, "conn")
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
    headers = {
        "b": {"Cookie": session_cookie(game.black)},
        "w": {"Cookie": session_cookie(game.white)},
    }

    async def move_once(colour: str) -> dict:
        async with connect(url, origin=asgi_live_server, additional_headers=headers[colour]) as s:
            state = await state_at(s, 0)
            notation = state["legal_moves"][0]["notation"]
            await s.send(json.dumps({"type": "move", "move": notation, "ply": state["version"]}))
            return await next_of(s, ANSWERS)

    assert asyncio.run(move_once("b"))["type"] == "ack"
    assert _thread_connection_open()  # kept for the next move
    deadline = time.monotonic() + 5
    while _thread_connection_open() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _thread_connection_open()  # handed back once idle

    if connection.vendor != "postgresql":
        return
    monkeypatch.setattr(type(move_thread), "IDLE_SECONDS", 60.0)  # kept while this looks
    assert asyncio.run(move_once("w"))["type"] == "ack"
    # PostgreSQL cuts the move thread's connection (a restart, a network cut): the next move
    # finds it dead, takes a new one, and is played once.
    pid = _thread_backend_pid()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert asyncio.run(move_once("b")) == {
        "type": "ack",
        "move": Move.objects.get(game=game, ply=3).notation,
        "ply": 2,
        "version": 3,
    }
    assert _thread_backend_pid() != pid
    game.refresh_from_db()
    assert game.ply == 3 and Move.objects.filter(game=game).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_guest_moves_on_the_socket_of_their_own_session_only(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    from django.contrib.sessions.backends.db import SessionStore

    from accounts import guests
    from accounts.models import User

    guest = User(username=f"{guests.PREFIX}cafe", is_guest=True)
    guest.set_unusable_password()
    guest.save()
    session = SessionStore()
    session[guests.SESSION_KEY] = guest.pk
    session.create()
    game = services.game_create(
        black=guest,
        white=make_player("host_w"),
        options=GameOptions(600, 0, 6, "belgian", False),
        now=timezone.now(),
    )
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
    first = legal(game.position)[0]

    async def play():
        async with (
            connect(url, origin=asgi_live_server) as stranger,
            connect(
                url,
                origin=asgi_live_server,
                additional_headers={"Cookie": f"sessionid={session.session_key}"},
            ) as own,
        ):
            on_connect = await state_at(own, 0)
            await stranger.send(json.dumps({"type": "move", "move": first, "ply": 0}))
            refused = await next_of(stranger, ANSWERS)
            await own.send(json.dumps({"type": "move", "move": first, "ply": 0}))
            return on_connect, refused, await next_of(own, ANSWERS)

    on_connect, refused, answer = asyncio.run(play())
    assert on_connect["legal_moves"]
    assert refused["error"] == "not_authenticated"
    assert answer == {"type": "ack", "move": first, "ply": 0, "version": 1}
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == [first]
