"""A live three-player table through a real browser: three players in three Chromium contexts.

One player creates a table from the lobby (/tables/) with a short clock, the two others join from
the lobby, and all three play by clicking on the board (a short line to a push-off found with
the pure engine, ``games.engine.multi``) while every page follows over its WebSocket. Then one
seat lets its clock run out. The pages wait for the server's word over their sockets and read
nothing, and the test checks (in the database, which a read through the API would change) that
the deadline has passed with the game still on before it starts the background worker, whose
flag sweep (``multiplayer.tasks.sweep_flags``) then ends the game. The worker is the production one when the suite runs
in the production shape (``DATABASE_URL`` on PostgreSQL and ``REDIS_URL``): a real Celery worker
consuming from Redis, with the test sending the sweep every half second as beat would. In the
embedded default (SQLite, no Redis) it is the embedded default's worker: the in-process runner
of ``core.jobs``, running the beat schedule. All three pages then show the final
places, and the finished game replays to its final position, on the page and from its record.
"""

from __future__ import annotations

import re
import threading
from collections import deque
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from games.engine.board import CELL_NAMES
from games.engine.multi import MultiPosition, apply_multi_move, three_player_start
from games.engine.multi_record import read_multi_record
from multiplayer.models import Table
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import cell, page_opener
from tests.conftest import PASSWORD, production_wiring_missing
from tests.support import wait_for

SWEEP_TASK = "multiplayer.tasks.sweep_flags"
SCREENSHOTS = "/tmp/sumito-tables-{}.png"
BASE_MINUTES = 0.5  # the short clock of the table: 30 s each
FLAG_TIMEOUT_SECONDS = BASE_MINUTES * 60 + 30
NAMES = ("ann", "bob", "cat")
COLOUR_NAME = {"b": "Black", "w": "White", "r": "Red"}


# --- a short line to a push-off, found with the pure engine ---------------------------------------


def _hex_distance(a: str, b: str) -> int:
    dr = (ord(b[0]) - ord(a[0]), int(b[1]) - int(a[1]))
    return max(abs(dr[0]), abs(dr[1])) if dr[0] * dr[1] >= 0 else abs(dr[0]) + abs(dr[1])


DISTANCE = {(a, b): _hex_distance(a, b) for a in CELL_NAMES for b in CELL_NAMES}
WAITING_DISTANCE = 3


def waiting_move(position: MultiPosition, pusher: str):
    """A move of the colour to move that keeps out of the pusher's way: the first legal move
    (in the engine's order) that pushes nothing and whose marbles stay at least
    ``WAITING_DISTANCE`` cells from every marble of the pusher; else any move that pushes
    nothing."""
    targets = position.cells(pusher)
    fallback = None
    for move in position.legal_moves():
        if move.pushed:
            continue
        cells = (*move.marbles, *move.destinations)
        if all(DISTANCE[c, t] >= WAITING_DISTANCE for c in cells for t in targets):
            return move
        fallback = fallback or move
    return fallback


def push_off_line(pusher: str = "b", max_rounds: int = 4) -> tuple[str, ...]:
    """The shortest line from the three-player start whose last move, by ``pusher``, pushes a
    marble off, when the two others make waiting moves. A search over every move of the pusher
    (breadth first, positions seen once) with the others' replies fixed: a full search of all
    three players is 40 moves wide and would need millions of positions at seven plies."""
    start = three_player_start()
    queue = deque([(start, ())])
    seen = {start}
    while queue:
        position, line = queue.popleft()
        if len(line) // 3 >= max_rounds:
            continue
        for move in position.legal_moves():
            after, outcome = apply_multi_move(position, move)
            if outcome.ejected:
                return (*line, move.notation)
            played = [move.notation]
            for _other in range(2):
                reply = waiting_move(after, pusher)
                after, _ = apply_multi_move(after, reply)
                played.append(reply.notation)
            if after not in seen:
                seen.add(after)
                queue.append((after, (*line, *played)))
    raise AssertionError(f"no push-off within {max_rounds} rounds")


def side_is_at_the_bottom(page, cells) -> bool:
    """Whether ``cells`` are drawn in the lower third of the page's board, nearest its bottom."""
    centres = page.locator("#board svg").evaluate(
        """(svg, names) => {
            const box = svg.getBoundingClientRect();
            return names.map((name) => {
                const cell = svg.querySelector(`[data-cell="${name}"]`).getBoundingClientRect();
                return (cell.top + cell.height / 2 - box.top) / box.height;
            });
        }""",
        sorted(cells),
    )
    return sum(centres) / len(centres) > 0.65


def clicks_for(position: MultiPosition, notation: str) -> tuple[list[str], str]:
    """How a player plays ``notation`` on the page: the marbles to select, then a cell to click
    that only this move of those marbles reaches (an in-line move's leading destination, or a
    broadside's destination that no other broadside of the same marbles shares)."""
    moves = position.legal_moves()
    move = next(m for m in moves if m.notation == notation)
    if move.kind == "inline":
        return list(move.marbles), move.destinations[-1]
    siblings = [m for m in moves if set(m.marbles) == set(move.marbles) and m is not move]
    for target in move.destinations:
        if not any(
            target in (s.destinations if s.kind == "broadside" else s.destinations[-1:])
            for s in siblings
        ):
            return list(move.marbles), target
    raise AssertionError(f"{notation}: every destination is shared; the page would ask which way")


# --- the worker that adjudicates flags ----------------------------------------------------------


@contextmanager
def flag_worker():
    """Run the background worker that sweeps flags until the block ends (see the module
    docstring for which worker); yields a description of it for the report."""
    assert any(entry["task"] == SWEEP_TASK for entry in settings.CELERY_BEAT_SCHEDULE.values()), (
        f"{SWEEP_TASK} is not in CELERY_BEAT_SCHEDULE: nothing would sweep the tables' flags"
    )
    with ExitStack() as stack:
        if production_wiring_missing() is None:
            from celery.contrib.testing.worker import start_worker

            from abalone_site.celery import app
            from core.jobs import registered_task

            app.loader.import_default_modules()
            app.control.purge()  # drop messages left in the broker by earlier runs
            stack.enter_context(
                start_worker(
                    app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10
                )
            )
            sweep = registered_task(SWEEP_TASK)
            stop = threading.Event()

            def beat():  # what the one Celery beat does with the schedule's sweep
                while not stop.wait(0.5):
                    sweep.delay()

            sender = threading.Thread(target=beat, name="test-beat", daemon=True)
            sender.start()
            stack.callback(sender.join, 5)
            stack.callback(stop.set)
            yield "a Celery worker through Redis"
        else:
            from core.jobs import InProcessRunner

            runner = InProcessRunner(settings.CELERY_BEAT_SCHEDULE)
            runner.start()
            stack.callback(runner.stop)
            yield "the embedded default's in-process runner"


# --- the pages --------------------------------------------------------------------------------------


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page in a fresh browser context on the ASGI server; the test fails
    on any uncaught script error or Content-Security-Policy refusal."""
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


def api_table(page, table_id: int) -> dict:
    response = page.request.get(f"/api/v1/tables/{table_id}/")
    assert response.ok, response.text()
    return response.json()


def seat_of(doc: dict, colour: str) -> dict:
    return next(seat for seat in doc["seats"] if seat["colour"] == colour)


def board_cells(page, colour: str) -> set[str]:
    return set(
        page.locator(f"#board .cell.{colour}").evaluate_all(
            "cells => cells.map((c) => c.dataset.cell)"
        )
    )


@pytest.mark.browser
def test_three_players_play_to_a_push_off_and_a_flag_the_worker_adjudicates(
    open_page, log_in, make_player
):
    line = push_off_line()
    for name in NAMES:
        make_player(name)
    ann, bob, cat = (log_in(open_page(), name, PASSWORD) for name in NAMES)

    # Ann creates a three-player table on a short clock from the lobby, and sits as Black.
    ann.goto("/tables/")
    ann.get_by_label("3, each for themselves").check()
    ann.get_by_label("Minutes each").fill(str(BASE_MINUTES))
    ann.get_by_label("Increment (seconds)").fill("0")
    ann.get_by_label("Marbles to win").fill("6")
    ann.get_by_label("Your colour").select_option("b")
    ann.get_by_role("button", name="Create table").click()
    expect(ann).to_have_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", ann.url).group(1))
    expect(ann.locator("#connection")).to_have_attribute("data-state", "live")
    expect(ann.locator("#turn")).to_have_text("Waiting for players: 2 of 3 seats open")

    # Bob and Cat find it in the lobby and join; the third seat starts the game.
    for name, page in (("bob", bob), ("cat", cat)):
        page.goto("/tables/")
        row = page.locator(f'#tables tr[data-table="{table_id}"]')
        expect(row).to_contain_text("waiting")
        page.screenshot(path=SCREENSHOTS.format(f"lobby-{name}"))
        row.get_by_role("button", name=f"Join table {table_id}").click()
        expect(page).to_have_url(re.compile(rf"/tables/{table_id}/$"))
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    doc = api_table(ann, table_id)
    assert doc["status"] == "started"
    by_colour = {
        seat["colour"]: {"ann": ann, "bob": bob, "cat": cat}[seat["user"]["username"]]
        for seat in doc["seats"]
    }
    assert by_colour["b"] is ann
    pages = (ann, bob, cat)
    for page in pages:  # Ann's page learnt of the start over its socket
        expect(page.locator("#turn")).to_have_text(
            re.compile(r"^(Your turn|Black \(ann\) to move)$")
        )
    # Each player sees their own side at the bottom: the board turned for their seat.
    start = three_player_start()
    for colour, page in by_colour.items():
        expect(page.locator("#board")).to_have_attribute(
            "data-turn", {"b": "0", "w": "240", "r": "120"}[colour]
        )
        assert side_is_at_the_bottom(page, start.cells(colour)), colour
    page.screenshot(path=SCREENSHOTS.format("turned-board"), full_page=True)

    # They play the line by clicking; every page follows each move live.
    position = three_player_start()
    for ply, notation in enumerate(line, start=1):
        mover = by_colour[position.side_to_move]
        expect(mover.locator("#turn")).to_have_text("Your turn")
        marbles, target = clicks_for(position, notation)
        for name in marbles:
            cell(mover, name).click()
            expect(cell(mover, name)).to_have_class(re.compile(r"\bselected\b"))
        expect(cell(mover, target)).to_have_class(re.compile(r"\btarget\b"))
        cell(mover, target).click()
        position, outcome = apply_multi_move(position, notation)
        for page in pages:
            expect(page.locator(f'#moves [data-ply="{ply}"]')).to_contain_text(notation)
        assert (outcome.ejected is not None) == (ply == len(line))

    # The last move pushed a marble off: every page counts it for the pusher.
    pusher = seat_of(api_table(ann, table_id), "b")
    assert pusher["pushed_off"] == 1
    for page in pages:
        expect(page.locator(f"#pushed-{pusher['index']} .pushed-count")).to_have_text("1")
        expect(page.locator(f'#moves [data-ply="{len(line)}"]')).to_have_class(
            re.compile(r"\bpushed-off\b")
        )
        assert board_cells(page, "b") == set(position.cells("b"))
    ann.screenshot(path=SCREENSHOTS.format("push-off"), full_page=True)

    # The next seat lets its clock run out; the pages show zero and wait for the server.
    flagging = position.side_to_move
    doc = api_table(ann, table_id)
    loser = seat_of(doc, flagging)
    assert doc["deadline"] is not None and doc["side_to_move"] == flagging
    for page in pages:
        expect(page.locator(f"#clock-{loser['index']}")).to_have_class(re.compile(r"\bactive\b"))
    expect(by_colour[flagging].locator(f"#clock-{loser['index']}")).to_have_text(
        "0:00.0", timeout=FLAG_TIMEOUT_SECONDS * 1000
    )
    # Read without adjudicating (an API read would adjudicate a fallen flag): the deadline has
    # passed and the game still runs, so what ends it next is the worker.
    table = Table.objects.get(pk=table_id)
    assert wait_for(lambda: timezone.now() > table.flag_deadline, timeout=5)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    with flag_worker():
        for page in pages:
            expect(page.locator("#result")).to_be_visible(timeout=20_000)
            expect(page.locator("#result")).to_contain_text(
                f"{COLOUR_NAME[flagging]} ran out of time"
            )
    final = api_table(ann, table_id)
    assert (final["status"], final["termination"]) == ("finished", "time")
    places = {entry["colour"]: entry["place"] for entry in final["result"]}
    (second,) = (c for c in "bwr" if c not in ("b", flagging))
    assert places == {"b": 1, second: 2, flagging: 3}
    for page in pages:
        for colour, place in places.items():
            seat = seat_of(final, colour)
            expect(page.locator(f"#place-{seat['index']}")).to_have_text(
                {1: "1st place", 2: "2nd place", 3: "3rd place"}[place]
            )
        expect(page.locator("#resign")).to_be_hidden()
        expect(page.locator("#move-form")).to_be_hidden()
    for name, page in zip(NAMES, pages, strict=True):
        page.screenshot(path=SCREENSHOTS.format(f"over-{name}"), full_page=True)

    # The record replays: on the page from the start to the final position ...
    watcher = cat
    expect(watcher.locator("#replay")).to_be_visible()
    watcher.get_by_role("button", name="Start", exact=True).click()
    expect(watcher.locator("#board")).to_have_attribute("data-position", final["positions"][0])
    assert board_cells(watcher, "w") == set(three_player_start().cells("w"))
    for ply in range(1, len(line) + 1):
        watcher.get_by_role("button", name="Forward", exact=True).click()
        expect(watcher.locator("#board")).to_have_attribute("data-ply", str(ply))
    expect(watcher.locator("#board")).to_have_attribute("data-position", final["position"])
    for colour in "bwr":
        assert board_cells(watcher, colour) == set(position.cells(colour))
    watcher.screenshot(path=SCREENSHOTS.format("replayed"), full_page=True)

    # ... and from the downloaded record, which the engine's reader plays to the same end.
    with watcher.expect_download() as download:
        watcher.get_by_role("link", name="Download the record").click()
    headers, game = read_multi_record(Path(download.value.path()).read_text(encoding="utf-8"))
    assert tuple(game.notations) == line
    assert game.position.to_string() == final["position"]
    assert (headers["Termination"], headers["Out"]) == ("time", flagging)
    assert headers["Players"] == ", ".join(seat["user"]["username"] for seat in final["seats"])


def test_a_table_from_a_pasted_start_position_and_a_bad_one_refused_on_the_form(
    open_page, log_in, make_player
):
    make_player("dee")
    page = log_in(open_page(), "dee", PASSWORD)
    page.goto("/tables/")
    start = page.get_by_label("Start position (optional)")
    page.get_by_label("Place the marbles first").check()
    expect(start).to_be_disabled()  # placement starts from an empty board
    page.get_by_label("Place the marbles first").uncheck()
    start.fill("b|b2,c3|e5|a1|i9")  # four colours at a three-player table
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#create-error")).to_have_text(
        "The start position has 4 colours; a 3-player table needs 3."
    )
    assert not Table.objects.exists()
    start.fill("b|b2,c3|e5,e6|a1")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get()
    assert table.start_position == table.position == "b|b2,c3|e5,e6|a1"
    expect(page.locator("#turn")).to_have_text("Waiting for players: 2 of 3 seats open")
    page.screenshot(path=SCREENSHOTS.format("custom-start"), full_page=True)


@pytest.mark.browser
def test_a_table_move_whose_event_was_lost_is_read_when_the_socket_stays_quiet(
    open_page, log_in, make_player
):
    """Bob's move is committed by a web host that dies before it publishes the table's event
    (bench/hosts.py found it for games). Ann's page, whose socket on a host that lives stayed
    open, sees no gap; after a quiet spell it reads the table again and shows the move.
    Browser clocks are Playwright's, moved on by the test."""
    import contextlib
    from unittest import mock

    from multiplayer.services import table_create, table_join, table_move
    from tests.browser.pages import outside_the_event_loop

    ann, bob, cat = (make_player(name) for name in NAMES)
    now = timezone.now()
    table = outside_the_event_loop(
        table_create, creator=ann, players=3, base_seconds=600, colour="b", now=now
    )
    for user, colour in ((bob, "w"), (cat, "r")):
        outside_the_event_loop(table_join, table_id=table.pk, user=user, colour=colour, now=now)
    page = log_in(open_page(width=1366, height=768), "ann", PASSWORD)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    reads: list[str] = []
    page.on(
        "request",
        lambda r: reads.append(r.url) if r.method == "GET" and "/api/v1/tables/" in r.url else None,
    )
    page.clock.install()
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")

    position = three_player_start()
    for ply, user in enumerate((ann, bob)):
        notation = next(m for m in position.legal_moves() if not m.pushed).notation
        with contextlib.ExitStack() as stack:
            if user is bob:  # his host dies after the commit: the event is never sent
                stack.enter_context(mock.patch("multiplayer.events.after_commit"))
            outside_the_event_loop(
                table_move,
                table_id=table.pk,
                user=user,
                move=notation,
                expected_ply=ply,
                now=timezone.now(),
            )
        if user is ann:
            expect(page.locator('#moves [data-ply="1"]')).to_contain_text(notation)
        position, _outcome = apply_multi_move(position, notation)
    assert Table.objects.get(pk=table.pk).ply == 2

    page.wait_for_timeout(500)
    expect(page.locator('#moves [data-ply="2"]')).to_have_count(0)
    read_before = len(reads)
    page.clock.fast_forward(10_500)  # ten seconds of quiet: the page reads the table
    expect(page.locator('#moves [data-ply="2"]')).to_have_count(1)
    assert len(reads) == read_before + 1
    expect(page.locator("#turn")).to_have_text(re.compile(r"^Red \(cat\) to move$"))
    page.screenshot(path=SCREENSHOTS.format("lost-event-read"), full_page=True)
    assert problems == []
