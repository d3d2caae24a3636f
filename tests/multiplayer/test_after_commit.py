"""Nothing after a commit turns a table's answer into a 500: the state the sockets are sent and
the API answers with is built inside the transaction that made the change, so a database
connection lost just after the commit cannot fail the request (the move was stored; a retry
met 409 stale_ply)."""

from datetime import UTC, datetime

import pytest
from django.db import OperationalError, connection

from multiplayer.models import TableMove

from . import test_tables
from .test_tables import full_table, seat_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _start_now():
    """The tables start now, so that the API's real time is within their clocks."""
    test_tables.T0 = datetime.now(UTC)


@pytest.fixture
def lost_after_commit(monkeypatch):
    """Once armed, the database connection drops right after the next commit: every query
    then fails until the test disarms it."""
    state = {"armed": False, "broken": False}
    original = connection.commit

    def commit():
        original()
        if state["armed"]:
            state["broken"] = True

    def execute(execute, sql, params, many, context):
        if state["broken"]:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    monkeypatch.setattr(connection, "commit", commit)
    with connection.execute_wrapper(execute):
        yield state
    state.update(armed=False, broken=False)


def test_a_stored_move_answers_200_though_the_connection_drops_after_the_commit(
    api, make_player, lost_after_commit
):
    users = [make_player(f"t{i}") for i in range(3)]
    table = full_table(users)
    mover = seat_user(table, table.position[0])
    lost_after_commit["armed"] = True
    answer = api(mover).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "b2c2", "ply": 0}, format="json"
    )
    assert lost_after_commit["broken"]  # the connection was lost after the move's commit
    lost_after_commit.update(armed=False, broken=False)
    assert answer.status_code == 200, answer.content
    assert answer.json()["ply"] == 1 and answer.json()["moves"][-1]["notation"] == "b2c2"
    assert TableMove.objects.filter(table=table).count() == 1


def test_a_resignation_answers_200_though_the_connection_drops_after_the_commit(
    api, make_player, lost_after_commit
):
    users = [make_player(f"r{i}") for i in range(3)]
    table = full_table(users)
    lost_after_commit["armed"] = True
    answer = api(users[1]).post(f"/api/v1/tables/{table.pk}/resign/")
    assert lost_after_commit["broken"]
    lost_after_commit.update(armed=False, broken=False)
    assert answer.status_code == 200, answer.content
    table.refresh_from_db()
    assert table.status == "finished" and answer.json()["status"] == "finished"
