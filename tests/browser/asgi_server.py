"""``asgi_live_server``: the site's ASGI application under uvicorn, for tests that need WebSockets.

pytest-django's ``live_server`` is a WSGI server: it cannot upgrade a connection to a WebSocket.
This fixture runs ``abalone_site.asgi.application`` (HTTP and the Channels routes) with uvicorn in
a background thread on a free port of 127.0.0.1 and yields its base URL.

* Database: it requests ``transactional_db``, so the server's threads see the rows a test writes
  and commits (with SQLite pytest-django's test database is a shared-cache in-memory database
  that every thread of the process opens; with PostgreSQL it is the test database).
  Connections are not kept between requests while it runs (``CONN_MAX_AGE`` 0): a connection left
  open in one of the server's worker threads would keep PostgreSQL from dropping the test
  database at the end of the session. On SQLite, the connections opened while it runs read
  without read locks (``PRAGMA read_uncommitted``): in shared-cache mode a table lock makes a
  concurrent reader or writer fail at once ("database table is locked") instead of waiting,
  which the site's own SQLite file (WAL mode, a busy timeout) never does; the server's requests
  and the test's own writes (a worker's, a bot's) run side by side here.
* Static files: pytest-django turns ``DEBUG`` off for tests, so WhiteNoise (which reads DEBUG
  when the application is built) does not look in the finders and there is no collected
  ``STATIC_ROOT``. The application is wrapped in Django's ``ASGIStaticFilesHandler``, which serves
  ``STATIC_URL`` from the finders and passes every other request and every WebSocket through,
  as Channels' own ``ChannelsLiveServerTestCase`` does.

Import the fixture into a test module (``from tests.browser.asgi_server import asgi_live_server``).
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.db.backends.signals import connection_created

from games.consumers import move_thread

STARTUP_TIMEOUT_SECONDS = 10.0
SHUTDOWN_TIMEOUT_SECONDS = 10.0


def _no_read_locks(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")


@pytest.fixture
def asgi_live_server(transactional_db):
    """Serve the site over HTTP and WebSockets on 127.0.0.1; yields ``http://127.0.0.1:<port>``."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    from abalone_site.asgi import application

    database = connections.databases["default"]
    saved_max_age = database.get("CONN_MAX_AGE", 0)
    database["CONN_MAX_AGE"] = 0
    connection_created.connect(_no_read_locks)

    # Bind the socket here so the port is ours before the thread starts: no free-port race.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),
        lifespan="off",
        log_level="warning",
        ws_ping_interval=None,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    # uvicorn installs signal handlers only in the main thread, so this thread leaves them alone.
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listener]}, name="asgi-live-server", daemon=True
    )
    thread.start()
    started_by = time.monotonic() + STARTUP_TIMEOUT_SECONDS
    while not server.started:
        if not thread.is_alive():
            pytest.fail("the ASGI live server stopped while starting (see its log above)")
        if time.monotonic() > started_by:
            server.should_exit = True
            pytest.fail(f"the ASGI live server did not start in {STARTUP_TIMEOUT_SECONDS} s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(SHUTDOWN_TIMEOUT_SECONDS)
        listener.close()
        move_thread.release()  # the socket moves' connection, kept between moves
        database["CONN_MAX_AGE"] = saved_max_age
        connection_created.disconnect(_no_read_locks)
        if thread.is_alive():
            pytest.fail(f"the ASGI live server did not stop in {SHUTDOWN_TIMEOUT_SECONDS} s")
