"""A player pastes a game as the community publishes it, imports it into their own archive and
replays it to the end, in a real browser: the form names a bad move by its ply, and the replay's
board shows, ply by ply, the positions the engine plays."""

import pytest
from playwright.sync_api import expect

from archive.models import ImportedGame
from games import engine
from tests.archive.support import PUSH_OPENING, notations_for
from tests.browser.pages import page_opener
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/sumito-import-replay.png"
FORM_SCREENSHOT = "/tmp/sumito-import-form.png"
ARCHIVE_SCREENSHOT = "/tmp/sumito-import-archive.png"
BOARD = """
() => {
  const cells = {};
  for (const cell of document.querySelectorAll('#board [data-cell]')) {
    if (cell.dataset.marble) cells[cell.dataset.cell] = cell.dataset.marble;
  }
  return {
    ply: Number(document.getElementById('board').dataset.ply),
    cells,
    scoreB: document.querySelector('#score-b .score-count').textContent,
    scoreW: document.querySelector('#score-w .score-count').textContent,
  };
}
"""


def published(notations: list[str]) -> str:
    """``1.I8I7 G5H6 2.… `` as the community writes it: upper case, no space after the number,
    a comment, and a line break."""
    units = []
    for index, notation in enumerate(notations):
        move = notation.upper()
        units.append(f"{index // 2 + 1}.{move}" if index % 2 == 0 else move)
    units.insert(2, "{White pushes one off at once}")
    return " ".join(units[:6]) + "\n" + " ".join(units[6:])


def board_of(position: engine.Position) -> dict:
    _side, black, white = position.to_string().split("|")
    cells = {cell: "b" for cell in black.split(",") if cell}
    cells.update({cell: "w" for cell in white.split(",") if cell})
    return cells


def test_a_published_game_is_imported_and_replayed_to_its_end(
    playwright_browser, live_server, log_in, make_player
):
    make_player("alice")
    notations = notations_for(11, PUSH_OPENING, start="belgian")
    game = engine.Game("belgian")
    for notation in notations:
        game.play(notation)
    positions = game.positions

    with page_opener(playwright_browser, live_server.url, watch_problems=True) as open_page:
        page = log_in(open_page(), "alice", PASSWORD)
        page.goto("/archive/")
        page.screenshot(path=ARCHIVE_SCREENSHOT)
        page.get_by_role("link", name="Import a game").click()
        expect(page.get_by_role("heading", name="Import a game")).to_be_visible()

        # A bad move is named by its ply, and nothing is imported.
        bad = published([*notations[:4], "e5e6", *notations[5:]])
        page.locator("#id_record").fill(bad)
        page.get_by_label("Start").select_option("belgian")
        page.get_by_role("button", name="Import").click()
        expect(page.get_by_role("alert")).to_contain_text("ply 5 (move 3, Black) e5e6")
        assert not ImportedGame.objects.exists()
        page.screenshot(path=FORM_SCREENSHOT, full_page=True)

        page.locator("#id_record").fill(
            '[Black "Ada"]\n[White "Alan"]\n\n' + published(notations) + " 0-1"
        )
        page.get_by_label("Start").select_option("belgian")
        page.get_by_role("button", name="Import").click()
        imported = ImportedGame.objects.get()
        page.wait_for_url(f"**/archive/imported/{imported.pk}/")
        expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
        expect(page.get_by_role("status")).to_contain_text("Imported into your archive: 11 plies")
        expect(page.locator("#player-b")).to_contain_text("Ada")
        expect(page.locator("#result")).to_contain_text("White wins by resignation")
        expect(page.locator("#filled-headers")).to_contain_text("Event")

        def shows(ply: int):
            expect(page.locator("#board")).to_have_attribute("data-ply", str(ply))
            state = page.evaluate(BOARD)
            assert state["cells"] == board_of(positions[ply]), ply
            assert state["scoreW"] == str(positions[ply].pushed_off(engine.BLACK))
            assert state["scoreB"] == str(positions[ply].pushed_off(engine.WHITE))

        shows(11)  # the page opens on the position the record reaches
        page.keyboard.press("Home")
        shows(0)
        forward = page.get_by_role("button", name="Forward")
        for ply in range(1, 12):  # move by move to the end
            forward.click()
            shows(ply)
        expect(forward).to_be_disabled()
        page.screenshot(path=SCREENSHOT, full_page=True)

        page.get_by_role("link", name="My imported games").click()
        expect(page.locator(f'tr[data-imported="{imported.pk}"]')).to_contain_text("Ada")
        assert open_page.problems == []
