import time

import pytest

from tests.conftest import production_wiring_missing


def pytest_collection_modifyitems(config, items):
    reason = production_wiring_missing()
    for item in items:
        if "tests/production/" in str(item.fspath):
            item.add_marker(pytest.mark.production)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def celery_worker_thread():
    """A real Celery worker (in a thread) consuming from the Redis broker at REDIS_URL."""
    from celery.contrib.testing.worker import start_worker

    from abalone_site.celery import app

    app.loader.import_default_modules()
    app.control.purge()  # drop messages left in the broker by earlier runs
    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10
    ) as worker:
        # Started is not yet listening for broadcasts: Redis publish/subscribe keeps no message
        # for a subscriber that comes later, so a ping sent before the worker's SUBSCRIBE reached
        # Redis is lost. Wait until it answers one (a test of the health check then pings a
        # worker that listens, as a deployed one does).
        deadline = time.monotonic() + 20
        while not app.control.ping(destination=[worker.hostname], timeout=0.5):
            assert time.monotonic() < deadline, "the test worker never answered a ping"
        yield worker
