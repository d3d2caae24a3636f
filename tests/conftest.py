"""Fixtures shared by the whole suite.

Tests that touch the database run on whatever ``DATABASE_URL`` names (PostgreSQL in CI) or on
SQLite without it. Tests that prove the production wiring need PostgreSQL and Redis and are
skipped, with the reason, when those are not configured.
"""

import itertools
import os

import pytest
from django.conf import settings
from rest_framework.test import APIClient

_counter = itertools.count(1)
PASSWORD = "correct-horse-battery-staple"  # noqa: S105


def production_wiring_missing() -> str | None:
    if not os.environ.get("REDIS_URL"):
        return "REDIS_URL is not set: production wiring (Celery via Redis) not tested"
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not name PostgreSQL: production wiring not tested"
    return None


@pytest.fixture(scope="session", autouse=True)
def _empty_worker_redis():
    """A pytest-xdist worker after the first starts on an empty Redis database of its own
    (tests/settings.py): what an earlier run left there (tasks queued, throttle counts) would
    otherwise be taken up by this run's Celery workers. The first worker's database is the one
    the environment names, which the caller empties (as `.ci/run` does)."""
    if os.environ.get("SUMITO_REDIS_OF", "gw0") != "gw0" and os.environ.get("REDIS_URL"):
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()


@pytest.fixture
def make_player(db, django_user_model):
    def make(username: str | None = None, **fields):
        username = username or f"player{next(_counter)}"
        fields.setdefault("email", f"{username}@example.org")
        return django_user_model.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def api():
    """An API client factory: ``api(user)`` is logged in as ``user``, ``api()`` is anonymous."""

    def make(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # PBKDF2's deliberate slowness would dominate the suite; tests are not about hashing cost.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_kept_engines():
    # Each test starts with no kept engines (games.move_store): a database rolled back between
    # tests may give a new game the id of one kept from an earlier test.
    from games import move_store

    move_store.forget_all()


@pytest.fixture(autouse=True)
def _english_afterwards():
    # A request activates its language in the thread and leaves it there: the tests after one
    # in another language (tests/site/test_i18n.py, test_engine_messages.py), calling services
    # directly, expect the site's default.
    yield
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_known_computer_accounts():
    # Each test starts knowing no account (games.computer), as a new process would: the database
    # emptied between tests may give a person the id a computer's account had in an earlier one.
    from games import computer_players

    computer_players._levels_by_user.clear()


@pytest.fixture(autouse=True)
def _one_throttle_window(monkeypatch):
    """django-ratelimit counts in fixed windows aligned to the clock (a "6/m" window ends at a
    whole minute, shifted per key): a test's requests could straddle a window's end and the
    count start again mid-test (the chat test's 7th line was let through once in CI). Each
    test counts in one window that begins when the test does."""
    import time

    start = int(time.time())
    monkeypatch.setattr("django_ratelimit.core._get_window", lambda value, period: start + period)


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    # Throttle counts live in the cache, which a whole run shares (Redis in CI): tests that
    # are not about throttles must not trip over each other's counts. Throttle tests set
    # their own rates (tests/site/test_throttles.py).
    from accounts import authentication

    settings.THROTTLE_RATES = {scope: "100000/m" for scope in settings.THROTTLE_RATES}
    authentication._refused.clear()
