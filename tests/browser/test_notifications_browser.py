"""Notifications in a real browser: the bell, its panel and the ready-game banner, pushed live.

The pages talk to the site's ASGI application (``asgi_live_server``), so a notification written
by the test reaches the player's open tab through the channel layer, without a reload: on
ordinary pages over ``/ws/me/``, on a game page over the game's own socket (the tab's one socket).
Screenshots of the bell, the panel and the banner, on a desktop and on a phone, go to
``/tmp/sumito-notify-*.png`` for a human look at the layout.
"""

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.options import GameOptions
from games.services import game_create
from notifications.models import Notification
from notifications.services import notification_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = "/tmp/sumito-notify-{}.png"
PHONE = {"width": 390, "height": 844}
CHALLENGE = {"from": "b", "rated": True, "clock": "5+3"}
CHALLENGE_TEXT = "b challenges you to a rated game (5+3)."


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page in a fresh browser context (own cookies) on the ASGI server."""
    with page_opener(playwright_browser, asgi_live_server) as make:
        yield make


def notify(user, *, kind: str, key: str, data: dict, url: str = "") -> Notification:
    """A notification as an app writes one: in its event's transaction, pushed on commit."""

    def create():
        with transaction.atomic():
            return notification_create(
                user=user, kind=kind, key=key, data=data, url=url, now=timezone.now()
            )

    return outside_the_event_loop(create)


def start_game(black, white) -> Game:
    return outside_the_event_loop(
        game_create,
        black=black,
        white=white,
        options=GameOptions(
            base_seconds=300,
            increment_seconds=2,
            marbles_to_win=6,
            start="belgian",
            rated=True,
        ),
        now=timezone.now(),
    )


def game_ready(player, game: Game, *, opponent: str, colour: str) -> Notification:
    return notify(
        player,
        kind="game_started",
        key=f"game_started:{game.pk}",
        data={
            "game": game.pk,
            "tournament": "Autumn Swiss",
            "round": 3,
            "board": 2,
            "opponent": opponent,
            "colour": colour,
            "clock": "5+2",
            "first_move_seconds": 60,
        },
        url=f"/games/{game.pk}/",
    )


def badge(page):
    return page.locator("#notification-count")


def listening(page):
    """Wait until the tab's /ws/me/ socket has said hello (the snapshot it sends once it is in
    the player's group): from then on a push reaches it."""
    expect(page.locator("#notification-panel-list")).not_to_contain_text("Loading")
    return page


def test_a_notification_arrives_live_and_is_marked_read(open_page, log_in, make_player):
    alice, _bruno = make_player("alice"), make_player("bruno")
    mine = log_in(open_page(), "alice", PASSWORD)
    theirs = log_in(open_page(), "bruno", PASSWORD)
    for page in (mine, theirs):
        page.goto("/")
        listening(page)
        expect(badge(page)).to_be_hidden()
    mine.evaluate("window.__notReloaded = true")

    notify(alice, kind="challenge_received", key="t1", data=CHALLENGE, url="/play/")

    expect(badge(mine)).to_have_text("1")
    expect(badge(mine)).to_be_visible()
    expect(mine.locator("#notification-bell")).to_have_attribute(
        "aria-label", "Notifications, 1 unread"
    )
    assert mine.evaluate("window.__notReloaded") is True  # live, not a reload
    expect(badge(theirs)).to_be_hidden()
    expect(theirs.locator("#notification-panel-list")).to_contain_text("No notifications yet.")

    # The panel opens from the bell; opening it marks nothing read.
    panel = mine.locator("#notification-panel")
    expect(panel).to_be_hidden()
    mine.locator("#notification-bell").click()
    expect(panel).to_be_visible()
    entry = panel.locator(".notify-entry").first
    expect(entry).to_contain_text(CHALLENGE_TEXT)
    expect(entry).to_have_class("notify-entry unread")
    expect(entry.get_by_role("link")).to_have_attribute("href", "/play/")
    expect(panel.get_by_role("link", name="All notifications")).to_have_attribute(
        "href", "/notifications/"
    )
    expect(badge(mine)).to_have_text("1")
    mine.screenshot(path=SCREENSHOTS.format("panel"))

    panel.get_by_role("button", name="Mark all read").click()
    expect(badge(mine)).to_be_hidden()
    expect(entry).to_have_class("notify-entry")
    assert Notification.objects.get(user=alice, key="t1").read_at is not None
    mine.keyboard.press("Escape")
    expect(panel).to_be_hidden()

    # Clicking an unread entry marks it read before its page opens.
    notify(alice, kind="challenge_received", key="t2", data=CHALLENGE | {"from": "c"}, url="/play/")
    expect(badge(mine)).to_have_text("1")
    mine.locator("#notification-bell").click()
    panel.get_by_role("link", name="c challenges you").click()
    mine.wait_for_url("**/play/")
    assert Notification.objects.get(user=alice, key="t2").read_at is not None
    expect(badge(mine)).to_be_hidden()

    # The list page takes a new one live too, at the top.
    mine.goto("/notifications/")
    listening(mine)
    notify(alice, kind="challenge_received", key="t3", data=CHALLENGE | {"from": "d"})
    expect(mine.locator("#notification-list li").first).to_contain_text("d challenges you")
    expect(mine.locator("#notification-list li.unread")).to_have_count(1)
    expect(mine.locator("#notifications-unread")).to_have_text("1")
    expect(badge(mine)).to_have_text("1")
    mine.screenshot(path=SCREENSHOTS.format("list"))


def test_a_ready_game_shows_a_banner_that_leads_to_it(open_page, log_in, make_player):
    gina, oscar = make_player("gina"), make_player("oscar", display_name="Oscar")
    game = start_game(gina, oscar)
    page = log_in(open_page(), "gina", PASSWORD)
    page.goto("/")
    listening(page)
    expect(page.locator("#notification-banner")).to_be_hidden()

    notification = game_ready(gina, game, opponent="Oscar", colour="Black")

    alert = page.locator("#notification-banner").get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Your game is ready.")
    expect(alert).to_contain_text("Autumn Swiss, round 3: your game against Oscar is ready.")
    go = alert.get_by_role("link", name="Go to your game")
    expect(go).to_have_attribute("href", f"/games/{game.pk}/")
    expect(alert.get_by_role("button", name="Dismiss")).to_be_visible()
    expect(badge(page)).to_have_text("1")
    page.screenshot(path=SCREENSHOTS.format("banner"))

    # Another page while the first move is still due: the banner is there again.
    page.goto("/tournaments/")
    expect(alert).to_be_visible()

    go.click()
    page.wait_for_url(f"**/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(page.locator("#notification-banner")).to_be_hidden()
    notification.refresh_from_db()
    assert notification.read_at is not None
    expect(badge(page)).to_be_hidden()


def test_a_dismissed_banner_stays_dismissed(open_page, log_in, make_player):
    gina, oscar = make_player("gina"), make_player("oscar", display_name="Oscar")
    game = start_game(gina, oscar)
    page = log_in(open_page(), "gina", PASSWORD)
    page.goto("/")
    listening(page)
    game_ready(gina, game, opponent="Oscar", colour="Black")
    alert = page.locator("#notification-banner").get_by_role("alert")
    alert.get_by_role("button", name="Dismiss").click()
    expect(page.locator("#notification-banner")).to_be_hidden()
    page.goto("/clubs/")
    listening(page)
    expect(page.locator("#notification-banner")).to_be_hidden()
    expect(badge(page)).to_have_text("1")  # dismissed is not read


def test_a_game_page_hears_notifications_on_its_own_socket(open_page, log_in, make_player):
    bianca, walter = make_player("bianca"), make_player("walter")
    game = start_game(bianca, walter)
    page = log_in(open_page(), "bianca", PASSWORD)
    listening(page)  # the page after logging in has opened its /ws/me/ before the count starts
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(badge(page)).to_be_hidden()

    notify(bianca, kind="challenge_received", key="g1", data=CHALLENGE, url="/play/")

    expect(badge(page)).to_have_text("1")
    page.locator("#notification-bell").click()
    expect(page.locator("#notification-panel")).to_contain_text(CHALLENGE_TEXT)
    page.screenshot(path=SCREENSHOTS.format("game"))
    assert [url for url in sockets if url.endswith("/ws/me/")] == []
    assert any(url.endswith(f"/ws/games/{game.pk}/") for url in sockets)


def test_the_bell_on_a_phone(open_page, log_in, make_player):
    gina, oscar = make_player("gina"), make_player("oscar", display_name="Oscar")
    game = start_game(gina, oscar)
    page = log_in(open_page(), "gina", PASSWORD)  # log_in looks for the unfolded menu
    page.set_viewport_size(PHONE)
    page.goto("/")
    listening(page)
    bell = page.locator("#notification-bell")
    expect(bell).to_be_visible()  # outside the folded menu
    expect(page.get_by_role("button", name="Log out")).to_be_hidden()

    notify(gina, kind="challenge_received", key="p1", data=CHALLENGE, url="/play/")
    game_ready(gina, game, opponent="Oscar", colour="Black")
    expect(badge(page)).to_have_text("2")
    expect(page.locator("#notification-banner").get_by_role("alert")).to_be_visible()
    page.screenshot(path=SCREENSHOTS.format("phone-banner"))

    bell.click()
    panel = page.locator("#notification-panel")
    expect(panel.locator(".notify-entry")).to_have_count(2)
    box, viewport = panel.bounding_box(), page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    page.screenshot(path=SCREENSHOTS.format("phone-panel"))
    page.keyboard.press("Escape")

    page.locator(".nav-burger").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    expect(bell).to_be_visible()
    page.screenshot(path=SCREENSHOTS.format("phone-menu"))


# A tab in the background, as far as the page can tell, and a desktop-notification API that
# records what it is asked to show (permission granted).
BACKGROUND_TAB = """
(() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden === true });
  window.__shown = [];
  window.Notification = class {
    constructor(title, options) {
      this.listeners = {};
      window.__shown.push({ title, body: options.body, tag: options.tag });
      window.__lastShown = this;
    }
    static get permission() { return "granted"; }
    addEventListener(type, listener) { this.listeners[type] = listener; }
    close() {}
  };
})();
"""


def test_a_background_tab_flashes_its_title_and_alerts(open_page, log_in, make_player):
    alice = make_player("alice")
    page = log_in(open_page(), "alice", PASSWORD)
    page.add_init_script(BACKGROUND_TAB)
    page.goto("/")
    listening(page)
    title = page.title()
    # No offer to enable alerts once they are allowed.
    page.locator("#notification-bell").click()
    expect(page.locator("#notification-permission")).to_be_hidden()
    page.keyboard.press("Escape")
    page.evaluate("window.__hidden = true")

    notification = notify(alice, kind="challenge_received", key="h1", data=CHALLENGE, url="/play/")

    expect(page).to_have_title("(1) New notification")
    expect(page).to_have_title(title)  # it alternates with the page's own
    shown = page.evaluate("window.__shown")
    assert shown == [
        {"title": "Sumito", "body": CHALLENGE_TEXT, "tag": f"sumito-notification-{notification.pk}"}
    ]
    # Back in the tab: the title stops flashing.
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(1500)
    assert page.title() == title
    # Clicking the desktop alert opens its page, and it is read.
    page.evaluate("window.__lastShown.listeners.click()")
    page.wait_for_url("**/play/")
    expect(badge(page)).to_be_hidden()
    notification.refresh_from_db()
    assert notification.read_at is not None
