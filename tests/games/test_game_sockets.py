"""The game socket, served by the site's ASGI application under uvicorn: the whole state on
connect, then each change with only the moves after ``moves_after``."""

import asyncio
import contextlib
import json
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect

from core.live import send_group
from games import engine, selectors, services
from games.models import Game
from games.options import GameOptions
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.support import session_cookie


async def next_message(socket) -> dict:
    """The next state or error on the socket; the other events it carries (the spectator
    count, chat, notifications) are not what these tests are about."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if message["type"] in ("state", "error"):
            return message


async def past_earlier_events(socket, message: dict, first: dict) -> dict:
    """``message`` or the next one, past the events of changes older than the socket's first
    state. Events are sent after their commit, from a background loop (``core.live``): a move
    committed before the socket connected may reach the game's group after the socket joined
    it, and follow its state. The consumer joins first so that nothing is lost between the two
    (``GameConsumer.connect``); the event is no newer than the state (the page drops it), and
    nothing else may come before the next change."""
    version = first["state"]["version"]
    earlier = 0
    while message["type"] == "state" and message["state"]["version"] <= version:
        state = message["state"]
        assert all(move["ply"] <= version for move in state["moves"]), message
        earlier += 1
        assert earlier <= version + 1, "more earlier events than the game's changes before"
        message = await next_message(socket)
    return message


def play_first_legal_move(game_id: int, black, white) -> None:
    game = Game.objects.get(pk=game_id)
    player = black if game.side_to_move == "b" else white
    notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    services.game_move_apply(
        game_id=game_id, player=player, move=notation, expected_ply=game.ply, now=timezone.now()
    )


def rated_blitz(black, white):
    """A rated game of ten minutes and five seconds, begun now, a minute for the first move."""
    return services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 5, 6, "belgian", True),
        now=timezone.now(),
        first_move_seconds=60,
    )


@pytest.mark.django_db(transaction=True)
def test_a_socket_gets_the_whole_state_then_each_change_with_the_moves_after(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    black, white = make_player("sock_b"), make_player("sock_w")
    game = rated_blitz(black, white)
    # The two moves' events are held and sent once the socket has its state, as a busy sender
    # (core.live sends after the commit, from a loop of its own) delivered them once in CI:
    # they reach the game's group after the socket joined it (see past_earlier_events).
    held = []
    with mock.patch(
        "games.events.send_group", lambda group, message: held.append((group, message))
    ):
        play_first_legal_move(game.pk, black, white)
        play_first_legal_move(game.pk, black, white)

    async def watch() -> list[dict]:
        url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with connect(url, origin=asgi_live_server) as socket:
            received = [await next_message(socket)]
            for group, message in held:
                await sync_to_async(send_group)(group, message)
            for _ply in range(3):
                await database_sync_to_async(play_first_legal_move)(game.pk, black, white)
                update = await next_message(socket)
                if len(received) == 1:  # the first change after the state on connect
                    update = await past_earlier_events(socket, update, received[0])
                received.append(update)
            await database_sync_to_async(services.game_draw_offer)(
                game_id=game.pk, player=white, now=timezone.now()
            )
            received.append(await next_message(socket))
        return received

    first, *updates = asyncio.run(watch())

    assert first["type"] == "state" and "moves_after" not in first["state"]
    assert [m["ply"] for m in first["state"]["moves"]] == [1, 2]
    moves = first["state"]["moves"]
    for update, version in zip(updates, [3, 4, 5, 5], strict=True):
        state = update["state"]
        assert (update["type"], state["version"]) == ("state", version)
        assert state["moves_after"] == version - 1
        assert [m["ply"] for m in state["moves"]] == [version]
        moves = [m for m in moves if m["ply"] <= state["moves_after"]] + state["moves"]
    assert updates[-1]["state"]["draw_offer"] == "w"
    # what the page puts together is the whole state's list
    whole = selectors.game_state(Game.objects.get(pk=game.pk), now=timezone.now())
    assert moves == whole["moves"]


@pytest.mark.django_db(transaction=True)
def test_a_socket_opened_after_the_flag_fell_sees_the_game_adjudicated(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    """The socket reads the game the way the API does: a deadline that has passed is
    adjudicated first, so nobody is shown a running clock at zero."""
    from datetime import timedelta

    black, white = make_player("flag_b"), make_player("flag_w")
    game = services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", True),
        now=timezone.now() - timedelta(seconds=120),
        first_move_seconds=60,
    )

    async def first_state() -> dict:
        url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with connect(url, origin=asgi_live_server) as socket:
            return await next_message(socket)

    state = asyncio.run(first_state())["state"]
    assert (state["status"], state["termination"], state["result"]) == (
        "finished",
        "abandoned",
        "0-1",
    )
    assert state["clock"]["running"] is False
    game.refresh_from_db()
    assert game.status == "finished"


@pytest.mark.django_db(transaction=True)
def test_a_socket_opened_while_the_channel_layer_is_down_is_refused_with_503(
    make_player,
    monkeypatch,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    """Redis down: the handshake answers 503 with Retry-After (it used to be a 500), the page
    retries, and once the layer is back the socket opens with the state."""
    from channels.layers import InMemoryChannelLayer, get_channel_layer
    from redis.exceptions import ConnectionError as RedisConnectionError
    from websockets.exceptions import InvalidStatus

    if not isinstance(get_channel_layer(), InMemoryChannelLayer):
        pytest.skip("the outage is simulated on the in-memory layer; tests/faults kills Redis")
    black, white = make_player("outage_b"), make_player("outage_w")
    game = services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", True),
        now=timezone.now(),
    )
    original = InMemoryChannelLayer.new_channel

    async def down(self, prefix="specific."):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(InMemoryChannelLayer, "new_channel", down)
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"

    async def open_socket() -> dict:
        async with connect(url, origin=asgi_live_server) as socket:
            return await next_message(socket)

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(open_socket())
    assert refused.value.response.status_code == 503
    assert refused.value.response.headers["Retry-After"] == "5"
    monkeypatch.setattr(InMemoryChannelLayer, "new_channel", original)
    assert asyncio.run(open_socket())["state"]["id"] == game.pk


@pytest.mark.django_db(transaction=True)
def test_a_socket_message_nested_a_thousand_deep_is_refused_and_the_socket_stays(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    black, white = make_player("deep_b"), make_player("deep_w")
    game = services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", True),
        now=timezone.now(),
    )

    async def talk() -> tuple[dict, dict]:
        url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with connect(url, origin=asgi_live_server) as socket:
            await next_message(socket)  # the state on connect
            await socket.send("[" * 1000 + "]" * 1000)
            refused = await next_message(socket)
            await socket.send(json.dumps({"type": "refresh"}))
            return refused, await next_message(socket)

    refused, refreshed = asyncio.run(talk())
    assert (refused["type"], refused["error"]) == ("error", "malformed")
    assert "deeper than" in refused["detail"]
    assert refreshed["type"] == "state" and refreshed["state"]["id"] == game.pk


@pytest.mark.django_db(transaction=True)
def test_the_players_see_how_many_spectators_watch(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    black, white = make_player("count_b"), make_player("count_w")
    game = services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", False),
        now=timezone.now(),
    )
    cookie = {"Cookie": session_cookie(black)}
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"

    async def counts_seen_by_black() -> tuple[list[int], list[int], list[int]]:
        async def counts_until(socket, last: int) -> list[int]:
            seen = []
            while not seen or seen[-1] != last:
                message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                if message["type"] == "watchers":
                    seen.append(message["count"])
            return seen

        async with connect(url, origin=asgi_live_server, additional_headers=cookie) as mine:
            on_connect = await counts_until(mine, 0)  # nobody watches
            async with connect(url, origin=asgi_live_server), connect(url, origin=asgi_live_server):
                arriving = await counts_until(mine, 2)
            leaving = await counts_until(mine, 0)
        return on_connect, arriving, leaving

    on_connect, arriving, leaving = asyncio.run(counts_seen_by_black())
    # Two spectators leaving at once may change the count in one order and announce it in the
    # other: the older count is dropped, never shown after the newer one.
    assert on_connect == [0]
    assert arriving in ([1, 2], [2])
    assert leaving in ([1, 0], [0])


@pytest.mark.django_db(transaction=True)
def test_the_spectators_chat_reaches_spectators_and_never_the_players_sockets(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    black, white, fan = make_player("chat_b"), make_player("chat_w"), make_player("fan")
    game = services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", False),
        now=timezone.now(),
    )
    cookie = {"Cookie": session_cookie(black)}
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"

    def say(user, room, text):
        services.chat_post(game_id=game.pk, user=user, room=room, text=text, now=timezone.now())

    async def chats(socket, wait: float) -> list[str]:
        seen = []
        with contextlib.suppress(TimeoutError):
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), wait))
                if message["type"] == "chat":
                    seen.append(message["message"]["text"])
        return seen

    async def run():
        async with (
            connect(url, origin=asgi_live_server, additional_headers=cookie) as player,
            connect(url, origin=asgi_live_server) as spectator,
        ):
            await next_message(player)
            await next_message(spectator)
            await database_sync_to_async(say)(fan, "spectators", "what a move")
            await database_sync_to_async(say)(white, "players", "good luck")
            return await chats(player, 1.0), await chats(spectator, 0.3)

    player_saw, spectator_saw = asyncio.run(run())
    assert player_saw == ["good luck"]
    assert spectator_saw == ["what a move"]


@pytest.mark.django_db(transaction=True)
def test_a_change_published_while_a_socket_connects_comes_after_its_state(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    """A move committed and published between the socket's reading the state and its joining
    the game's group was lost to it, and its page saw a gap at the next event (the multi-host
    rehearsal's reconnected spectators asked again at once). The group is joined first now:
    the move comes after the state it sent."""
    from unittest import mock

    from games.consumers import GameConsumer

    black, white = make_player("conn_b"), make_player("conn_w")
    game = rated_blitz(black, white)
    read_state = GameConsumer.__dict__["_state"]  # the method as written, unbound
    moved: list[int] = []

    async def state_then_a_move(consumer):
        state = await read_state(consumer)
        if not moved:  # another player's move, committed and published while this one connects
            moved.append(1)
            await database_sync_to_async(play_first_legal_move)(game.pk, black, white)
        return state

    async def watch() -> list[dict]:
        url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with connect(url, origin=asgi_live_server) as socket:
            first = await next_message(socket)
            return [first, await past_earlier_events(socket, await next_message(socket), first)]

    with mock.patch.object(GameConsumer, "_state", state_then_a_move):
        first, second = asyncio.run(watch())
    assert (first["type"], first["state"]["version"], first["state"]["moves"]) == ("state", 0, [])
    assert (second["type"], second["state"]["version"], second["state"]["moves_after"]) == (
        "state",
        1,
        0,
    )
