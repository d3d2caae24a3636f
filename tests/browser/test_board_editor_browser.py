"""Starts in a real browser: a custom position set up on the lobby's board editor becomes the
game's start, and a placement game is played by clicking empty cells.

Screenshots (looked at when the test was written): the lobby's editor, the game page that
starts from it, and a placement game in its phase.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import engine
from games.models import Challenge, Game
from games.options import GameOptions
from games.services import game_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import cell, move_at, outside_the_event_loop, page_opener
from tests.conftest import PASSWORD

EDITOR_SCREENSHOT = "/tmp/sumito-board-editor.png"
CUSTOM_GAME_SCREENSHOT = "/tmp/sumito-custom-start-game.png"
PLACEMENT_SCREENSHOT = "/tmp/sumito-placement-game.png"


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def editor_cell(page, name: str):
    return page.locator(f'.board-editor [data-cell="{name}"]')


def expected_position() -> str:
    """Standard, with Black's c4 moved to e5, White's g6 to d5, and White to move."""
    black = [c for c in engine.STANDARD_START.black_cells if c != "c4"] + ["e5"]
    white = [c for c in engine.STANDARD_START.white_cells if c != "g6"] + ["d5"]
    return engine.Position.from_cells("w", black, white).to_string()


@pytest.mark.browser
def test_a_position_set_up_on_the_editor_starts_the_game(open_page, log_in, make_player):
    make_player("edith")
    make_player("wanda")
    edith = log_in(open_page(), "edith", PASSWORD)
    edith.goto("/play/")
    text = edith.locator("#id_start_position")
    expect(edith.locator("#id_start")).to_have_value("standard")
    expect(text).to_be_hidden()
    expect(edith.locator(".board-editor")).to_be_hidden()

    edith.select_option("#id_start", "custom")
    expect(text).to_be_visible()
    expect(edith.locator(".board-editor")).to_be_visible()
    edith.get_by_role("button", name="Standard").click()
    expect(text).to_have_value(engine.STANDARD_START.to_string())
    for name, clicks in (("c4", 2), ("e5", 1), ("g6", 1), ("d5", 2)):
        for _ in range(clicks):
            editor_cell(edith, name).click()
    edith.get_by_label("White", exact=True).check()
    expect(text).to_have_value(expected_position())
    counts = edith.locator(".board-editor-counts")
    expect(counts).to_have_text(re.compile(r"Black 14\s*·?\s*White 14 · White to move"))
    expect(editor_cell(edith, "e5")).to_have_class(re.compile(r"\bb\b"))
    expect(editor_cell(edith, "d5")).to_have_class(re.compile(r"\bw\b"))

    # A string pasted into the text is drawn back; one the page cannot read is named.
    text.fill("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c1,c2,c3,c4|i9")
    expect(editor_cell(edith, "c1")).to_have_class(re.compile(r"\bb\b"))
    expect(counts.locator(".count.b")).to_have_class(re.compile(r"\bover\b"))
    text.fill("b|a1,zz|i9")
    expect(edith.locator(".board-editor-note")).to_have_text(re.compile("zz.*is not a cell"))
    text.fill(expected_position())
    expect(editor_cell(edith, "c4")).not_to_have_class(re.compile(r"\b[bw]\b"))
    edith.screenshot(path=EDITOR_SCREENSHOT, full_page=True)

    edith.select_option("#id_preset", "rapid-10+0")
    edith.select_option("#id_colour", "black")
    edith.locator("#id_opponent").fill("wanda")
    edith.get_by_role("button", name="Create challenge").click()
    expect(edith.get_by_text("Challenge sent to wanda.")).to_be_visible()
    challenge = Challenge.objects.get()
    assert (challenge.start, challenge.start_position) == ("custom", expected_position())

    wanda = log_in(open_page(), "wanda", PASSWORD)
    wanda.goto("/play/")
    wanda.locator("#challenges").get_by_role("button", name="Accept").click()
    expect(wanda).to_have_url(re.compile(r"/games/\d+/$"))
    expect(wanda.locator("#connection")).to_have_attribute("data-state", "live")
    expect(wanda.locator(".game-meta")).to_contain_text("Custom position")
    expect(wanda.locator("#turn")).to_have_text(re.compile("^Your turn"))  # White moves first
    expect(cell(wanda, "e5")).to_have_class(re.compile(r"\bb\b"))
    expect(cell(wanda, "d5")).to_have_class(re.compile(r"\bw\b"))
    for empty in ("c4", "g6"):
        expect(cell(wanda, empty)).not_to_have_class(re.compile(r"\b[bw]\b"))
    expect(wanda.locator("#moves")).to_have_text("No moves yet. White moves first.")
    assert Game.objects.get().position == expected_position()
    # White's first move is listed in White's column of move 1
    wanda.locator("#move-input").fill("d5d6")
    wanda.locator("#move-input").press("Enter")
    expect(move_at(wanda, 1)).to_have_text("d5d6")
    first = wanda.locator("#moves li").first
    expect(first.locator("span")).to_have_count(3)  # number, Black's empty slot, White's move
    expect(first.locator("span").nth(1)).to_have_text("")
    wanda.screenshot(path=CUSTOM_GAME_SCREENSHOT, full_page=True)
    assert open_page.problems == []


@pytest.mark.browser
def test_placement_is_played_by_clicking_empty_cells(open_page, log_in, make_player):
    game = outside_the_event_loop(
        game_create,
        black=make_player("bianca"),
        white=make_player("walter"),
        options=GameOptions(600, 0, 6, "placement", False),
        now=timezone.now(),
    )
    black = log_in(open_page(), "bianca", PASSWORD)
    white = log_in(open_page(), "walter", PASSWORD)
    for page in (black, white):
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(black.locator("#placement-hint")).to_have_text(
        "Place a marble (14 left): click an empty cell."
    )
    expect(white.locator("#placement-hint")).to_have_text("Black places a marble (14 left).")
    expect(cell(black, "e5")).to_have_class(re.compile(r"\btarget\b"))

    cell(black, "e5").click()
    expect(move_at(white, 1)).to_have_text("@e5")
    expect(cell(white, "e5")).to_have_class(re.compile(r"\bb\b"))
    expect(white.locator("#placement-hint")).to_have_text(
        "Place a marble (14 left): click an empty cell."
    )
    cell(white, "e5").click()  # taken: nothing is sent
    expect(cell(white, "e5")).not_to_have_class(re.compile(r"\btarget\b"))
    cell(white, "d4").click()
    expect(move_at(black, 2)).to_have_text("@d4")
    expect(cell(black, "d4")).to_have_class(re.compile(r"\bw\b"))
    expect(black.locator("#placement-hint")).to_have_text(
        "Place a marble (13 left): click an empty cell."
    )
    expect(black.locator("#score-b .score-count")).to_have_text("0")
    black.screenshot(path=PLACEMENT_SCREENSHOT, full_page=True)
    assert Game.objects.get(pk=game.pk).ply == 2
    assert open_page.problems == []
