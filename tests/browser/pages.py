"""Helpers shared by the browser tests of live pages (games, notifications, the home page)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from django.db import connections
from playwright.sync_api import expect

from games import engine
from tests.browser.conftest import TIMEOUT_MS


@contextmanager
def page_opener(browser, base_url: str, *, watch_problems: bool = False):
    """``make(width=, height=)`` is a page in a fresh browser context (own cookies) on
    ``base_url``; the contexts close on exit. With ``watch_problems`` every page's uncaught
    errors and Content-Security-Policy refusals are collected in ``make.problems``."""
    contexts = []
    problems: list[str] = []

    def make(*, width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=base_url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        if watch_problems:
            page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
            page.on(
                "console",
                lambda message: (
                    problems.append(f"{page.url}: {message.text}")
                    if "Content Security Policy" in message.text or "Refused to" in message.text
                    else None
                ),
            )
        return page

    make.problems = problems
    try:
        yield make
    finally:
        for context in contexts:
            context.close()


def errors_watched(problems: list[str], page):
    """``page``, its uncaught errors and console errors collected in ``problems``."""
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda m: problems.append(f"{page.url}: {m.text}") if m.type == "error" else None,
    )
    return page


def outside_the_event_loop(function, **kwargs):
    """Call a service in a thread of its own: its events go through the channel layer
    (``async_to_sync``), which refuses to run in the test thread, where Playwright's event loop
    runs; the thread closes its database connection when done."""

    def call():
        try:
            return function(**kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def in_view(page, locator) -> None:
    """The element lies across the viewport's width (nothing cut off at either side)."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def in_the_window(page, locator) -> None:
    """A person sees it without scrolling: visible, inside the viewport both ways."""
    expect(locator).to_be_visible()
    expect(locator).to_be_in_viewport()
    in_view(page, locator)


def clickable_move(position: engine.Position) -> str:
    """A legal move the board plays by clicks alone (no "which way?" to answer)."""
    for notation in sorted(move.notation for move in engine.legal_moves(position)):
        try:
            clicks_for(position, notation)
        except AssertionError:
            continue
        return notation
    raise AssertionError("no move is played by clicks alone")


def cell(page, name: str):
    """A cell of the game page's board."""
    return page.locator(f'#board [data-cell="{name}"]')


def move_at(page, ply: int):
    """A move of the game page's list."""
    return page.locator(f'#moves [data-ply="{ply}"]')


def clicks_for(position: engine.Position, notation: str) -> tuple[list[str], str]:
    """How a player plays ``notation`` on a two-player board: its marbles, then a cell only it
    reaches from them (an in-line move's leading destination, or a broadside's unshared
    destination), so the page plays it without asking which way."""
    moves = engine.legal_moves(position)
    move = next(m for m in moves if m.notation == notation)
    if move.kind == engine.INLINE:
        return list(move.marbles), move.destinations[-1]
    siblings = [m for m in moves if set(m.marbles) == set(move.marbles) and m is not move]
    for target in move.destinations:
        reached = (
            s.destinations if s.kind == engine.BROADSIDE else s.destinations[-1:] for s in siblings
        )
        if not any(target in cells for cells in reached):
            return list(move.marbles), target
    raise AssertionError(f"{notation}: every destination is shared")


def click_move(page, position: engine.Position, notation: str) -> None:
    """Play ``notation`` on the game page by clicking its marbles, then its destination."""
    from playwright.sync_api import expect

    marbles, target = clicks_for(position, notation)
    for name in marbles:
        cell(page, name).click()
        expect(cell(page, name)).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(page, target)).to_have_class(re.compile(r"\btarget\b"))
    cell(page, target).click()
