"""The site on a phone: every main page fits 360 and 390 px without a sideways scroll of the page
(wide tables scroll inside their own box), the game page puts the board across the whole width
with a clock above and one below it, the controls are touch-sized, and the folded menu opens by
touch and by keyboard. Screenshots of the game page at 390x844, light and dark, are written to
``SCREENSHOT_DIR`` (default /tmp/sumito-screenshots), never into the repository.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import page_opener
from tests.browser.site_pages import (
    PHONE,
    build_site,
    log_in_as_viewer,
    screenshot_dir,
    visit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The elements that stick out of the window, for the failure message: the deepest ones that are
# not inside a box that scrolls or clips them.
OVERFLOW = """() => {
  const width = window.innerWidth;
  const sticking = [];
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    let parent = element.parentElement, contained = false;
    while (parent && parent !== document.body) {
      if (getComputedStyle(parent).overflowX !== "visible") { contained = true; break; }
      parent = parent.parentElement;
    }
    if (!contained) sticking.push(`${element.tagName.toLowerCase()}.${element.className} (${Math.round(box.right)} px)`);
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          sticking: sticking.slice(-4)};
}"""


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def test_every_main_page_fits_a_phone_without_a_sideways_scroll(open_page, make_player):
    site = build_site(make_player)
    too_wide = []
    for width in (360, 390):
        visitor = open_page(width=width, height=PHONE["height"])
        viewer = open_page(width=width, height=PHONE["height"])
        log_in_as_viewer(viewer)
        pages = [(visitor, path) for path in site.anonymous] + [(viewer, p) for p in site.paths]
        for page, path in pages:
            visit(page, path)
            measured = page.evaluate(OVERFLOW)
            if measured["scrollWidth"] > measured["innerWidth"]:
                too_wide.append(f"{width} px {path}: {measured}")
    assert too_wide == []
    assert open_page.problems == []


def test_the_game_page_on_a_phone_board_across_clocks_above_and_below(open_page, make_player):
    site = build_site(make_player)
    shots = screenshot_dir()
    for scheme in ("light", "dark"):
        page = open_page(**PHONE)
        page.emulate_media(color_scheme=scheme)
        log_in_as_viewer(page)
        visit(page, f"/games/{site.live_game}/")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#board [data-cell='e5']")).to_be_attached()

        board = page.locator("#board").bounding_box()
        top, bottom = (
            page.locator(f"#player-{colour}").bounding_box() for colour in ("w", "b")
        )  # Black (the viewer) plays from the bottom
        assert board["width"] >= 0.9 * PHONE["width"], board
        assert top["y"] + top["height"] <= board["y"] + 1, (top, board)
        assert bottom["y"] >= board["y"] + board["height"] - 1, (bottom, board)
        for clock in ("#clock-w", "#clock-b"):
            expect(page.locator(clock)).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        # The player's own controls are touch-sized: 44 px high at least.
        for control in page.locator(".actions button:visible, #chat-form button:visible").all():
            height = control.bounding_box()["height"]
            assert height >= 44, (control.inner_text(), height)

        # The page really is in the asked theme: the dark sheet applies only in the dark.
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(21, 18, 15)") == (scheme == "dark"), background
        page.screenshot(path=str(shots / f"game-phone-{scheme}.png"), full_page=True)
    assert open_page.problems == []


def test_the_folded_menu_opens_by_touch_and_by_keyboard(open_page, make_player):
    build_site(make_player)
    page = open_page(**PHONE)
    log_in_as_viewer(page)
    visit(page, "/")
    tournaments = page.locator(".nav-links").get_by_role("link", name="Tournaments")
    expect(tournaments).to_be_hidden()
    burger = page.locator(".nav-burger")
    box = burger.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    burger.click()
    expect(tournaments).to_be_visible()
    assert tournaments.bounding_box()["height"] >= 44
    burger.click()
    expect(tournaments).to_be_hidden()

    # Keyboard, on a fresh page: Tab reaches the menu's switch (after the skip link and the
    # brand), Space opens it.
    visit(page, "/")
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator("#nav-toggle")).to_be_focused()
    page.keyboard.press("Space")
    expect(tournaments).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator(".nav-links a").first).to_be_focused()
