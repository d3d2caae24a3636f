"""What every WebSocket consumer of the site shares.

:class:`ForgetsItsChannel`: a consumer that leaves its channel when it ends. Channels gives each
consumer a channel (``new_channel()``) but has no call to delete it; the Redis publish/subscribe
layer (``channels_redis.pubsub``) forgets one only when the consumer's pending ``receive()`` is
cancelled. When a message reaches the channel in the same turn as the socket's disconnect,
``channels.utils.await_many_dispatch`` stops on the disconnect with the channel's ``receive()``
already finished, so nothing is cancelled and the channel (its queue and its Redis subscription)
stays for the life of the process: ~40 KiB a socket in ``bench/sockets.py``, every socket of a
game whose spectators' count changes as they come and go (django/channels_redis#276, still open
with 4.3; its fix, #339, waits on django/channels#1948). This does what that fix would: when the
consumer ends, its channel is unsubscribed and dropped.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


async def channel_forget(layer, channel: str | None) -> bool:
    """Drop ``channel`` from the Redis publish/subscribe layer of this event loop and
    unsubscribe it; False when there is nothing to drop (another layer, or already gone)."""
    get_layer = getattr(layer, "_get_layer", None)  # channels_redis.pubsub only
    if get_layer is None or not channel:
        return False
    loop_layer = get_layer()
    channels = getattr(loop_layer, "channels", None)
    if channels is None or channel not in channels:
        return False
    del channels[channel]
    try:
        await loop_layer._get_shard(channel).unsubscribe(channel)
    except Exception:  # Redis away: its subscriptions went with the connection
        logger.warning("could not unsubscribe channel %s", channel, exc_info=True)
    return True


class ForgetsItsChannel:
    """Put first in a consumer's bases: its channel is forgotten when it ends, however."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            await channel_forget(
                getattr(self, "channel_layer", None), getattr(self, "channel_name", None)
            )
