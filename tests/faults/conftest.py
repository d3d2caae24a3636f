"""The fault suite: the production shape broken on purpose (tests/faults/harness.py).

It needs PostgreSQL (``DATABASE_URL``), Redis running (it starts a ``redis-server`` of its own on
a free port, which it kills and restarts) and ``/usr/bin/redis-server``; it is skipped, with
the reason, without them. Each test starts a fresh stack on the test database.

What each test measured is printed and kept in ``FAULT_REPORT`` (``/tmp/sumito-faults.json``
unless set): docs/deploy.md quotes it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import production_wiring_missing
from tests.faults.harness import REDIS_SERVER, Stack, database_url

REPORT = Path(os.environ.get("FAULT_REPORT", "/tmp/sumito-faults.json"))


def pytest_collection_modifyitems(config, items):
    reason = production_wiring_missing()
    if reason is None and not os.path.exists(REDIS_SERVER):
        reason = f"{REDIS_SERVER} is missing: the fault suite starts Redis servers of its own"
    for item in items:
        if "tests/faults/" in str(item.fspath):
            item.add_marker(pytest.mark.faults)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def stack_factory(transactional_db, tmp_path):
    """``stack_factory(**options)`` starts a :class:`Stack` on the test database; all are
    stopped at the end of the test."""
    stacks = []

    def make(**options) -> Stack:
        stack = Stack(tmp_path / f"stack{len(stacks)}", database_url(), **options)
        stacks.append(stack)
        try:
            return stack.start()
        except Exception:
            stack.stop()
            raise

    yield make
    for stack in stacks:
        stack.stop()
    connection.close()


@pytest.fixture
def report(request):
    """``report(**figures)`` records what this test measured, under its name."""

    def record(**figures) -> None:
        saved = json.loads(REPORT.read_text()) if REPORT.exists() else {}
        saved[request.node.name] = figures
        REPORT.write_text(json.dumps(saved, indent=2, sort_keys=True, default=str))
        print(f"{request.node.name}: {figures}")

    return record
