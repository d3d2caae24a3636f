"""Two sites on one Redis server, on two database numbers, do not hear each other's events.

Redis keeps keys per database but publish/subscribe channels per server: before the channel
layer's prefix named the database, two pytest-xdist workers (each on its own Redis database,
each with a game 1 in its own test database) had their game pages hear the other's game 1 (a
browser test saw the other worker's result). The same holds for two sites sharing a server.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from core.redis_names import channel_prefix, redis_database


def on_database(url: str, number: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{number}"))


def layer_for(url: str) -> RedisPubSubChannelLayer:
    """The channel layer a site on ``url`` makes (its settings' CONFIG, for that URL)."""
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config.update(hosts=[url], prefix=channel_prefix(url))
    return RedisPubSubChannelLayer(**config)


def test_the_settings_prefix_names_the_redis_database():
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert config["prefix"] == f"sumito{redis_database(settings.REDIS_URL)}"
    assert redis_database("redis://127.0.0.1:6379/7") == 7
    assert redis_database("redis://127.0.0.1:6379?db=5") == 5
    assert redis_database("redis://127.0.0.1:6379") == 0


def test_an_event_on_another_database_is_not_heard_and_one_on_the_same_is():
    ours = settings.REDIS_URL
    theirs = on_database(ours, (redis_database(ours) + 1) % 16)

    async def run() -> list[dict]:
        here, there, beside = layer_for(ours), layer_for(theirs), layer_for(ours)
        try:
            channel = await here.new_channel()
            await here.group_add("game-1", channel)  # subscribed once this returns
            # The other site's event is published (and, were it heard, delivered) before ours:
            # Redis serves the two PUBLISHes in order, so the first message heard tells.
            await there.group_send("game-1", {"type": "game.state", "site": "theirs"})
            await beside.group_send("game-1", {"type": "game.state", "site": "ours"})
            heard = [await asyncio.wait_for(here.receive(channel), 10)]
            await here.group_discard("game-1", channel)
            return heard
        finally:
            for layer in (here, there, beside):
                await layer.flush()

    assert [message["site"] for message in asyncio.run(run())] == ["ours"]
