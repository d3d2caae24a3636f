"""A table's flag falls with the database alone, as a two-player game's does: every web
process's deadline watcher (core.deadlines) sweeps the tables too. During a Redis outage no
table flag fell, and after it the flags waited for Celery's reconnect (issue 24, item 3)."""

from datetime import UTC, datetime, timedelta

import pytest

from core import deadlines
from core.deadlines import DeadlineWatcher
from multiplayer.models import Seat, Table
from tests.support import wait_for

from . import test_tables
from .test_tables import full_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _start_now():
    test_tables.T0 = datetime.now(UTC)


def test_the_watcher_wakes_at_a_table_s_deadline_and_flags_it(make_player):
    users = [make_player(f"w{i}") for i in range(3)]
    table = full_table(users, base=10)  # the shortest clock: Black's 10 s; nobody moves
    deadline = table.flag_deadline
    assert deadlines.next_deadline() == deadline
    soon = DeadlineWatcher(poll_seconds=60.0)
    assert 0 < soon.turn() <= 10.0  # it sleeps until the table's deadline, not a poll
    watcher = DeadlineWatcher(poll_seconds=1.0)
    watcher.start()
    try:
        flagged = wait_for(
            lambda: Table.objects.get(pk=table.pk).status == Table.Status.FINISHED, timeout=30.0
        )
    finally:
        watcher.stop()
    table.refresh_from_db()
    assert flagged and table.termination == "time"
    assert table.ended_at >= deadline
    black = Seat.objects.get(table=table, colour="b")
    assert black.place == 3 and black.clock_ms == 0  # the flagged seat finishes last


def test_an_open_table_nobody_filled_expires_by_the_watcher(make_player):
    from multiplayer import services

    now = datetime.now(UTC)
    table = services.table_create(
        creator=make_player("lonely"), players=3, base_seconds=60, now=now - timedelta(hours=2)
    )
    assert deadlines.next_deadline() == table.expires_at
    DeadlineWatcher(poll_seconds=1.0).turn()
    table.refresh_from_db()
    assert (table.status, table.termination) == ("aborted", "expired")
