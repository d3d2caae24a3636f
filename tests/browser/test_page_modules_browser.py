"""The page scripts as native ES modules, in a real browser (docs/page-scripts.md).

The live pages (a game, the tables' lobby, a table, the analysis board, the home page) run their
modules with no ``Sumito*`` global on ``window`` and no error on the console; the shared socket
module (static/js/socket.js) reconnects a table's page after its socket drops, and treats the
close codes as the pages need: 4404 is final, 4503 backs off and, once back, the page reads its
state again.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.options import GameOptions
from games.services import game_create, game_move_apply
from multiplayer.services import table_create, table_join
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import move_at, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What page scripts used to hang on the window (window.SumitoApi, window.SumitoGame, ...).
SUMITO_GLOBALS = "() => Object.getOwnPropertyNames(window).filter((name) => /^Sumito/i.test(name))"

# Records the page's WebSockets and, while ``__blockSockets`` is set, sends new ones to a closed
# port: the test can drop the connection and keep it down for a while. A socket whose
# ``__closeCode`` is set tells its page it was closed with that code (as the server closes one).
SOCKET_SPY = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__blockSockets = false;
  window.WebSocket = function (url, protocols) {
    const socket = new Native(window.__blockSockets ? "ws://127.0.0.1:9/" : url, protocols);
    const listen = socket.addEventListener.bind(socket);
    socket.addEventListener = (type, listener, options) => listen(type, type !== "close" ? listener
      : (event) => listener(socket.__closeCode
        ? new CloseEvent("close", { code: socket.__closeCode, wasClean: true }) : event), options);
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page in a fresh browser context on the ASGI server whose console
    errors (any, not only the policy's refusals) and uncaught exceptions fail the test."""
    with page_opener(playwright_browser, asgi_live_server) as make:
        errors: list[str] = []

        def opened():
            page = make()
            page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
            page.on(
                "console",
                lambda message: (
                    errors.append(f"{page.url}: {message.text}")
                    if message.type == "error"
                    else None
                ),
            )
            return page

        opened.errors = errors
        yield opened


def _options(**fields) -> GameOptions:
    values = {
        "base_seconds": 600,
        "increment_seconds": 5,
        "marbles_to_win": 6,
        "start": "belgian",
        "rated": True,
    }
    return GameOptions(**{**values, **fields})


def _site(make_player):
    ada, bo = make_player("ada"), make_player("bo")
    game = game_create(black=ada, white=bo, options=_options(), now=timezone.now())
    table = table_create(creator=bo, players=3, base_seconds=600, now=timezone.now())
    return game, table


def _modules_ran(page) -> None:
    """The page has its import map, and no page script left a global behind."""
    assert page.locator('head script[type="importmap"]').count() == 1
    assert page.evaluate(SUMITO_GLOBALS) == [], page.url


def test_the_live_pages_run_as_modules_with_no_global_and_no_console_error(
    open_page, log_in, make_player
):
    game, table = outside_the_event_loop(_site, make_player=make_player)
    page = log_in(open_page(), "ada", PASSWORD)

    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#board [data-cell]")).to_have_count(61)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    _modules_ran(page)

    page.goto("/tables/")
    expect(page.locator(f'#tables tr[data-table="{table.pk}"]')).to_be_visible()
    _modules_ran(page)

    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#turn")).to_contain_text("Waiting for players")
    _modules_ran(page)

    page.goto("/analysis/")
    expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(page.locator("#legal-moves li")).not_to_have_count(0)
    _modules_ran(page)

    page.goto("/")
    # the bell's socket (/ws/me/) said hello: its snapshot replaced "Loading…"
    expect(page.locator("#notification-panel-list")).not_to_contain_text("Loading")
    _modules_ran(page)
    page.screenshot(path=str(screenshot_dir() / "sumito-modules-home.png"))

    visitor = open_page()
    with visitor.expect_websocket(lambda socket: "/ws/me/?topics=site" in socket.url):
        visitor.goto("/")
    _modules_ran(visitor)

    assert open_page.errors == []


def test_a_table_reconnects_after_its_socket_drops_and_catches_up(open_page, make_player):
    _game, table = outside_the_event_loop(_site, make_player=make_player)
    spectator = open_page()
    spectator.add_init_script(SOCKET_SPY)
    spectator.goto(f"/tables/{table.pk}/")
    expect(spectator.locator("#connection")).to_have_attribute("data-state", "live")
    seat = spectator.locator("#table .seat").filter(has_text="ada")
    expect(seat).to_have_count(0)

    spectator.evaluate("window.__blockSockets = true; window.__sockets.at(-1).close()")
    expect(spectator.locator("#connection")).to_contain_text("retrying")
    ada = make_player("ada2", display_name="Ada")
    outside_the_event_loop(table_join, table_id=table.pk, user=ada, colour=None, now=timezone.now())

    spectator.evaluate("window.__blockSockets = false")
    expect(spectator.locator("#connection")).to_have_attribute("data-state", "live")
    expect(spectator.locator("#table")).to_contain_text("ada2")
    expect(spectator.locator("#turn")).to_contain_text("1 of 3 seats open")
    assert open_page.errors == []


def test_a_game_page_backs_off_on_4503_reads_the_state_again_and_stops_on_4404(
    open_page, make_player
):
    game, _table = outside_the_event_loop(_site, make_player=make_player)
    spectator = open_page()
    spectator.add_init_script(SOCKET_SPY)
    spectator.goto(f"/games/{game.pk}/")
    expect(spectator.locator("#connection")).to_have_attribute("data-state", "live")

    # 4503, as the server closes a socket that cannot reach its live-update service: the page
    # retries, and once back reads the state (a move was played meanwhile).
    spectator.evaluate("window.__blockSockets = true")
    close(spectator, 4503)
    expect(spectator.locator("#connection")).to_contain_text("retrying")
    outside_the_event_loop(
        game_move_apply,
        game_id=game.pk,
        player=game.black,
        move="a1b2",
        expected_ply=0,
        now=timezone.now(),
    )
    with spectator.expect_response(re.compile(rf"/api/v1/games/{game.pk}/$")):
        spectator.evaluate("window.__blockSockets = false")
        expect(spectator.locator("#connection")).to_have_attribute("data-state", "live")
    expect(move_at(spectator, 1)).to_have_text("a1b2")

    # 4404: the game is gone; the page says so and does not come back.
    sockets = spectator.evaluate("window.__sockets.length")
    close(spectator, 4404)
    expect(spectator.locator("#connection")).to_have_text("Game not found")
    spectator.wait_for_timeout(1500)
    assert spectator.evaluate("window.__sockets.length") == sockets
    assert open_page.errors == []


def close(page, code: int) -> None:
    """The page's socket closes, and its page hears the close code ``code``."""
    page.evaluate(
        "(code) => { const socket = window.__sockets.at(-1); socket.__closeCode = code; socket.close(); }",
        code,
    )
