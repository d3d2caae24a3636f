"""Accessibility in a real browser: axe-core on every main page, the theme switch, whole names.

axe-core is vendored (static/vendor/axe/axe.min.js, with its licence) and served by the site;
the test adds it to each page by its URL (the Content-Security-Policy allows only the site's own
scripts) and fails on any "serious" or "critical" violation: contrast below WCAG 2.1 AA, fields
without labels, buttons without names, scroll boxes a keyboard cannot reach, and the rest of
axe's rules. Each page is checked at desktop and phone width, in the light and the dark theme.
docs/accessibility.md says what is checked and how to run it.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import page_opener
from tests.browser.site_pages import (
    DESKTOP,
    PHONE,
    build_site,
    log_in_as_viewer,
    visit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE_URL = "/static/vendor/axe/axe.min.js"
BLOCKING = ("serious", "critical")
RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map(violation => ({
    id: violation.id, impact: violation.impact, help: violation.help,
    nodes: violation.nodes.slice(0, 3).map(node => `${node.target.join(" ")}: ${node.failureSummary}`),
  }));
}"""


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def axe_violations(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=AXE_URL)
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_on_the_main_pages(open_page, make_player, viewport, scheme):
    site = build_site(make_player)
    visitor = open_page(**viewport)
    viewer = open_page(**viewport)
    for page in (visitor, viewer):
        page.emulate_media(color_scheme=scheme)
    log_in_as_viewer(viewer)
    found = []
    pages = [(visitor, path) for path in site.anonymous] + [(viewer, p) for p in site.paths]
    for page, path in pages:
        visit(page, path)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        for violation in axe_violations(page):
            found.append(
                f"{path}: {violation['id']} ({violation['impact']}, {violation['help']}): "
                + " | ".join(violation["nodes"])
            )
    assert not found, "\n".join(found)
    assert open_page.problems == []


def test_the_theme_switch_is_kept_in_a_cookie_and_the_browser(open_page, make_player):
    build_site(make_player)
    page = open_page(**DESKTOP)
    page.emulate_media(color_scheme="light")
    log_in_as_viewer(page)
    visit(page, "/")
    background = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(background)
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "system")

    theme = page.get_by_label("Theme")
    expect(theme).to_have_value("system")
    theme.select_option("dark")
    expect(html).to_have_attribute("data-theme", "dark")
    dark = page.evaluate(background)
    assert dark != light
    assert page.evaluate("localStorage.getItem('sumito-theme')") == "dark"
    cookie = next(c for c in page.context.cookies() if c["name"] == "theme")
    assert cookie["value"] == "dark" and cookie["expires"] > 0

    # The server draws the next page dark from its first byte (no flash of the light theme).
    response = page.goto("/clubs/")
    assert 'data-theme="dark"' in response.text()
    assert page.evaluate(background) == dark
    expect(page.get_by_label("Theme")).to_have_value("dark")

    # "System" follows the device again.
    page.get_by_label("Theme").select_option("system")
    assert page.evaluate(background) == light
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(background) == dark
    page.reload()
    expect(html).to_have_attribute("data-theme", "system")
    assert page.evaluate(background) == dark

    # "Light" wins over a dark device.
    page.get_by_label("Theme").select_option("light")
    assert page.evaluate(background) == light
    assert open_page.problems == []


def test_names_are_whole_when_they_fit_and_cut_with_a_title_when_they_do_not(
    open_page, make_player
):
    site = build_site(make_player)
    page = open_page(**DESKTOP)
    log_in_as_viewer(page)
    cut = "el => el.scrollWidth > el.clientWidth"
    for path in (f"/archive/games/{site.finished_game}/", f"/games/{site.finished_game}/"):
        visit(page, path)
        # The viewer's short name fits in the panel beside the clock: shown whole.
        viewer_name = page.locator(".player-name a", has_text="Ada").first
        expect(viewer_name).to_be_visible()
        assert not viewer_name.evaluate(cut), path
        # A name too long for the panel is cut with an ellipsis, and its title holds it whole.
        for name in page.locator(".player-name a").all():
            if name.evaluate(cut):
                assert name.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
                assert name.inner_text().strip() in (name.get_attribute("title") or ""), path

    # The token name field has a label; a profile's every field can be found by its label.
    visit(page, "/accounts/profile/")
    expect(page.get_by_label("Token name")).to_be_visible()
    expect(page.get_by_label("Display name")).to_be_visible()
    assert open_page.problems == []


def test_the_board_is_still_played_by_keyboard(open_page, make_player):
    site = build_site(make_player)
    page = open_page(**PHONE)
    log_in_as_viewer(page)
    visit(page, f"/games/{site.live_game}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # Ada (Black) to move: a marble is chosen and moved with the keyboard alone.
    page.locator("#board [data-cell='d4']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board [data-cell='d4']")).to_have_class(re.compile(r"\bselected\b"))
    page.locator("#board [data-cell='d5']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#moves")).to_contain_text("d4d5")
    assert open_page.problems == []
