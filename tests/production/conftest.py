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
        yield worker
