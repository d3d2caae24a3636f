"""A web process gives back what its closed sockets held (core/memory.py, issue 24 item 4).

A closed socket leaves reference cycles whose objects lived long enough to reach the collector's
oldest generation, which the web processes' tuning (abalone_site/asgi.py) almost never
collects: under that tuning such a cycle, with a deflate state as a browser's socket has, stays
alive; the memory keeper frees it. bench/sockets.py measures the process's memory."""

from __future__ import annotations

import asyncio
import gc
import weakref
import zlib

import pytest

from core import memory


class _Socket:
    """A closed socket's leftovers: a cycle holding a deflate state."""

    def __init__(self) -> None:
        self.me = self
        self.deflate = zlib.compressobj(9, zlib.DEFLATED, -12, 5)


@pytest.fixture
def web_process_tuning():
    """The collector as a web process runs it (asgi.py): the youngest generation every 50,000
    allocations, the oldest almost never."""
    before = gc.get_threshold()
    gc.set_threshold(50_000, 50, 100)
    yield
    gc.set_threshold(*before)


def _closed_socket_in_the_oldest_generation() -> weakref.ref:
    socket = _Socket()
    gc.collect()  # it survives a full collection: it is in the oldest generation now
    gone = weakref.ref(socket)
    del socket
    return gone


def test_a_closed_socket_s_cycle_outlives_the_tuned_collector_and_the_keeper_frees_it(
    web_process_tuning,
):
    gone = _closed_socket_in_the_oldest_generation()
    garbage = [[index] for index in range(200_000)]  # allocations: young collections run
    del garbage
    assert gone() is not None  # what grew without the keeper
    done = memory.collect()
    assert gone() is None
    assert done.objects >= 1 and done.milliseconds > 0


def test_the_keeper_collects_every_period_until_cancelled(web_process_tuning):
    async def run() -> bool:
        gone = _closed_socket_in_the_oldest_generation()
        keeper = asyncio.create_task(memory.keep_memory(0.01))
        for _ in range(200):
            await asyncio.sleep(0.01)
            if gone() is None:
                break
        keeper.cancel()
        with pytest.raises(asyncio.CancelledError):
            await keeper
        return gone() is None

    assert asyncio.run(run())


def test_glibc_gives_memory_back_here():
    """On this machine's C library (glibc), the trim is there and runs."""
    assert memory._TRIM is not None
    assert isinstance(memory.collect().trimmed, bool)
