"""The analysis board on a game, as lichess's (issue 23): from the finished game's page, one
click opens its moves on the board with the evaluation bar and the game's chart beside it; the
arrow keys walk the moves, a move tried is kept as a variation beside the game's, the address
keeps the game, the ply and the moves tried (a reload or a shared link shows the same), a click
on the chart or on a drop goes to that ply. The board and the bar fit the screens players use,
light and dark; screenshots in ``SCREENSHOT_DIR``.
"""

from __future__ import annotations

import re
import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from analysis.models import Analysis
from analysis.services import analysis_request
from games import engine
from games.models import Game
from games.options import GameOptions
from games.services import game_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.browser.site_pages import PHONE, screenshot_dir
from tests.browser.test_analysis_browser import PLIES, analysis_worker, finished_game
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1280, 720), (1366, 768), (1440, 900), (1920, 1080)]


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


def analysed(game: Game, user) -> dict:
    """The game's analysis, run by the background worker to the end; its evaluations by ply."""
    with analysis_worker():
        analysis = outside_the_event_loop(
            analysis_request, user=user, now=timezone.now(), game_id=game.pk
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            analysis = outside_the_event_loop(Analysis.objects.get, pk=analysis.pk)
            if analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
                break
            time.sleep(0.2)
    assert analysis.status == Analysis.Status.DONE, analysis.error
    return analysis.result


def game_positions(game: Game) -> list[str]:
    """The position after each ply, the start first."""
    moves = outside_the_event_loop(
        lambda: list(game.moves.order_by("ply").values_list("position_after", flat=True))
    )
    return [game.start_position, *moves]


def ply_shown(page) -> int:
    return int(page.locator("#board").get_attribute("data-ply"))


def test_a_finished_game_opens_on_the_board_and_is_walked_tried_and_shared(
    open_page, log_in, make_player
):
    ann, bob = make_player("ann"), make_player("bob")
    game = outside_the_event_loop(finished_game, black=ann, white=bob)
    result = analysed(game, ann)
    scores = {entry["ply"]: entry["score"] for entry in result["evaluations"]}
    positions = game_positions(game)
    page = log_in(open_page(width=1366, height=768), "ann", PASSWORD)

    # The finished game's page leads to its analysis.
    page.goto(f"/games/{game.pk}/")
    link = page.get_by_role("link", name="Analyse this game")
    expect(link).to_be_visible()
    link.click()
    expect(page).to_have_url(re.compile(rf"/analysis/\?game={game.pk}&ply={PLIES}$"))
    root = page.locator("#analysis-board")
    expect(root).to_have_attribute("data-ready", "true")
    board, bar = page.locator("#board"), page.locator("#eval-bar")
    expect(board).to_have_attribute("data-position", positions[PLIES])
    expect(page.locator("#from-game")).to_contain_text(f"Game {game.pk}")
    # the game's moves are the main line, the last one current
    expect(page.locator("#tree .game-move")).to_have_count(PLIES)
    expect(page.locator('#tree [aria-current="step"]')).to_have_attribute("data-ply", str(PLIES))
    # the bar shows the game's analysis at this ply, the chart's cursor is on it
    expect(bar).to_have_attribute("data-score", str(scores[PLIES]))
    expect(page.locator("#chart svg .point")).to_have_count(PLIES + 1)
    expect(page.locator("#chart svg .cursor")).to_have_attribute("visibility", "visible")
    page.screenshot(path=str(screenshot_dir() / "analysis-board-game-1366x768.png"))

    # The keys walk the game: Home to the start, then two moves on.
    page.keyboard.press("Home")
    expect(board).to_have_attribute("data-ply", "0")
    expect(board).to_have_attribute("data-position", positions[0])
    expect(page).to_have_url(re.compile(rf"\?game={game.pk}&ply=0$"))
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "1")
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "2")
    expect(board).to_have_attribute("data-position", positions[2])
    expect(bar).to_have_attribute("data-score", str(scores[2]))

    # A move other than the game's, tried from the list: a variation beside the game's move.
    game_next = outside_the_event_loop(lambda: game.moves.get(ply=3).notation)
    at_two = engine.Position.from_string(positions[2])
    other = sorted(m.notation for m in engine.legal_moves(at_two) if m.notation != game_next)[0]
    page.locator(f'#legal-moves button[data-move="{other}"]').click()
    after_other = engine.apply_move(at_two, other)[0].to_string()
    expect(board).to_have_attribute("data-position", after_other)
    expect(page).to_have_url(re.compile(rf"\?game={game.pk}&ply=2&moves={other}$"))
    expect(page.locator("#tree .variation .tried-move")).to_have_text([other])
    expect(page.locator("#tree .game-move")).to_have_count(PLIES)  # the game's line is kept
    # the bar does not show the game's score for a position the game did not reach
    expect(bar).to_have_attribute("data-known", "false")

    # Back, then on: the game's own move (the main line goes on), the variation still there.
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-position", positions[2])
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-position", positions[3])
    expect(page).to_have_url(re.compile(rf"\?game={game.pk}&ply=3$"))
    expect(page.locator("#tree .tried-move")).to_have_text([other])
    # a click on the variation's move goes back to it
    page.locator("#tree .tried-move").click()
    expect(board).to_have_attribute("data-position", after_other)

    # The link keeps the game, the ply and the move tried: a reload (a friend's browser) shows
    # the same position, with the game's line beside it.
    page.get_by_role("button", name="Share").click()
    shared = page.locator("#share-link").input_value()
    assert shared.endswith(f"/analysis/?game={game.pk}&ply=2&moves={other}"), shared
    friend = open_page(width=1366, height=768)
    friend.goto(shared)
    expect(friend.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(friend.locator("#board")).to_have_attribute("data-position", after_other)
    expect(friend.locator("#tree .game-move")).to_have_count(PLIES)
    expect(friend.locator("#tree .tried-move")).to_have_text([other])

    # A drop, and a click on the chart, go to their ply.
    drop = result["drops"][0]
    page.locator(f'#drops button[data-ply="{drop}"]').click()
    expect(board).to_have_attribute("data-ply", str(drop))
    expect(board).to_have_attribute("data-position", positions[drop])
    chart = page.locator("#chart svg")
    found = chart.bounding_box()
    chart.click(position={"x": found["width"] - 15, "y": found["height"] / 2})
    expect(board).to_have_attribute("data-ply", str(PLIES))
    expect(page).to_have_url(re.compile(rf"\?game={game.pk}&ply={PLIES}$"))


def test_a_move_in_the_address_that_is_not_legal_stops_the_board_before_it(open_page, make_player):
    ann, bob = make_player("ann"), make_player("bob")
    game = outside_the_event_loop(finished_game, black=ann, white=bob)
    positions = game_positions(game)
    page = open_page()  # a visitor may study a finished game
    page.goto(f"/analysis/?game={game.pk}&ply=1&moves=a1a1")
    expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board")).to_have_attribute("data-position", positions[1])
    expect(page.locator("#status")).to_have_text(
        "a1a1 is not a legal move there; the board stops before it."
    )
    expect(page.locator("#status")).to_have_class(re.compile(r"\berror\b"))
    # a visitor is offered to log in to have the game analysed
    expect(page.locator("#login-to-analyse-game")).to_be_visible()


def test_a_game_still_being_played_is_not_opened_on_the_board(open_page, make_player):
    ann, bob = make_player("ann"), make_player("bob")
    game = outside_the_event_loop(
        game_create,
        black=ann,
        white=bob,
        options=GameOptions(None, 0, 6, "standard", False),
        now=timezone.now(),
    )
    page = open_page()
    page.goto(f"/analysis/?game={game.pk}")
    expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(page.locator("#game-error")).to_have_text(
        f"Game {game.pk} is not over, or there is no such game."
    )
    standard = engine.start_position("standard").to_string()
    expect(page.locator("#board")).to_have_attribute("data-position", standard)
    expect(page.locator("#tree .move")).to_have_count(0)


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def inside_window(page, selector: str, label: str) -> dict:
    found = box(page, selector)
    size = page.viewport_size
    assert found["x"] >= -0.5 and found["y"] >= -0.5, (label, selector, found)
    assert found["x"] + found["width"] <= size["width"] + 0.5, (label, selector, found)
    assert found["y"] + found["height"] <= size["height"] + 0.5, (label, selector, found)
    return found


def test_the_analysis_board_fits_every_screen_light_and_dark(open_page, make_player):
    ann, bob = make_player("ann"), make_player("bob")
    game = outside_the_event_loop(finished_game, black=ann, white=bob)
    analysed(game, ann)
    shots = screenshot_dir()
    for scheme in ("light", "dark"):
        for width, height in SCREENS:
            label = f"{width}x{height} {scheme}"
            page = open_page(width=width, height=height)
            page.emulate_media(color_scheme=scheme)
            page.goto(f"/analysis/?game={game.pk}&ply=4")
            expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
            board = inside_window(page, "#board", label)
            bar = inside_window(page, "#eval-bar", label)
            panel = inside_window(page, ".analysis-panel", label)
            inside_window(page, "#tree", label)
            # the bar beside the board, as tall; the panel beside them, no taller than the board
            assert bar["x"] + bar["width"] <= board["x"] + 0.5, (label, bar, board)
            assert abs(bar["height"] - board["height"]) <= 1, (label, bar, board)
            assert panel["x"] >= board["x"] + board["width"] - 0.5, (label, panel, board)
            assert panel["height"] <= board["height"] + 1, (label, panel, board)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), label
            page.screenshot(path=str(shots / f"analysis-board-{width}x{height}-{scheme}.png"))
            page.close()
        phone = open_page(**PHONE)
        phone.emulate_media(color_scheme=scheme)
        phone.goto(f"/analysis/?game={game.pk}&ply=4")
        expect(phone.locator("#analysis-board")).to_have_attribute("data-ready", "true")
        board = inside_window(phone, "#board", f"phone {scheme}")
        bar = box(phone, "#eval-bar")
        assert bar["x"] + bar["width"] <= board["x"] + 0.5, ("phone", bar, board)
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(
            path=str(shots / f"analysis-board-phone-390x844-{scheme}.png"), full_page=True
        )
        phone.close()
