"""The test suite's settings: the site's own, with a secret key when the environment gives none.

With ``DATABASE_URL``/``REDIS_URL`` set the site runs in its production shape, which refuses to
start without ``SECRET_KEY``; the suite (and the worker and beat processes its production tests
start, which inherit ``DJANGO_SETTINGS_MODULE``) uses this throwaway one instead.
"""

import os

os.environ.setdefault("SECRET_KEY", "sumito-test-suite-only-" + "not-secret-" * 4)
# Web Push: a throwaway VAPID key (its public key is what the test push service checks the
# signatures with), and the test push service's plain-http address allowed.
os.environ.setdefault("VAPID_PRIVATE_KEY", "p4dDTW1UoCSyWr3h0dq9kqGVVKMBgfD-EkFnC8m2ZnU")
os.environ.setdefault("PUSH_ALLOW_HTTP", "true")


def _own_redis_database(url: str, worker: str) -> str:
    """``REDIS_URL`` for one of pytest-xdist's workers (``gw0``, ``gw1``, ...): the database
    number given, counted down by the worker's number (15, 14, ... from CI's 15). Workers share
    the PostgreSQL server (pytest-django gives each its own test database) and the Redis server;
    on one Redis database their Celery workers would take each other's tasks and their sockets
    hear each other's games (the same ids in two test databases)."""
    from urllib.parse import urlsplit, urlunsplit

    from core.redis_names import redis_database

    number = (redis_database(url) - int(worker.removeprefix("gw"))) % 16
    return urlunsplit(urlsplit(url)._replace(path=f"/{number}", query=""))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if os.environ.get("REDIS_URL") and _worker and os.environ.get("SUMITO_REDIS_OF") != _worker:
    # In os.environ, not only in the settings: the servers, workers and beats the tests start
    # as processes read it from their environment (and must not count it down again).
    os.environ["REDIS_URL"] = _own_redis_database(os.environ["REDIS_URL"], _worker)
    os.environ["SUMITO_REDIS_OF"] = _worker

from abalone_site.settings import *  # noqa: E402, F403

# The suite does not run collectstatic: pages name static files as they are, unhashed (the
# hashed manifest of production is checked by CI's `make run` smoke test).
STORAGES = {  # noqa: F405
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
