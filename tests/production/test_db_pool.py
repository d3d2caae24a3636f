"""The connection pool after PostgreSQL cut every connection (core.pool, the settings' check).

Skipped, with the reason, unless DATABASE_URL names PostgreSQL and REDIS_URL is set.
"""

import psycopg
import pytest
from django.db import connection


def cut(pids: list[int]) -> int:
    """Terminate these backends from a connection of its own, as a PostgreSQL restart would."""
    params = connection.settings_dict
    with psycopg.connect(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"],
        password=params["PASSWORD"] or None,
        dbname=params["NAME"],
        autocommit=True,
    ) as admin:
        row = admin.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE pid = ANY(%s)",
            (pids,),
        ).fetchone()
    return row[0]


@pytest.mark.django_db(transaction=True)
def test_a_pool_whose_idle_connections_were_all_cut_gives_a_live_one():
    """Eight idle connections cut: the first request after gets a live connection. Checked one
    by one with the pool's growing pauses (1, 2, 4, 8, 16 s), the fifth dead connection came
    after the pool's 20 s timeout and the request failed (PoolTimeout)."""
    connection.close()  # the test's own connection back in the pool, to be cut with the rest
    pool = connection.pool
    held = [pool.getconn() for _ in range(8)]
    pids = [conn.info.backend_pid for conn in held]
    for conn in held:
        pool.putconn(conn)
    assert cut(pids) == 8

    conn = pool.getconn()  # the pool's own timeout (20 s) applies
    try:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        assert conn.info.backend_pid not in pids
    finally:
        pool.putconn(conn)
    with connection.cursor() as cursor:  # and Django's connection works again
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
