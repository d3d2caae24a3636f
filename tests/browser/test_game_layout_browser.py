"""The game page fits the screens players use (issue 23): from 1280x720 to 1920x1080 the whole
board and both clocks are in view without scrolling (the opponent's above, yours below, beside
the board), the moves scroll inside their box, and the header is one row whose bell panel stays
inside the window; the same for a table of three; a 3+2 game played through the page at
1366x768, both clocks read from the screen. Light and dark, screenshots in ``SCREENSHOT_DIR``.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import engine
from games.models import Game
from games.options import GameOptions
from games.services import game_create
from multiplayer.services import table_create, table_join
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import click_move, clicks_for, outside_the_event_loop, page_opener
from tests.browser.site_pages import (
    PHONE,
    build_site,
    log_in_as_viewer,
    screenshot_dir,
    visit,
)
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1280, 720), (1366, 768), (1440, 900), (1920, 1080)]
#: A one-row header: the bell's 44 px and a little padding.
ONE_ROW = 60


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def inside(outer: dict, inner: dict, what: str) -> None:
    """``inner`` lies within ``outer`` (a box or the window), to half a pixel."""
    assert inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5, (what, inner)
    assert inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5, (what, inner, outer)
    assert inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5, (what, inner, outer)


def window_of(page) -> dict:
    size = page.viewport_size
    return {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}


def check_game_page(page, *, mine: str, theirs: str, label: str) -> None:
    """The board, both clocks and the moves in the window, the opponent above you, beside the
    board; no sideways scroll; the header one row."""
    window = window_of(page)
    board = box(page, "#board")
    inside(window, board, f"{label}: board")
    top, bottom = box(page, f"#player-{theirs}"), box(page, f"#player-{mine}")
    for name in (f"#clock-{theirs}", f"#clock-{mine}", "#moves"):
        inside(window, box(page, name), f"{label}: {name}")
    assert top["y"] + top["height"] <= bottom["y"], (label, top, bottom)
    assert top["x"] >= board["x"] + board["width"] - 0.5, (label, "beside", top, board)
    assert abs(top["y"] - board["y"]) <= 2, (label, "the opponent at the board's top", top, board)
    assert abs(bottom["y"] + bottom["height"] - board["y"] - board["height"]) <= 2, (
        label,
        "you at the board's bottom",
        bottom,
        board,
    )
    assert box(page, "header.topbar")["height"] <= ONE_ROW, label
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), label
    moves = page.locator("#moves")
    assert moves.evaluate("e => getComputedStyle(e).overflowY") == "auto", label


def test_the_game_page_fits_every_screen_light_and_dark(open_page, make_player):
    site = build_site(make_player)  # the viewer, ada, plays Black in the live game
    shots = screenshot_dir()
    for scheme in ("light", "dark"):
        for width, height in SCREENS:
            page = open_page(width=width, height=height)
            page.emulate_media(color_scheme=scheme)
            log_in_as_viewer(page)
            for path, kind in ((f"/games/{site.live_game}/", "live"),):
                visit(page, path)
                expect(page.locator("#connection")).to_have_attribute("data-state", "live")
                expect(page.locator("#board [data-cell='e5']")).to_be_attached()
                check_game_page(page, mine="b", theirs="w", label=f"{kind} {width}x{height}")
                page.screenshot(path=str(shots / f"game-{kind}-{width}x{height}-{scheme}.png"))
            # A finished game as White: the result and the rematch buttons still leave both
            # clocks in view; White sits at the bottom.
            visit(page, f"/games/{site.finished_game}/")
            expect(page.locator("#result")).to_be_visible()
            check_game_page(page, mine="w", theirs="b", label=f"finished {width}x{height}")
            page.screenshot(path=str(shots / f"game-finished-{width}x{height}-{scheme}.png"))
        phone = open_page(**PHONE)
        phone.emulate_media(color_scheme=scheme)
        log_in_as_viewer(phone)
        visit(phone, f"/games/{site.live_game}/")
        expect(phone.locator("#board [data-cell='e5']")).to_be_attached()
        board = box(phone, "#board")
        assert box(phone, "#player-w")["y"] + box(phone, "#player-w")["height"] <= board["y"] + 1
        assert box(phone, "#player-b")["y"] >= board["y"] + board["height"] - 1
        phone.screenshot(path=str(shots / f"game-phone-390x844-{scheme}.png"), full_page=True)
    assert open_page.problems == []


def test_a_spectator_sees_black_below_and_the_whole_board(open_page, make_player):
    site = build_site(make_player)
    page = open_page(width=1366, height=768)
    visit(page, f"/games/{site.live_game}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    check_game_page(page, mine="b", theirs="w", label="spectator 1366x768")
    assert open_page.problems == []


def test_a_table_of_three_fits_with_every_seat_s_clock(open_page, make_player):
    players = [make_player(name) for name in ("tia", "tom", "tex")]

    def full_table():
        now = timezone.now()
        table = table_create(creator=players[0], players=3, base_seconds=600, colour="b", now=now)
        table_join(table_id=table.pk, user=players[1], colour="w", now=now)
        table_join(table_id=table.pk, user=players[2], colour="r", now=now)
        return table

    table = outside_the_event_loop(full_table)
    shots = screenshot_dir()
    for width, height in [*SCREENS, (PHONE["width"], PHONE["height"])]:
        page = open_page(width=width, height=height)
        visit(page, f"/tables/{table.pk}/")
        expect(page.locator("#board [data-cell='e5']")).to_be_attached()
        window = window_of(page)
        if width > PHONE["width"]:
            inside(window, box(page, "#board"), f"table {width}x{height}: board")
        for seat in range(3):
            inside(window, box(page, f"#clock-{seat}"), f"table {width}x{height}: clock {seat}")
            expect(page.locator(f"#clock-{seat}")).to_have_text(re.compile(r"^\d+:\d\d"))
            clock = box(page, f"#clock-{seat}")
            assert clock["height"] < 50, (width, seat, "a clock on one line", clock)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(shots / f"table-{width}x{height}.png"))
    assert open_page.problems == []


def test_the_header_is_one_row_and_the_bell_s_panel_stays_in_the_window(open_page, make_player):
    build_site(make_player)
    for width, height in [*SCREENS, (1024, 768), (PHONE["width"], PHONE["height"])]:
        page = open_page(width=width, height=height)
        log_in_as_viewer(page)
        visit(page, "/")
        assert box(page, "header.topbar")["height"] <= ONE_ROW, width
        page.locator("#notification-bell").click()
        panel = page.locator("#notification-panel")
        expect(panel).to_be_visible()
        inside(window_of(page), box(page, "#notification-panel"), f"bell panel at {width}")
        page.keyboard.press("Escape")
    assert open_page.problems == []


def clickable(position, notation: str) -> bool:
    """Whether the page plays ``notation`` by clicks alone (no "which way?" to answer)."""
    try:
        clicks_for(position, notation)
    except AssertionError:
        return False
    return True


def clock_seconds(text: str) -> float:
    minutes, seconds = text.strip().split(":")
    return int(minutes) * 60 + float(seconds)


def test_a_3_plus_2_game_at_1366x768_both_clocks_read_from_the_screen(
    open_page, log_in, make_player
):
    """Two players on laptops play a blitz game through the page: each reads both clocks on the
    screen, in view all game long; the side to move's runs down, the other's stands, and after
    each move the mover's shows the server's time (its increment added)."""
    black_player = make_player("blitz_b", display_name="Blitz Black")
    white_player = make_player("blitz_w", display_name="Blitz White")
    game = outside_the_event_loop(
        game_create,
        black=black_player,
        white=white_player,
        options=GameOptions(180, 2, 4, "standard", True),
        now=timezone.now(),
    )
    black = log_in(open_page(width=1366, height=768), "blitz_b", PASSWORD)
    white = log_in(open_page(width=1366, height=768), "blitz_w", PASSWORD)
    pages = {"b": black, "w": white}
    for colour, page in pages.items():
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        other = "w" if colour == "b" else "b"
        check_game_page(page, mine=colour, theirs=other, label=f"3+2 as {colour}")
    position = engine.Position.from_string(game.position)
    for ply in range(8):
        mover = "b" if ply % 2 == 0 else "w"
        waiting = "w" if mover == "b" else "b"
        page = pages[mover]
        expect(page.locator(f"#clock-{mover}")).to_have_class(re.compile(r"\bactive\b"))
        if ply >= 2:  # both first moves made: the mover's main clock runs, the other's stands
            before = clock_seconds(page.locator(f"#clock-{mover}").inner_text())
            standing = page.locator(f"#clock-{waiting}").inner_text()
            expect(page.locator(f"#clock-{mover}")).not_to_have_text(
                page.locator(f"#clock-{mover}").inner_text()
            )
            assert clock_seconds(page.locator(f"#clock-{mover}").inner_text()) < before
            assert page.locator(f"#clock-{waiting}").inner_text() == standing
        notation = next(
            n
            for n in sorted(m.notation for m in engine.legal_moves(position))
            if clickable(position, n)
        )
        click_move(page, position, notation)
        position, _outcome = engine.apply_move(position, notation)
        for watcher in pages.values():  # both screens show the move and the switched clock
            expect(watcher.locator(f"#clock-{waiting}")).to_have_class(re.compile(r"\bactive\b"))
        stored = Game.objects.get(pk=game.pk)
        if ply >= 2:
            served = (stored.black_ms if mover == "b" else stored.white_ms) / 1000
            for watcher in pages.values():
                shown = clock_seconds(watcher.locator(f"#clock-{mover}").inner_text())
                assert abs(shown - served) <= 1.0, (ply, mover, shown, served)
        for colour, watcher in pages.items():
            other = "w" if colour == "b" else "b"
            check_game_page(watcher, mine=colour, theirs=other, label=f"3+2 ply {ply}")
    white.screenshot(path=str(screenshot_dir() / "game-3+2-1366x768-white.png"))
    assert open_page.problems == []
