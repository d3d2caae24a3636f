"""core.sockets.dispatch_each: every consumer's messages, the client's and the channel layer's,
dispatched one at a time as Channels' ``await_many_dispatch`` did, without a task per message.
Pure asyncio: two queues stand in for the server's ``receive`` and the layer's."""

import asyncio

import pytest
from channels.exceptions import StopConsumer

from core.sockets import dispatch_each


def test_messages_of_both_sources_are_dispatched_one_at_a_time_in_their_order():
    async def run():
        client, layer = asyncio.Queue(), asyncio.Queue()
        dispatched, busy = [], []

        async def dispatch(message):
            busy.append(message)
            assert len(busy) == 1, f"{message} dispatched while {busy[0]} was"
            await asyncio.sleep(0)  # let every reader run meanwhile
            dispatched.append(message)
            busy.pop()
            if message == "stop":
                raise StopConsumer

        for n in range(3):
            client.put_nowait(f"client {n}")
            layer.put_nowait(f"layer {n}")
        client.put_nowait("stop")
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(dispatch_each([client.get, layer.get], dispatch), 5)
        return dispatched

    dispatched = asyncio.run(run())
    assert [m for m in dispatched if m.startswith("client")] == [f"client {n}" for n in range(3)]
    assert [m for m in dispatched if m.startswith("layer")] == [f"layer {n}" for n in range(3)]
    assert dispatched[-1] == "stop"


def test_a_source_is_read_again_only_once_its_message_is_dispatched():
    """The server's reading of a client stays paced by the consumer: a flood of frames waits in
    the server's queue (which pauses reading), not in an unbounded one of the dispatcher's."""

    async def run():
        reads = []
        release = asyncio.Event()

        async def client():
            await asyncio.sleep(0)  # a frame arrives in a later turn of the loop
            reads.append(len(reads))
            return f"frame {len(reads)}"

        async def dispatch(message):
            if message == "frame 1":
                await release.wait()
            if message == "frame 2":
                raise StopConsumer

        task = asyncio.ensure_future(dispatch_each([client], dispatch))
        for _ in range(20):
            await asyncio.sleep(0)
        read_while_busy = len(reads)
        release.set()
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(task, 5)
        return read_while_busy

    assert asyncio.run(run()) == 1


def test_a_failing_source_fails_the_dispatch_and_the_readers_are_cancelled():
    async def run():
        cancelled = asyncio.Event()

        async def layer():
            raise ConnectionError("the channel layer is unreachable")

        async def client():
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancelled.set()
                raise

        async def dispatch(message):
            raise AssertionError(f"nothing to dispatch, got {message}")

        with pytest.raises(ConnectionError, match="unreachable"):
            await asyncio.wait_for(dispatch_each([client, layer], dispatch), 5)
        return cancelled.is_set()

    assert asyncio.run(run())
