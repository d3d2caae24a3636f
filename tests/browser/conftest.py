"""Fixtures for the real-browser tests: Debian's Chromium driven by Playwright's sync API.

One Chromium process serves each test module; every page comes from its own browser context,
so two players can be logged in side by side. Pages talk to pytest-django's ``live_server``.

Without ``/usr/bin/chromium`` the browser tests are skipped, except under CI (``CI`` set), where
a missing browser is an error: CI must never pass by silently skipping them.
"""

import os

import pytest
from django.db.backends.signals import connection_created

# Playwright's sync API runs an event loop in the test thread; Django would then refuse ORM
# calls from the test ("SynchronousOnlyOperation"). The ORM calls here are plain blocking ones.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TIMEOUT_MS = 10_000


def _browser_missing() -> str | None:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing: pip install -e '.[dev]'"
    return None


@pytest.fixture(scope="module")
def playwright_browser():
    """One headless Chromium per test module (skipped without it, but fails under CI).

    Per module, not per session: while Playwright's sync API is started, its event loop runs
    in the main thread, and the tests collected after the browser tests (async_to_sync in the
    channel layer, say) must not inherit it.
    """
    reason = _browser_missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the browser tests cannot run: {reason}", pytrace=False)
        pytest.skip(reason)

    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
    except Exception:
        playwright.stop()
        raise
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


@pytest.fixture
def new_page(playwright_browser, live_server):
    """``new_page()`` opens a page in a fresh browser context (own cookies) on the live server."""
    contexts = []

    def make():
        context = playwright_browser.new_context(
            base_url=live_server.url, viewport={"width": 1280, "height": 900}
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """A page in a fresh browser context."""
    return new_page()


@pytest.fixture
def log_in():
    """``log_in(page, username, password)`` logs in through the login page."""
    from playwright.sync_api import expect

    def do(page, username: str, password: str):
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("button", name="Log out")).to_be_visible()
        return page

    return do


@pytest.fixture
def readers_never_block_the_worker():
    """On SQLite, connections opened during the test read without read locks.

    pytest-django's SQLite test database is an in-memory one in shared-cache mode, where a
    reader's table lock makes a concurrent writer fail at once ("database table is locked")
    instead of waiting: a worker's write (an analysis's progress, the computer's move) then
    failed while a page was reading, about one run in twenty-five. The site's own SQLite file
    runs in WAL mode, where readers never block the writer; ``read_uncommitted`` gives the
    shared cache that behaviour (it has no effect outside shared-cache mode, and PostgreSQL is
    left alone).
    """

    def no_read_locks(sender, connection, **kwargs):
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA read_uncommitted = 1")

    connection_created.connect(no_read_locks)
    yield
    connection_created.disconnect(no_read_locks)
