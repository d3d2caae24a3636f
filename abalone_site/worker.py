"""The Celery worker's and beat's own parts (named by ``CELERY_WORKER_CONSUMER`` and
``CELERY_BEAT_SCHEDULER``; only they import this module, not the web processes): both try Redis
again every second while it is away. Celery's own waits grow 2 s, 4, 6, ... up to 30 s between
tries (kombu's ``ensure_connection`` defaults), so a worker or beat came back up to half a
minute after a long Redis outage ended, and the computer's moves and the analyses waited for
them (docs/deploy.md promises 10 s). A try is one TCP connect to Redis: once a second is
nothing."""

from celery.beat import PersistentScheduler
from celery.worker.consumer import Consumer

#: kombu's ensure_connection intervals: 0.5 s, then every second.
RETRY = {"interval_start": 0.5, "interval_step": 0.5, "interval_max": 1.0}


def _every_second(conn):
    if getattr(conn, "_sumito_every_second", False):
        return conn
    conn._sumito_every_second = True
    ensure = conn.ensure_connection

    def every_second(*args, **kwargs):
        return ensure(*args, **{**RETRY, **kwargs})

    conn.ensure_connection = every_second
    return conn


class QuickReconnectConsumer(Consumer):
    """The worker's consumer, reconnecting to Redis every second while it is away."""

    def ensure_connected(self, conn):
        return super().ensure_connected(_every_second(conn))


class QuickReconnectScheduler(PersistentScheduler):
    """Beat's scheduler (the schedule kept in its file, as Celery's own), reconnecting to Redis
    every second while it is away."""

    def _ensure_connected(self):
        _every_second(self.connection)
        return super()._ensure_connected()
