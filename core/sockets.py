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
consumer ends, its channel is unsubscribed and dropped. It also dispatches the consumer's
messages itself (:func:`dispatch_each`), more cheaply than Channels does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

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
    """Put first in a consumer's bases (an asynchronous consumer): its messages, the client's
    and the channel layer's, are dispatched by :func:`dispatch_each`, and its channel is
    forgotten when it ends, however."""

    async def __call__(self, scope, receive, send):
        # AsyncConsumer.__call__'s set-up, with dispatch_each in place of await_many_dispatch
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            await dispatch_each(sources, self.dispatch)
        except StopConsumer:
            pass
        finally:
            await channel_forget(
                getattr(self, "channel_layer", None), getattr(self, "channel_name", None)
            )


async def dispatch_each(sources, dispatch) -> None:
    """What ``channels.utils.await_many_dispatch`` does, for a fraction of its CPU: each
    message of each source (``await source()``) is dispatched in turn, one at a time, and a
    source is read again only once its last message is dispatched (the server's reading of a
    client stays paced by the consumer, as before). ``await_many_dispatch`` built a new task
    and waited on every source's task with ``asyncio.wait`` for each message: a tenth of a web
    process's CPU on a game's sockets. Here each source has one reader task for the life of the
    socket, handing its messages over by a queue; a source that fails fails the dispatch, as
    there. Ends when ``dispatch`` raises (``StopConsumer`` at the disconnect); the readers are
    then cancelled (a channel layer's pending ``receive()`` with them)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Queue = asyncio.Queue()

    async def read(source) -> None:
        try:
            while True:
                done = loop.create_future()
                ready.put_nowait((await source(), done, None))
                await done
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the source failed: the dispatch loop raises it
            ready.put_nowait((None, None, error))

    readers = [loop.create_task(read(source)) for source in sources]
    try:
        while True:
            message, done, error = await ready.get()
            if error is not None:
                raise error
            try:
                await dispatch(message)
            finally:
                if not done.done():
                    done.set_result(None)
    finally:
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
