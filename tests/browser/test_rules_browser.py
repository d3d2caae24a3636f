"""The rules page in a real browser: every diagram is drawn by the site's board from its position
string, with the move's arrow; a move can be played and taken back; the page fits a phone.

Screenshots (look at them): /tmp/sumito-rules.png (desktop, English), /tmp/sumito-rules-de-phone.png
(German at 390x844) and /tmp/sumito-rules-diagrams-hu.png (the sumito diagrams, Hungarian).
"""

import pytest
from playwright.sync_api import expect

from games.rules_page import DIAGRAMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/sumito-rules.png"
PHONE_SCREENSHOT = "/tmp/sumito-rules-de-phone.png"
DIAGRAMS_SCREENSHOT = "/tmp/sumito-rules-diagrams-hu.png"

# What the browser drew, board by board: the marbles on each cell, the arrows, the rings.
DRAWN = """
() => [...document.querySelectorAll('.rules-board')].map((holder) => {
  const cells = {};
  for (const cell of holder.querySelectorAll('[data-cell]')) {
    if (cell.dataset.marble) cells[cell.dataset.cell] = cell.dataset.marble;
  }
  const ringed = (name) => [...holder.querySelectorAll(`.cell.${name}`)].map((c) => c.dataset.cell);
  return {
    key: holder.dataset.diagram,
    drawn: holder.dataset.drawn === 'true',
    cellCount: holder.querySelectorAll('[data-cell]').length,
    cells,
    arrows: holder.querySelectorAll('.rules-arrow-line').length,
    bars: holder.querySelectorAll('.rules-bar').length,
    group: ringed('rules-group').sort(),
    pushed: ringed('rules-pushed').sort(),
  };
})
"""
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def cells_of(position: str) -> dict[str, str]:
    """Cell -> colour letter of a position string of two, three or four colours."""
    _side, *lists = position.split("|")
    colours = "bwrg"
    return {
        cell: colours[index]
        for index, cells in enumerate(lists)
        for cell in cells.split(",")
        if cell
    }


def expected_arrows(diagram) -> int:
    return len([item for item in diagram.arrows.split(";") if item])


def test_every_diagram_is_drawn_from_its_position_with_its_arrows(new_page):
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if "Refused to" in message.text else None,
    )
    page.goto("/rules/en/")
    expect(page.locator('.rules-board[data-drawn="true"]')).to_have_count(len(DIAGRAMS))
    drawn = {board["key"]: board for board in page.evaluate(DRAWN)}
    assert set(drawn) == set(DIAGRAMS)
    for key, diagram in DIAGRAMS.items():
        board = drawn[key]
        assert board["cellCount"] == 61, key
        assert board["cells"] == cells_of(diagram.position), key
        assert board["arrows"] == expected_arrows(diagram), key
        assert board["bars"] == (expected_arrows(diagram) if diagram.refused else 0), key
        assert board["group"] == sorted(diagram.group), key
        assert board["pushed"] == sorted(diagram.pushed), key
    # The multi-player starts show their third and fourth colours.
    assert "r" in drawn["three"]["cells"].values()
    assert "g" in drawn["four"]["cells"].values()
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert errors == []


def test_a_diagram_plays_its_move_and_takes_it_back(new_page):
    page = new_page()
    page.goto("/rules/en/#sumito")
    figure = page.locator("#diagram-sumito_3v2")
    button = figure.get_by_role("button", name="Play the move")
    expect(button).to_be_visible()
    holder = figure.locator(".rules-board")
    diagram = DIAGRAMS["sumito_3v2"]

    button.click()
    expect(holder).to_have_attribute("data-shown", "after")
    shown = page.evaluate(DRAWN)
    after = next(board for board in shown if board["key"] == "sumito_3v2")
    assert after["cells"] == cells_of(diagram.after)
    assert after["arrows"] == 0
    expect(figure.get_by_role("button", name="Undo the move")).to_be_visible()

    figure.get_by_role("button", name="Undo the move").click()
    expect(holder).to_have_attribute("data-shown", "before")
    again = next(board for board in page.evaluate(DRAWN) if board["key"] == "sumito_3v2")
    assert again["cells"] == cells_of(diagram.position)
    assert again["arrows"] == 1


def test_the_rules_fit_a_phone_in_german_and_hungarian(new_page):
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/rules/de/")
    expect(page.locator('.rules-board[data-drawn="true"]')).to_have_count(len(DIAGRAMS))
    expect(page.locator("article.rules")).to_contain_text("Kugel")
    assert page.evaluate(OVERFLOW) <= 0
    page.screenshot(path=PHONE_SCREENSHOT, full_page=True)

    page.goto("/rules/hu/")
    expect(page.locator('.rules-board[data-drawn="true"]')).to_have_count(len(DIAGRAMS))
    assert page.evaluate(OVERFLOW) <= 0
    page.locator("#sumito").screenshot(path=DIAGRAMS_SCREENSHOT)


AXE_URL = "/static/vendor/axe/axe.min.js"
RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations
    .filter((violation) => ["serious", "critical"].includes(violation.impact))
    .map((violation) => `${violation.id}: ${violation.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_the_rules(new_page, scheme):
    """axe-core (vendored, served by the site) on the rules at desktop and phone width, with a
    move played on a diagram; docs/accessibility.md."""
    page = new_page()
    page.emulate_media(color_scheme=scheme)
    found = {}
    for language, width, height in (("en", 1280, 900), ("uk", 390, 844), ("hu", 390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/rules/{language}/")
        expect(page.locator('.rules-board[data-drawn="true"]')).to_have_count(len(DIAGRAMS))
        page.locator("#diagram-push_off .rules-play").click()
        page.add_script_tag(url=AXE_URL)
        violations = page.evaluate(RUN_AXE)
        if violations:
            found[f"{language} {width}px"] = violations
    assert found == {}
