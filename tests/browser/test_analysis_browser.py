"""The analysis board in a real browser: a finished game analysed move by move, then a position
from its chart tried and searched.

A game is played through ``games.services`` (Black's first move lets White push a black marble
off at once, and each side then plays its first legal move: the analysis finds big drops) and
ended by a resignation. From
its replay page a player asks for "Analyse this game"; the background worker evaluates every
ply and the result page draws the chart: one point per evaluation, a red dot for each drop.
The worker is the production one when the suite runs in the production shape (``DATABASE_URL``
on PostgreSQL and ``REDIS_URL``): a real Celery worker consuming from Redis; in the embedded
default it is the in-process runner of ``core.jobs``, the one ``manage.py serve`` starts.
Then the biggest drop's position opens on the analysis board: a move is tried by clicking its
marbles and its destination, taken back, one is tried from the list, and the engine's search of
the position arrives line by line.
"""

from __future__ import annotations

import re
from contextlib import ExitStack, contextmanager

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from analysis.services import RUN_TASK, analysis_request
from core import jobs
from games import engine
from games import services as game_services
from games.models import Game
from games.options import GameOptions
from tests.archive.support import PUSH_OPENING, notations_for
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import cell, clicks_for, outside_the_event_loop, page_opener
from tests.conftest import PASSWORD, production_wiring_missing

SCREENSHOTS = "/tmp/sumito-analysis-{}.png"
PLIES = 10
ANALYSIS_TIMEOUT_MS = 60_000
SCORE = re.compile(r"^([+-]\d+\.\d\d|0\.00|wins in \d+|loses in \d+)$")


@contextmanager
def analysis_worker():
    """Run the background worker that runs analyses until the block ends (see the module
    docstring for which one); yields its description."""
    with ExitStack() as stack:
        if production_wiring_missing() is None:
            from celery.contrib.testing.worker import start_worker

            from abalone_site.celery import app

            app.loader.import_default_modules()
            assert RUN_TASK in app.tasks
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


def finished_game(black, white) -> Game:
    """A casual game played through the services and resigned by White."""
    now = timezone.now()
    game = game_services.game_create(
        black=black, white=white, options=GameOptions(None, 0, 6, "belgian", False), now=now
    )
    for ply, notation in enumerate(notations_for(PLIES, PUSH_OPENING)):
        game_services.game_move_apply(
            game_id=game.pk,
            player=black if ply % 2 == 0 else white,
            move=notation,
            expected_ply=ply,
            now=now,
        )
    game_services.game_resign(game_id=game.pk, player=white, now=now)
    return Game.objects.get(pk=game.pk)


def api_get(page, url: str) -> dict:
    response = page.request.get(url)
    assert response.ok, response.text()
    return response.json()


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page on the ASGI server; the test fails on any uncaught script error
    or Content-Security-Policy refusal."""
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


@pytest.mark.browser
def test_a_finished_game_is_charted_and_a_position_from_it_tried_and_analysed(
    readers_never_block_the_worker, open_page, log_in, make_player
):
    ann, bob = make_player("ann"), make_player("bob")
    game = outside_the_event_loop(finished_game, black=ann, white=bob)
    assert (game.status, game.termination, game.ply) == ("finished", "resignation", PLIES)
    page = log_in(open_page(), "ann", PASSWORD)

    # The replay page offers the analysis of the game, and of the position shown.
    page.goto(f"/archive/games/{game.pk}/")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    link = page.get_by_role("link", name="Analyse this position")
    expect(link).to_have_attribute("href", f"/analysis/?game={game.pk}&ply={PLIES}")
    page.get_by_role("button", name="Back", exact=True).click()
    expect(link).to_have_attribute("href", f"/analysis/?game={game.pk}&ply={PLIES - 1}")
    page.screenshot(path=SCREENSHOTS.format("replay"), full_page=True)

    with analysis_worker():
        page.get_by_role("button", name="Analyse this game").click()
        expect(page).to_have_url(re.compile(r"/analysis/\d+/$"))
        result = page.locator("#analysis-result")
        expect(result).to_have_attribute("data-status", "done", timeout=ANALYSIS_TIMEOUT_MS)
    analysis_id = int(re.search(r"/analysis/(\d+)/$", page.url).group(1))
    doc = api_get(page, f"/api/v1/analysis/{analysis_id}/")
    assert (doc["kind"], doc["game"], doc["status"]) == ("game", game.pk, "done")
    evaluations = doc["evaluations"]
    assert [entry["ply"] for entry in evaluations] == list(range(PLIES + 1))
    assert doc["drops"], "the game is a string of blunders: it must have big drops"

    # The chart: one point per ply on the line, a red dot on each drop, the drops listed.
    chart = page.locator("#chart svg")
    expect(chart.locator(".point")).to_have_count(len(evaluations))
    line_points = [
        tuple(map(float, point.split(",")))
        for point in chart.locator(".eval-line").get_attribute("points").split()
    ]
    assert len(line_points) == len(evaluations)
    assert [x for x, _ in line_points] == sorted({x for x, _ in line_points})  # ply by ply
    # Black's view, cut at +-5 marbles, up is better for Black: a higher score is never drawn
    # lower, and strictly higher once the two are apart by more than the chart's resolution
    # (points are written to 0.1 of a unit; the plot is 198 units for 10 marbles, so scores
    # closer than ~10 thousandths of a marble may share a height).
    clamped = [max(-5000, min(5000, entry["score"])) for entry in evaluations]
    units_per_score = 198 / 10000
    for (_, y_a), score_a in zip(line_points, clamped, strict=True):
        for (_, y_b), score_b in zip(line_points, clamped, strict=True):
            if score_a > score_b:
                assert y_a <= y_b
                if (score_a - score_b) * units_per_score >= 0.15:
                    assert y_a < y_b
    drop_plies = chart.locator(".drop").evaluate_all(
        "dots => dots.map((d) => Number(d.dataset.ply))"
    )
    assert drop_plies == doc["drops"]
    drops = page.locator("#drops li a")
    expect(drops).to_have_count(len(doc["drops"]))
    by_ply = {entry["ply"]: entry for entry in evaluations}
    first = by_ply[doc["drops"][0]]
    expect(drops.first).to_contain_text(f"ply {first['ply']} ({first['move']}, ")
    page.screenshot(path=SCREENSHOTS.format("chart"), full_page=True)

    # A click on the chart picks a ply and links to its position.
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] - 20, "y": box["height"] / 2})
    expect(page.locator("#chart-pick")).to_have_attribute("data-ply", str(PLIES))

    # The biggest drop opens the game on the analysis board, at that ply.
    drops.first.click()
    expect(page).to_have_url(re.compile(rf"/analysis/\?game={game.pk}&ply={first['ply']}$"))
    board_page = page.locator("#analysis-board")
    expect(board_page).to_have_attribute("data-ready", "true")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-position", first["position"])
    position = engine.Position.from_string(first["position"])
    legal = sorted(m.notation for m in engine.legal_moves(position))
    expect(page.locator("#legal-moves button")).to_have_count(len(legal))
    assert page.locator("#legal-moves button").all_inner_texts() == legal

    # A move tried by clicking its marbles and a destination, then taken back.
    tried = next(m for m in engine.legal_moves(position) if m.kind == engine.BROADSIDE)
    marbles, target = clicks_for(position, tried.notation)
    for name in marbles:
        cell(page, name).click()
        expect(cell(page, name)).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(page, target)).to_have_class(re.compile(r"\btarget\b"))
    cell(page, target).click()
    after, _ = engine.apply_move(position, tried.notation)
    expect(board).to_have_attribute("data-position", after.to_string())
    expect(page.locator("#tree .tried-move")).to_have_text([tried.notation])
    expect(page).to_have_url(
        re.compile(re.escape(f"?game={game.pk}&ply={first['ply']}&moves={tried.notation}") + "$")
    )
    for name in tried.destinations:
        expect(cell(page, name)).to_have_attribute("data-marble", position.side_to_move)
    # Back: the game's position again, the move tried kept as a variation.
    page.get_by_role("button", name="Back", exact=True).click()
    expect(board).to_have_attribute("data-position", first["position"])
    expect(page.locator("#tree .tried-move")).to_have_text([tried.notation])
    expect(page).to_have_url(re.compile(rf"\?game={game.pk}&ply={first['ply']}$"))

    # One from the list, kept in the address; Share shows the link to it.
    from_list = legal[0]
    page.locator(f'#legal-moves button[data-move="{from_list}"]').click()
    shown = engine.apply_move(position, from_list)[0].to_string()
    expect(board).to_have_attribute("data-position", shown)
    page.get_by_role("button", name="Share").click()
    expect(page.locator("#share-link")).to_have_value(
        re.compile(
            re.escape(f"/analysis/?game={game.pk}&ply={first['ply']}&moves={from_list}") + "$"
        )
    )

    # The engine searches the position shown; its lines arrive depth by depth, pushed through
    # the player's socket (the page's "sumito:live" events), not only read by polling.
    page.evaluate(
        """() => {
            window.analysisPushes = [];
            document.addEventListener("sumito:live", (event) => {
                if (event.detail.type === "analysis") {
                    window.analysisPushes.push(event.detail.analysis.lines.length);
                }
            });
        }"""
    )
    page.locator("#seconds").select_option("1")
    with analysis_worker():
        page.get_by_role("button", name="Analyse", exact=True).click()
        expect(page.locator("#engine")).to_have_attribute(
            "data-status", "done", timeout=ANALYSIS_TIMEOUT_MS
        )
    rows = page.locator("#lines-body tr")
    expect(rows.first).to_be_visible()
    pushes = page.evaluate("() => window.analysisPushes")
    assert len(pushes) >= 3 and pushes == sorted(pushes) and pushes[-1] == rows.count(), pushes
    depths = rows.evaluate_all("rows => rows.map((r) => Number(r.dataset.depth))")
    assert depths == sorted(depths, reverse=True) and depths[-1] == 1
    for score in rows.locator(".score").all_inner_texts():
        assert SCORE.match(score), score
    # the evaluation bar shows the deepest score, turned to Black's side
    deepest = int(rows.first.locator(".score").get_attribute("data-score"))
    side = engine.Position.from_string(shown).side_to_move
    expect(page.locator("#eval-bar")).to_have_attribute(
        "data-score", str(deepest if side == engine.BLACK else -deepest)
    )
    best = rows.first.locator(".pv").inner_text().split()[0]
    assert best in {m.notation for m in engine.legal_moves(engine.Position.from_string(shown))}
    page.get_by_role("button", name="Show best move").click()
    best_move = engine.parse_move(engine.Position.from_string(shown), best)
    best_cells = page.locator("#board .cell.best").evaluate_all(
        "cells => cells.map((c) => c.dataset.cell)"
    )
    assert sorted(best_cells) == sorted(best_move.marbles)
    assert best_move.destinations[-1] in page.locator("#board .cell.best-to").evaluate_all(
        "cells => cells.map((c) => c.dataset.cell)"
    )
    expect(page.get_by_role("button", name="Hide best move")).to_be_visible()
    page.screenshot(path=SCREENSHOTS.format("board"), full_page=True)

    # A position pasted in the box: refused with the server's reason, or shown as a new start.
    text = page.get_by_label(re.compile(r"^Position \(side to move"))
    text.fill("b|a1,zz|i9")
    page.get_by_role("button", name="Show this position").click()
    expect(page.locator("#status")).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#status")).to_contain_text("The position is not valid")
    expect(board).to_have_attribute("data-position", shown)
    text.fill("standard")
    page.get_by_role("button", name="Show this position").click()
    standard = engine.start_position("standard").to_string()
    expect(board).to_have_attribute("data-position", standard)
    expect(page.locator("#legal-moves button")).to_have_count(44)
    expect(page.get_by_role("button", name="Back", exact=True)).to_be_disabled()
    expect(page.locator("#lines")).to_be_hidden()


@pytest.mark.browser
def test_a_position_analysis_page_and_the_board_for_a_visitor(
    readers_never_block_the_worker, open_page, make_player
):
    ann = make_player("ann")
    start = engine.start_position("belgian")
    page = open_page()  # a visitor: the result is public, the engine is for players
    with analysis_worker():
        analysis = outside_the_event_loop(
            analysis_request, user=ann, now=timezone.now(), position="belgian", seconds=1
        )
        page.goto(f"/analysis/{analysis.pk}/")
        expect(page.locator("#analysis-result")).to_have_attribute(
            "data-status", "done", timeout=ANALYSIS_TIMEOUT_MS
        )
    doc = api_get(page, f"/api/v1/analysis/{analysis.pk}/")
    rows = page.locator("#lines-body tr")
    expect(rows).to_have_count(len(doc["lines"]))
    assert rows.evaluate_all("rows => rows.map((r) => Number(r.dataset.depth))") == [
        line["depth"] for line in reversed(doc["lines"])
    ]
    expect(page.locator("#best-move")).to_have_text(f"Best move: {doc['best']}")
    page.screenshot(path=SCREENSHOTS.format("position"), full_page=True)

    page.get_by_role("link", name="Open on the analysis board").click()
    expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board")).to_have_attribute("data-position", start.to_string())
    expect(page.locator("#legal-moves button")).to_have_count(len(engine.legal_moves(start)))
    expect(page.locator("#login-to-analyse")).to_contain_text("Log in to let the engine analyse")
    expect(page.get_by_role("button", name="Analyse", exact=True)).to_have_count(0)
