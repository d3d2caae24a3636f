"""The bot event stream's body: newline-delimited JSON, for as long as the bot listens.

An async iterator (a ``StreamingHttpResponse`` over it is sent by the server's event loop, not
by an HTTP thread: see ``core.wsgi_over_asgi``), so an open stream holds no thread and
no database connection between polls. Each poll runs in a small pool of its own and gives its
connection back at once. An empty line is sent when nothing was said for a while, as lichess
does, so that proxies and the bot both know the stream is alive.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from bots.selectors import BotEvents
from core.renderers import encode_json

_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(2, thread_name_prefix="sumito-bot-stream")
    return _pool


def _poll(events: BotEvents) -> list[dict]:
    try:
        return events.poll(now=timezone.now())
    finally:
        close_old_connections()  # the connection goes back to the pool between polls


def encode_events(events: list[dict]) -> bytes:
    return b"".join(encode_json(event) + b"\n" for event in events)


async def bot_event_lines(
    user_id: int, *, poll_seconds: float | None = None
) -> AsyncIterator[bytes]:
    """The stream of ``user_id``'s events, one JSON document a line, until the client goes."""
    poll_seconds = poll_seconds or settings.BOT_STREAM_POLL_SECONDS
    keepalive = settings.BOT_STREAM_KEEPALIVE_SECONDS
    events = BotEvents(user_id)
    loop = asyncio.get_running_loop()
    last_sent = time.monotonic()
    yield b"\n"  # the response starts at once: the bot knows it is connected
    while True:
        found = await loop.run_in_executor(_executor(), _poll, events)
        if found:
            last_sent = time.monotonic()
            yield encode_events(found)
        elif time.monotonic() - last_sent >= keepalive:
            last_sent = time.monotonic()
            yield b"\n"
        await asyncio.sleep(poll_seconds)
