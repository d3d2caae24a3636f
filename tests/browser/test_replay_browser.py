"""The archive's replay page in a real browser: step through a finished game and check each ply.

At every step the board's cells (``data-marble`` on each ``data-cell``), both clocks and both
marble counters must be those of the ply the page says it shows.
"""

import pytest
from playwright.sync_api import expect

from archive import selectors as archive
from ratings.models import RatingChange
from tests.archive.support import PUSH_OPENING, T0, archived_game, notations_for

SCREENSHOT = "/tmp/sumito-replay.png"
BOARD_STATE = """
() => {
  const cells = {};
  for (const cell of document.querySelectorAll('#board [data-cell]')) {
    if (cell.dataset.marble) cells[cell.dataset.cell] = cell.dataset.marble;
  }
  return {
    ply: Number(document.getElementById('board').dataset.ply),
    cells,
    clockB: document.getElementById('clock-b').textContent,
    clockW: document.getElementById('clock-w').textContent,
    scoreB: document.querySelector('#score-b .score-count').textContent,
    scoreW: document.querySelector('#score-w .score-count').textContent,
    current: [...document.querySelectorAll('#moves .move.current')].map((m) => m.dataset.ply),
  };
}
"""


def format_clock(ms: int) -> str:
    """The page's clock format (board.js formatClock)."""
    tenths = ms // 100
    seconds = tenths // 10
    minutes, hours = seconds // 60, seconds // 3600
    if hours:
        return f"{hours}:{minutes % 60:02d}:{seconds % 60:02d}"
    if seconds < 10:
        return f"{minutes}:{seconds % 60:02d}.{tenths % 10}"
    return f"{minutes}:{seconds % 60:02d}"


def expected(frame: dict) -> dict:
    side, black, white = frame["position"].split("|")
    cells = {cell: "b" for cell in black.split(",") if cell}
    cells.update({cell: "w" for cell in white.split(",") if cell})
    return {
        "ply": frame["ply"],
        "cells": cells,
        "clockB": format_clock(frame["black_ms"]),
        "clockW": format_clock(frame["white_ms"]),
        "scoreB": str(frame["white_lost"]),
        "scoreW": str(frame["black_lost"]),
        "current": [str(frame["ply"])] if frame["ply"] else [],
    }


@pytest.mark.browser
def test_a_finished_game_replays_step_by_step(page, make_player):
    alice, bob = make_player("alice"), make_player("bob")
    notations = notations_for(7, PUSH_OPENING)
    game = archived_game(
        alice, bob, notations=notations, result="0-1", termination="resignation", spend_ms=4_300
    )
    RatingChange.objects.create(
        user=bob,
        game=game,
        category="blitz",
        rating_before=1500,
        rating_after=1520,
        opponent_rating=1500,
        score=1,
        played_at=T0,
    )
    frames = archive.replay_data(game)["frames"]
    assert frames[2]["black_lost"] == 1  # White's first move pushes a black marble off

    def shows(ply: int):
        expect(page.locator("#board")).to_have_attribute("data-ply", str(ply))
        assert page.evaluate(BOARD_STATE) == expected(frames[ply])

    page.goto(f"/archive/games/{game.pk}/")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    expect(page.locator("#player-w")).to_contain_text("bob 1520 (+20)")
    expect(page.locator("#result")).to_contain_text("White wins by resignation")
    shows(7)  # the page opens on the final position

    page.keyboard.press("Home")
    shows(0)
    assert len(expected(frames[0])["cells"]) == 28
    expect(page.locator("#back")).to_be_disabled()
    expect(page.locator("#clock-b")).to_have_text("5:00")

    forward = page.get_by_role("button", name="Forward")
    back = page.get_by_role("button", name="Back")
    forward.click()
    shows(1)
    forward.click()
    shows(2)
    expect(page.locator("#score-w .score-count")).to_have_text("1")
    back.click()
    shows(1)
    expect(page.locator("#score-w .score-count")).to_have_text("0")

    page.keyboard.press("ArrowRight")
    shows(2)
    page.keyboard.press("ArrowRight")
    shows(3)
    page.keyboard.press("ArrowLeft")
    shows(2)

    page.locator('#moves .move[data-ply="5"]').click()
    shows(5)
    assert page.url.endswith("#ply-5")
    page.keyboard.press("End")
    shows(7)
    expect(page.get_by_role("button", name="Forward")).to_be_disabled()
    page.screenshot(path=SCREENSHOT, full_page=True)

    # A link to a ply opens on it.
    page.goto(f"/archive/games/{game.pk}/#ply-3")
    page.reload()
    shows(3)


@pytest.mark.browser
def test_the_archive_search_leads_to_the_replay(page, make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    wanted = archived_game(alice, bob, result="0-1", termination="time")
    archived_game(alice, carol)
    page.goto("/archive/")
    expect(page.locator("#archive-games tbody tr")).to_have_count(2)
    page.get_by_label("Player").fill("bob")
    page.get_by_label("Result").select_option("0-1")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#archive-games tbody tr")).to_have_count(1)
    expect(page.locator("#archive-count")).to_have_text("1 game")
    page.screenshot(path="/tmp/sumito-archive.png", full_page=True)

    page.goto("/archive/?player=bob&from=21.11.2026")
    expect(page.locator(".field.has-error")).to_contain_text("Enter a valid date")

    page.goto("/archive/?player=bob")
    page.locator(f'tr[data-game="{wanted.pk}"]').get_by_role("link", name="replay").click()
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    expect(page.locator("#result")).to_contain_text("White wins on time")
