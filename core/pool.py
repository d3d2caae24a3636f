"""The check each PostgreSQL connection passes as it leaves the pool.

psycopg_pool checks a connection with one empty query (``CONN_HEALTH_CHECKS``) and, when it
fails, pauses before taking the next (1, 2, 4, 8 s...: a backoff against a busy loop). After
PostgreSQL restarts or cuts its connections, every idle connection in the pool is dead: checked
one by one, a pool holding five of them passed its 20 s timeout before it reached a live one,
and a request failed with the database long back (tests/production/test_db_pool.py). So the
first dead connection found has the pool check all its idle ones at once
(``ConnectionPool.check``: the dead are replaced in the background), and the next try, a second
later, gets a live connection.

Django builds the pool itself and passes it psycopg's plain check, with no way to name another:
:func:`use_sibling_checks` puts this one in its place when a connection is made
(``connection_created``, core.apps). ``_check`` is psycopg_pool's own attribute (3.2-3.3); the
test above fails if a release renames it.
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool


def check_connection(conn) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)  # psycopg_pool sets it on the connections it gives
        if isinstance(pool, ConnectionPool):
            pool.check()  # which uses ConnectionPool.check_connection itself: no recursion
        raise


def use_sibling_checks(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: the pool of a PostgreSQL connection checks with
    :func:`check_connection`."""
    if connection.vendor != "postgresql" or not connection.settings_dict["OPTIONS"].get("pool"):
        return
    pool = connection.pool
    if getattr(pool, "_check", None) is ConnectionPool.check_connection:
        pool._check = check_connection
