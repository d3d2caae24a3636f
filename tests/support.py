"""Small helpers shared across the test suite."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(predicate: Callable[[], object], timeout: float = 20.0, every: float = 0.05) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds have passed; whether it was.

    For what another process or thread does (a Celery worker, a server): the test asserts on
    the answer, so a timeout fails the test instead of hanging it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return bool(predicate())


def session_cookie(user) -> str:
    """A ``Cookie`` header value that logs a WebSocket (or any raw client) in as ``user``."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"
