"""Live events to open sockets, sent through the channel layer after the change committed.

``send_group(group, message)`` is the one way code pushes to sockets: game events
(``games.events``) and a player's notifications (``notifications``). The channel layer is Redis
in production (every web process hears it) and in-memory in the embedded default (one process).
Sending is best effort: the database is the truth, and a socket that misses an event refetches.

Groups: ``user_group(user_id)`` reaches every tab a player has open (each tab's one socket, the
game socket on a game page and ``/ws/me/`` elsewhere, joins it); ``SITE_GROUP`` every home page
(``/ws/me/?topics=site``, anonymous visitors included).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import transaction

from core.wsgi_over_asgi import server_loop

logger = logging.getLogger(__name__)


def after_commit(send: Callable[[], None], what: str) -> None:
    """Call ``send`` (a live event, a message to a worker) after the current transaction commits
    (at once outside one). It must not fail the request: the change is committed, and its
    answer stands whatever happens after (Redis down, the database connection lost). A failure
    is logged; the clients refetch, and what the event was for is in the database."""

    def run() -> None:
        try:
            send()
        except Exception:
            logger.warning("%s not sent after the commit; clients refetch", what, exc_info=True)

    transaction.on_commit(run)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def home_group(user_id: int) -> str:
    """A player's open home pages only (their "your move" list): told of every turn of their
    games, which no other tab needs."""
    return f"home-{user_id}"


#: The home pages' group: told when a game starts, gets its first move or ends (the live list).
SITE_GROUP = "site"


def site_changed(what: str) -> None:
    """Tell the open home pages that the site's live lists changed (``what``: why).

    At most one such event per ``LIVE_SITE_EVENT_SECONDS`` per process: every home page is in
    this group, and unthrottled a hundred games starting at once were a hundred events times
    every open home page (bench/notifications.py: seconds of delay for every other push). A
    page fetches its list again when it hears one, and once more a little later
    (static/js/home.js), which catches the changes whose event was not sent.
    """
    global _site_sent_at
    now = time.monotonic()
    with _site_lock:
        if now - _site_sent_at < settings.LIVE_SITE_EVENT_SECONDS:
            return
        _site_sent_at = now
    text = json.dumps({"type": "site", "what": what})
    send_group(SITE_GROUP, {"type": "user.event", "text": text})


_site_lock = threading.Lock()
_site_sent_at = float("-inf")


class _Sender:
    """Sends events to a Redis channel layer from one background event loop, for changes made
    outside a web request (Celery tasks, background jobs, WebSocket moves).

    The code that made the change only builds the message and queues it; the fan-out through
    Redis happens beside it, in order. (A web request hands its events to the server's own loop
    instead, see ``send_group``; the in-memory layer of the embedded default must be used from
    the server's loop, so outside requests it keeps the blocking ``async_to_sync`` path.)
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="sumito-events", daemon=True).start()
                self._loop = loop
            return self._loop

    def send(self, layer, group: str, message: dict) -> None:
        future = asyncio.run_coroutine_threadsafe(
            layer.group_send(group, message), self._running_loop()
        )
        future.add_done_callback(_log_failure)


def _log_failure(future) -> None:
    if future.exception() is not None:  # a lost event is recovered by the client's refetch
        logger.error("could not publish a live event: %s", future.exception())


_sender = _Sender()


def send_group(group: str, message: dict) -> None:
    """Send ``message`` (a channel-layer event, ``{"type": ..., ...}``) to ``group``; never
    raises (a lost event is recovered by the client's refetch)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:  # in a web request: the server's own loop sends it, soon after
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        future.add_done_callback(_log_failure)
    elif isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:
            logger.exception("could not publish to %s", group)
    else:
        _sender.send(layer, group, message)
