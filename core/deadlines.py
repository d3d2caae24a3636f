"""Flags fall on time with nobody watching: a deadline watcher in every web process.

Each web process runs one :class:`DeadlineWatcher` thread (started by the ASGI application's
lifespan, see ``abalone_site.asgi``). It sleeps until the earliest deadline of anything with a
clock (at most ``DEADLINE_WATCH_SECONDS``), then adjudicates everything whose deadline has
passed. What has deadlines is registered by its app at start-up (:func:`register`): two-player
games (``games``: ``games_sweep_flags``) and tables (``multiplayer``: ``tables_sweep``). On
PostgreSQL one process at a time sweeps, under an advisory lock the others do not wait for.

Why here and not only in Celery: the watcher needs nothing but the database. A Redis outage, a
dead Celery worker or a dead beat do not stop flags from falling, and there are as many watchers
as web processes, so no single long-lived process has to stay healthy. A lost database
connection is closed and opened again on the next turn. Beat's one-second sweep stays as a
second net; adjudication is idempotent, so a flag found twice is adjudicated once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

logger = logging.getLogger(__name__)

# pg_try_advisory_lock key: "Sumito flags" (any constant the site uses for nothing else).
ADVISORY_LOCK_KEY = 0x53554D49
# Never sleep less than this: a deadline just passed is swept at once, then the next one waited
# for, not spun on.
MIN_SLEEP_SECONDS = 0.02


@dataclass(frozen=True)
class Clocked:
    """Something with deadlines: the earliest one still to come or passed (None: none), and
    the sweep that adjudicates everything due at ``now`` (idempotent; what it did)."""

    name: str
    next_deadline: Callable[[], datetime | None]
    sweep: Callable[..., int]


_clocked: dict[str, Clocked] = {}


def register(name: str, *, next_deadline: Callable[[], datetime | None], sweep) -> None:
    """Have the watcher adjudicate ``name``'s deadlines (from an app's ``ready()``; a second
    registration under the same name replaces the first). ``sweep`` is called ``sweep(now=)``."""
    _clocked[name] = Clocked(name, next_deadline, sweep)


def next_deadline() -> datetime | None:
    """The earliest deadline of anything registered, or None."""
    deadlines = [d for d in (clocked.next_deadline() for clocked in _clocked.values()) if d]
    return min(deadlines, default=None)


def sweep_all(*, now: datetime) -> int:
    """Adjudicate everything due at ``now``, each registered sweep in turn; what they did."""
    return sum(clocked.sweep(now=now) for clocked in _clocked.values())


def sweep_if_first(*, now: datetime) -> int | None:
    """Adjudicate everything due at ``now`` unless another process is sweeping (None then).

    On PostgreSQL the sweep runs under a session advisory lock taken without waiting; the lock
    is released at the end, or by PostgreSQL if the connection is lost. Elsewhere (SQLite: one
    process) it just sweeps.
    """
    if connection.vendor != "postgresql":
        return sweep_all(now=now)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_LOCK_KEY])
        if not cursor.fetchone()[0]:
            return None
        try:
            return sweep_all(now=now)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_LOCK_KEY])


class DeadlineWatcher:
    """The watcher thread of one process; :meth:`turn` is one pass, for tests."""

    def __init__(self, *, poll_seconds: float | None = None) -> None:
        self.poll_seconds = poll_seconds or settings.DEADLINE_WATCH_SECONDS
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False

    def turn(self) -> float:
        """Adjudicate what is due; the seconds to wait before the next turn."""
        try:
            sweep_if_first(now=timezone.now())
            deadline = next_deadline()
        except Exception:
            # The database is down or the connection broke: say so once, retry each turn.
            if not self._failing:
                logger.exception("deadline watcher: cannot reach the database; retrying")
            self._failing = True
            connection.close()
            return self.poll_seconds
        if self._failing:
            logger.warning("deadline watcher: the database is back")
            self._failing = False
        if deadline is None:
            return self.poll_seconds
        wait = (deadline - timezone.now()).total_seconds()
        return min(self.poll_seconds, max(MIN_SLEEP_SECONDS, wait))

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sumito-deadlines", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            wait = self.turn()
            close_old_connections()
            self._stop.wait(max(0.0, wait - (time.monotonic() - started)))
        connection.close()


_watcher: DeadlineWatcher | None = None
_watcher_lock = threading.Lock()


def start_watcher() -> DeadlineWatcher | None:
    """Start this process's watcher (once), unless ``DEADLINE_WATCHER`` is off."""
    global _watcher
    if not settings.DEADLINE_WATCHER:
        return None
    with _watcher_lock:
        if _watcher is None:
            _watcher = DeadlineWatcher()
            _watcher.start()
        return _watcher


def stop_watcher() -> None:
    global _watcher
    with _watcher_lock:
        if _watcher is not None:
            _watcher.stop()
            _watcher = None
