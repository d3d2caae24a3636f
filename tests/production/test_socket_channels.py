"""A socket that closes leaves nothing behind in its web process (issue 24): its channel on the
Redis publish/subscribe layer is dropped and unsubscribed (core/sockets.py). Spectators come and
go on a game's page, each changing the spectators' count that the others (and itself) are sent,
as in ``bench/sockets.py``; before, a channel stayed subscribed for each such socket
(django/channels_redis#276), ~40 KiB a socket never given back.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.utils import timezone
from websockets.asyncio.client import connect

from games.options import GameOptions
from games.services import game_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.support import wait_for

SOCKETS = 40


def specific_channels() -> int:
    """The channels the layer keeps, in this process (where the live server runs), on every
    event loop: each is a queue and a Redis subscription (channels_redis.pubsub)."""
    layer = get_channel_layer()
    return sum(len(loop_layer.channels) for loop_layer in layer._layers.values())


@pytest.mark.django_db(transaction=True)
def test_spectators_coming_and_going_leave_no_channel_subscribed(
    asgi_live_server,  # noqa: F811
    make_player,
):
    black, white = make_player("black"), make_player("white")
    game = game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "standard", False),
        now=timezone.now(),
    )
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"
    before = specific_channels()
    url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"

    async def spectator() -> None:
        async with connect(url, origin=asgi_live_server) as socket:
            await asyncio.wait_for(socket.recv(), 10)  # the state, on connect

    async def spectators() -> None:
        # ten at a time, as a page's spectators come and go: each one's arrival and departure
        # is sent to the others while some of them are closing
        for _ in range(SOCKETS // 10):
            await asyncio.gather(*(spectator() for _ in range(10)))

    asyncio.run(spectators())
    print("kept right after:", specific_channels() - before)
    # every socket's channel unsubscribed once its consumer ended
    assert wait_for(lambda: specific_channels() == before, 10), (
        specific_channels() - before,
        "channels left",
    )
