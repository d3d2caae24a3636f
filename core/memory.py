"""A web process gives back the memory of its closed sockets.

A WebSocket leaves reference cycles behind when it closes (uvicorn's protocol and uvloop's
transport, the consumer's task and its coroutines, the permessage-deflate state that browsers
negotiate: about 36 KiB of zlib buffers a socket). Cycles are freed only by the cyclic garbage
collector, and a socket's objects live long enough to reach its oldest generation, which the web
processes almost never collect (``abalone_site/asgi.py`` freezes what is loaded at start and
collects the youngest generation only every 50,000 allocations, for the speed of moves). So
memory grew with every socket opened and closed (``bench/sockets.py``: 436 to 1,065 MiB over
28,000 sockets), and what the collector did free stayed in glibc's heap, not given back to the
system.

:func:`keep_memory` runs in each web process's event loop (started by its lifespan): every
``MEMORY_COLLECT_SECONDS`` it collects every generation (only what was made since start: the
rest is frozen) and asks glibc to give free pages back (``malloc_trim``). Measured pauses and
memory are in docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from dataclasses import dataclass

logger = logging.getLogger(__name__)


def _malloc_trim():
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


@dataclass(frozen=True)
class Collected:
    objects: int  # unreachable objects the collector found
    milliseconds: float  # how long the process paused for it
    trimmed: bool  # whether glibc gave memory back to the system


def collect() -> Collected:
    """Collect every generation, then give free heap pages back to the system."""
    started = time.perf_counter()
    found = gc.collect()
    trimmed = bool(_TRIM(0)) if _TRIM is not None else False
    return Collected(found, (time.perf_counter() - started) * 1000, trimmed)


async def keep_memory(period: float) -> None:
    """Every ``period`` seconds, :func:`collect` (run until cancelled)."""
    while True:
        await asyncio.sleep(period)
        try:
            done = collect()
        except Exception:  # never let housekeeping end the process's loop
            logger.exception("memory collection failed")
            continue
        logger.debug(
            "collected %s objects in %.1f ms%s",
            done.objects,
            done.milliseconds,
            ", memory given back" if done.trimmed else "",
        )
