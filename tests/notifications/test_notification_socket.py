"""The player's socket, served by the site's ASGI application under uvicorn with the real
channel layer (Redis in the production-shape run): notifications arrive live, on ``/ws/me/``
and on a game page's own socket, only to their player."""

import asyncio
import contextlib
import json

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from games import services as game_services
from games.options import GameOptions
from notifications.services import notification_create, notifications_mark_read
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def notify(user, key: str) -> None:
    with transaction.atomic():
        notification_create(
            user=user,
            kind="challenge_received",
            key=key,
            data={"from": "someone", "rated": False, "clock": "3+2"},
            url="/play/",
            now=timezone.now(),
        )


async def receive(socket) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), 5))


def test_a_notification_reaches_its_players_open_sockets_and_no_one_else(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    alice, bob = make_player("alice"), make_player("bob")
    game = game_services.game_create(
        black=alice, white=bob, options=GameOptions(600, 0, 6, "belgian", False), now=timezone.now()
    )
    base = asgi_live_server.replace("http://", "ws://")
    alice_cookie, bob_cookie = session_cookie(alice), session_cookie(bob)

    async def run():
        headers = {"Cookie": alice_cookie}
        async with (
            connect(f"{base}/ws/me/", origin=asgi_live_server, additional_headers=headers) as me,
            connect(
                f"{base}/ws/games/{game.pk}/", origin=asgi_live_server, additional_headers=headers
            ) as game_socket,
            connect(
                f"{base}/ws/me/", origin=asgi_live_server, additional_headers={"Cookie": bob_cookie}
            ) as bobs,
        ):
            hello = await receive(me)
            assert (hello["type"], hello["unread"], hello["latest"]) == ("notifications", 0, [])
            assert (await receive(game_socket))["type"] == "state"
            await receive(bobs)
            await database_sync_to_async(notify)(alice, "k1")
            pushed = await receive(me)
            on_game = await receive(game_socket)
            # the count, the snapshot, and the game's creation event, which is sent after its
            # commit from a loop of its own and may come after the socket's state (core.live)
            while on_game["type"] in ("watchers", "notifications", "state"):
                on_game = await receive(game_socket)
            assert pushed == on_game
            assert pushed["type"] == "notification" and pushed["unread"] == 1
            assert pushed["notification"]["text"] == (
                "someone challenges you to a casual game (3+2)."
            )
            await database_sync_to_async(notifications_mark_read)(
                user=alice, ids=None, now=timezone.now()
            )
            assert await receive(me) == {"type": "unread", "unread": 0}
            with pytest.raises(asyncio.TimeoutError):  # bob heard nothing of alice's
                await asyncio.wait_for(bobs.recv(), 0.5)

    asyncio.run(run())


def test_an_anonymous_socket_is_refused(asgi_live_server):  # noqa: F811
    async def run():
        url = asgi_live_server.replace("http://", "ws://") + "/ws/me/"
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, origin=asgi_live_server):
                pass
        return refused.value.response.status_code

    assert asyncio.run(run()) == 403


def test_the_home_pages_hear_games_start_and_the_player_to_move_hears_their_turn(
    make_player,
    settings,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    from tests.games.test_game_sockets import play_first_legal_move

    settings.LIVE_SITE_EVENT_SECONDS = 60  # one event for the start and the first move
    from core import live

    live._site_sent_at = float("-inf")
    alice, bob = make_player("alice"), make_player("bob")
    base = asgi_live_server.replace("http://", "ws://")
    bob_cookie = session_cookie(bob)

    def start() -> int:
        return game_services.game_create(
            black=alice, white=bob, options=GameOptions(600, 0, 6, "belgian", False),
            now=timezone.now(),
        ).pk  # fmt: skip

    async def everything(socket, wait: float, expected: list[dict] = ()) -> list[dict]:
        """What the socket hears: every ``expected`` message however long a busy machine takes
        to send it (at most 20 s), then whatever else comes within ``wait`` seconds."""
        seen = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(20):
                while not all(message in seen for message in expected):
                    seen.append(json.loads(await socket.recv()))
        with contextlib.suppress(TimeoutError):
            while True:
                seen.append(json.loads(await asyncio.wait_for(socket.recv(), wait)))
        return seen

    async def run():
        async with (
            connect(f"{base}/ws/me/?topics=site", origin=asgi_live_server) as visitor,
            connect(
                f"{base}/ws/me/?topics=site",
                origin=asgi_live_server,
                additional_headers={"Cookie": bob_cookie},
            ) as bobs,
            connect(
                f"{base}/ws/me/", origin=asgi_live_server, additional_headers={"Cookie": bob_cookie}
            ) as bobs_other_tab,
        ):
            await receive(bobs)  # the snapshots
            await receive(bobs_other_tab)
            game_id = await database_sync_to_async(start)()
            await database_sync_to_async(play_first_legal_move)(game_id, alice, bob)
            games = {"type": "site", "what": "games"}
            turn = {"type": "turn", "game": game_id, "version": 1}
            return (
                game_id,
                await everything(visitor, 1.5, [games]),
                await everything(bobs, 0.5, [games, turn]),
                await everything(bobs_other_tab, 0.3),
            )

    game_id, visitor_saw, home_saw, other_tab_saw = asyncio.run(run())
    # a game started and got its first move: one event, the second within the minute not sent
    assert visitor_saw == [{"type": "site", "what": "games"}]
    assert {"type": "site", "what": "games"} in home_saw
    assert {"type": "turn", "game": game_id, "version": 1} in home_saw  # White (bob) to move
    assert other_tab_saw == []  # a tab that is not a home page hears neither
