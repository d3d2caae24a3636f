"""A whole game against the computer in a real browser, the computer's moves made by a worker.

A player opens /play/computer/, chooses level 1 (the random mover), White, a ten-minute clock,
four marbles to win and the Belgian daisy, and starts. The computer, Black, moves first. The
player plays every move by clicking on the board; the test chooses them with the pure engine
(a two-ply search of the position the page shows, checked against the API's), which pushes the
random mover's marbles off in a score of moves. Every answer of the computer is thought and
played by the background worker and reaches the page over its socket: a real Celery worker
consuming from Redis when the suite runs in the production shape (``DATABASE_URL`` on
PostgreSQL and ``REDIS_URL``), else the embedded default's in-process runner. The page shows
the result; the game is in the archive, casual, with no rating change anywhere, and the
player's public page lists it apart, under "Against the computer", not among the recent games.

Screenshots go to ``$SCREENSHOT_DIR`` (default ``/tmp``) as ``sumito-computer-*.png``.
"""

from __future__ import annotations

import os
import re
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from core import jobs
from games import computer, engine
from games.engine.search import Searcher
from games.models import Game
from ratings.models import PlayerRating, RatingChange
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import click_move, move_at, page_opener
from tests.conftest import PASSWORD, production_wiring_missing

SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp"))
MARBLES_TO_WIN = 4
#: The player's search: two plies, whatever the time it takes (a budget, not a limit).
SEARCH_DEPTH, SEARCH_SECONDS = 2, 60.0
#: The most moves the player makes before the test gives up (about ten are needed).
MOST_MOVES = 60
#: How long the page may wait for the computer's answer (the worker's round trip).
ANSWER_TIMEOUT_MS = 30_000


def screenshot(page, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"sumito-computer-{name}.png"), full_page=True)


@contextmanager
def computer_worker():
    """Run the background worker that plays the computer's moves until the block ends (see the
    module docstring for which one); yields its description."""
    with ExitStack() as stack:
        if production_wiring_missing() is None:
            from celery.contrib.testing.worker import start_worker

            from abalone_site.celery import app

            app.loader.import_default_modules()
            assert computer.MOVE_TASK in app.tasks
            app.control.purge()  # drop messages left in the broker by earlier runs
            stack.enter_context(
                start_worker(
                    app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10
                )
            )
            yield "a Celery worker through Redis"
        else:
            # The process-wide runner that ``enqueue`` hands jobs to, fresh for this test (no
            # periodic jobs) and put back afterwards.
            runner = jobs.InProcessRunner()
            saved, jobs._runner = jobs._runner, runner
            stack.callback(setattr, jobs, "_runner", saved)
            runner.start()
            stack.callback(runner.stop)
            yield "the embedded default's in-process runner"


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page on the ASGI server; the test fails on any uncaught script error
    or Content-Security-Policy refusal."""
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


def api_get(page, url: str) -> dict:
    response = page.request.get(url)
    assert response.ok, response.text()
    return response.json()


# The page has answered: the game is over, or it is the player's turn after ``ply`` moves.
TURN_OR_END = """(ply) => {
  if (!document.getElementById("result").hidden) return true;
  const played = document.querySelectorAll("#moves [data-ply]").length;
  return played === ply && document.getElementById("turn").textContent.startsWith("Your turn");
}"""


def board_position(page, side_to_move: str) -> engine.Position:
    """The position the page's board shows."""

    def cells(colour: str) -> list[str]:
        return page.locator(f"#board .cell.{colour}").evaluate_all(
            "cells => cells.map((c) => c.dataset.cell)"
        )

    return engine.Position.from_cells(side_to_move, cells("b"), cells("w"))


@pytest.mark.browser
def test_a_game_against_the_random_mover_played_to_the_end_in_the_page(
    readers_never_block_the_worker, open_page, log_in, make_player
):
    make_player("petra", display_name="Petra")
    page = log_in(open_page(), "petra", PASSWORD)

    with computer_worker():
        # The player chooses the computer's level, a colour and a short game, and starts it.
        page.goto("/play/computer/")
        page.get_by_label("Level").select_option("1")
        page.get_by_label("Your colour").select_option("white")
        page.get_by_label("Time control").select_option("rapid-10+0")
        page.get_by_label("Marbles to win").fill(str(MARBLES_TO_WIN))
        page.get_by_label("Start").select_option("belgian")
        screenshot(page, "form")
        page.get_by_role("button", name="Start the game").click()
        expect(page).to_have_url(re.compile(r"/games/\d+/$"))
        game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        game = Game.objects.select_related("black", "white").get(pk=game_id)
        assert computer.computer_level_of(game.black_id) == 1
        assert game.white.username == "petra"
        assert (game.marbles_to_win, game.start, game.rated) == (MARBLES_TO_WIN, "belgian", False)
        expect(page.locator("#board")).to_have_attribute("data-orientation", "w")

        # Black, the computer, opens; then the player answers each of its moves by clicking.
        searcher = Searcher(marbles_to_win=MARBLES_TO_WIN, seed=17)
        ply, my_moves, last_mine = 1, 0, None  # ply: the moves played at the player's turn
        while True:
            page.wait_for_function(TURN_OR_END, arg=ply, timeout=ANSWER_TIMEOUT_MS)
            if page.locator("#result").is_visible():
                break
            assert my_moves < MOST_MOVES, f"no result after {my_moves} moves of the player"
            position = board_position(page, engine.WHITE)
            state = api_get(page, f"/api/v1/games/{game_id}/")
            assert (state["status"], state["ply"]) == ("started", ply)
            assert engine.Position.from_string(state["position"]) == position
            if my_moves == 1:
                screenshot(page, "playing")
            found = searcher.search(position, seconds=SEARCH_SECONDS, max_depth=SEARCH_DEPTH)
            click_move(page, position, found.move.notation)
            expect(move_at(page, ply + 1)).to_have_text(found.move.notation)
            my_moves += 1
            last_mine, ply = ply + 1, ply + 2

    # The last move was the player's: the fourth black marble went off, and the page says so.
    result = page.locator("#result")
    expect(result).to_have_attribute("data-result", "0-1")
    expect(result.locator(".result-score")).to_have_text("0–1")
    expect(result.locator(".result-text")).to_have_text("White wins by marbles pushed off")
    expect(result.locator(".result-ratings")).to_have_text("")
    expect(page.locator("#score-w .score-count")).to_have_text(str(MARBLES_TO_WIN))
    expect(page.locator("#turn")).to_be_hidden()
    expect(page.locator("#move-form")).to_be_hidden()
    # No rematch offer to a program and no chat: "Play again", colours swapped, same level.
    again = page.locator("#play-again a").first
    expect(again).to_be_visible()
    expect(again).to_have_attribute("href", re.compile(r"level=1&colour=black"))
    expect(page.locator("#chat")).to_have_count(0)
    expect(move_at(page, last_mine)).to_have_class(re.compile(r"\bpushed-off\b"))
    expect(page.locator("#moves [data-ply]")).to_have_count(last_mine)
    screenshot(page, "over")
    final = api_get(page, f"/api/v1/games/{game_id}/")
    assert (final["status"], final["result"], final["termination"]) == (
        "finished",
        "0-1",
        "marbles",
    )
    assert final["ply"] == last_mine and final["pushed_off"]["black"] == MARBLES_TO_WIN

    # Unrated: no rating change for either side, and no rating for the player.
    assert not RatingChange.objects.filter(game_id=game_id).exists()
    assert not PlayerRating.objects.filter(user__username="petra").exists()

    # The archive has it, casual, and replays it.
    page.goto("/archive/?player=petra")
    row = page.locator(f'#archive-games tr[data-game="{game_id}"]')
    expect(row.locator(".result")).to_have_text("0-1")
    expect(row).to_contain_text("Sumito level 1")
    expect(row).to_contain_text("casual")
    screenshot(page, "archive")
    found = api_get(page, "/api/v1/archive/games/?player=petra")
    (entry,) = [g for g in found["results"] if g["id"] == game_id]
    assert (entry["rated"], entry["result"], entry["white"]) == (False, "0-1", "petra")
    row.get_by_role("link", name="replay").click()
    expect(page).to_have_url(re.compile(rf"/archive/games/{game_id}/$"))
    expect(page.locator("#result")).to_contain_text("White wins by marbles pushed off")
    expect(page.locator("#moves [data-ply]")).to_have_count(last_mine)
    expect(page.locator(".rating-change")).to_have_count(0)
    screenshot(page, "replay")

    # The player's page lists it under "Against the computer", not among the recent games.
    page.goto("/players/petra/")
    apart = page.locator("#computer-games")
    expect(apart.get_by_role("heading")).to_have_text("Against the computer")
    line = apart.locator(f'tr[data-game="{game_id}"]')
    expect(line).to_contain_text("Level 1")
    expect(line).to_contain_text("Win")
    expect(line.get_by_role("link", name=f"#{game_id}")).to_have_attribute(
        "href", f"/archive/games/{game_id}/"
    )
    expect(apart.locator(".computer-record")).to_have_text("1 W · 0 D · 0 L")
    expect(page.locator("#recent-games")).to_contain_text("No finished games.")
    expect(page.locator("#record .record-overall td")).to_have_text(["0", "0", "0", "0"])
    expect(page.locator("#ratings")).to_contain_text("No rated games yet.")
    screenshot(page, "profile")
