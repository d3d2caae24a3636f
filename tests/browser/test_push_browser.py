"""Notifications that reach a closed tab (issue 29, item 2), as a player meets them in Chromium.

Ann, on a laptop (1366x768), turns push notifications on in her notification settings: the
browser asks nothing more (permission granted as a person would grant it), the service worker is
registered and the subscription sent with the kinds ticked. The browser's own push service is
Google's, out of reach here: the page's ``pushManager.subscribe`` answers with a subscription at
the push service the test runs on this machine, whose device keys the test holds. She closes
the tab; Bob challenges her; the sweep pushes it: the test's push service checks the VAPID
signature and decrypts the payload (RFC 8030/8291/8292), once however often the sweep runs. The
very payload it decrypted is then delivered to Ann's service worker as the push (Chromium's
DevTools ``ServiceWorker.deliverPushMessage``, a trusted push event), which shows it as a system
notification; delivered twice, it is shown once (its tag). With the network gone, a page shows the
offline page the service worker kept. The manifest makes the site installable. Then Ann turns push
off. Screenshots ``sumito-push-*.png`` in ``SCREENSHOT_DIR``.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from core.push_keys import b64url_decode, public_key
from games.options import options_from_choices
from games.services import challenge_create
from notifications.models import DEFAULT_PUSH_KINDS, PushDelivery, PushSubscription
from notifications.services import push_send_due
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.pages import in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.conftest import PASSWORD
from tests.push_service import PushService

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The page's push subscription is the test's device: ``subscribe`` and ``getSubscription``
#: answer with it (``getSubscription`` only once subscribed), ``unsubscribe`` forgets it.
SUBSCRIPTION_STUB = """
(() => {
  const json = %s;
  let subscribed = false;
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - text.length %% 4) %% 4)), (c) => c.charCodeAt(0)).buffer;
  const subscription = {
    endpoint: json.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    getKey: (name) => bytes(json.keys[name]),
    toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
    unsubscribe: async () => { subscribed = false; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.applicationServerKey) throw new Error("no applicationServerKey");
    window.__applicationServerKey = Array.from(new Uint8Array(options.applicationServerKey));
    subscribed = true;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () { return subscribed ? subscription : null; };
})();
"""


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
        assert make.problems == []


@pytest.fixture
def push_service():
    running = PushService(public_key(settings.VAPID_PRIVATE_KEY))
    yield running
    running.close()
    assert running.refused == []


def test_a_push_reaches_a_closed_tab_s_device_once_and_is_shown_by_the_service_worker(
    open_page, log_in, make_player, push_service
):
    make_player("ann")
    bob = make_player("bob")
    device = push_service.device()
    page = log_in(open_page(), "ann", PASSWORD)
    context = page.context
    context.grant_permissions(["notifications"])
    context.add_init_script(SUBSCRIPTION_STUB % json.dumps(device.subscription()))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto("/notifications/settings/")
    section = page.locator("#push")
    expect(section).to_have_attribute("data-ready", "true")
    expect(page.locator("#push-no-devices")).to_be_visible()
    page.locator("#push-device").fill("Ann's laptop")
    turn_on = page.get_by_role("button", name="Turn on for this device")
    turn_on.scroll_into_view_if_needed()
    in_the_window(page, turn_on)
    turn_on.click()
    expect(page.locator("#push-status")).to_have_text("Push notifications are on for this device.")
    expect(page.locator("#push-devices li")).to_have_count(1)
    expect(page.locator("#push-devices li")).to_contain_text("Ann's laptop")
    expect(page.get_by_role("button", name="Turn off for this device")).to_be_visible()
    expect(turn_on).to_be_hidden()
    page.screenshot(path=str(screenshot_dir() / "sumito-push-settings-laptop.png"))
    # It subscribed with the site's VAPID public key.
    key = bytes(page.evaluate("window.__applicationServerKey"))
    assert key == b64url_decode(public_key(settings.VAPID_PRIVATE_KEY))
    saved = outside_the_event_loop(PushSubscription.objects.get)
    assert saved.endpoint == device.endpoint and saved.device == "Ann's laptop"
    assert set(saved.kinds) == {str(kind) for kind in DEFAULT_PUSH_KINDS}
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker.endswith("/sw.js")

    # A tick changed afterwards is saved for this device at once.
    page.get_by_role("group", name="This device is told of").get_by_label("Round paired").uncheck()
    expect(page.locator("#push-status")).to_have_text("Saved for this device.")
    assert "round_paired" not in outside_the_event_loop(PushSubscription.objects.get).kinds

    # The tab is closed (the browser still runs); Bob challenges Ann; the sweep pushes it.
    cdp_page = context.new_page()  # the DevTools session needs a page of the browser context
    page.close()
    outside_the_event_loop(
        challenge_create,
        challenger=bob,
        opponent=outside_the_event_loop(type(bob).objects.get, username="ann"),
        colour="white",
        options=options_from_choices({"preset": "correspondence-3d"}),
        now=timezone.now(),
    )
    assert outside_the_event_loop(push_send_due, now=timezone.now()) == 1
    assert outside_the_event_loop(push_send_due, now=timezone.now()) == 0
    [pushed] = push_service.pushes_to(device)
    assert pushed["title"] == "Challenge received"
    assert pushed["body"] == "bob challenges you to a rated game (3 days a move)."
    assert pushed["url"] == settings.SITE_URL.rstrip("/") + "/play/"
    assert outside_the_event_loop(PushDelivery.objects.filter(sent_at__isnull=False).count) == 1

    # The same payload, as the push, to Ann's service worker: a system notification, once.
    cdp_page.goto("/offline/")
    session = context.new_cdp_session(cdp_page)
    registrations = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    session.send("ServiceWorker.enable")  # it then reports the registrations, as events
    waited = 0
    while not any(not r["isDeleted"] for r in registrations) and waited < TIMEOUT_MS:
        cdp_page.wait_for_timeout(100)  # events are dispatched while Playwright waits
        waited += 100
    live = [r for r in registrations if not r["isDeleted"]]
    assert live, f"no service worker registration: {registrations}"
    origin = cdp_page.url.split("/offline/")[0]
    for _ in range(2):
        session.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": origin,
                "registrationId": live[-1]["registrationId"],
                "data": json.dumps(pushed),
            },
        )
    shown = cdp_page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          for (let tries = 0; tries < 150; tries++) {
            const found = await registration.getNotifications();
            if (found.length) return found.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }));
            await new Promise((done) => setTimeout(done, 100));
          }
          return [];
        }"""
    )
    assert shown == [
        {
            "title": "Challenge received",
            "body": pushed["body"],
            "tag": pushed["tag"],
            "url": pushed["url"],
        }
    ]

    # With the network gone, a page is the offline page the service worker kept.
    context.set_offline(True)
    cdp_page.goto("/play/")
    expect(cdp_page.locator("#offline h1")).to_contain_text("You are offline")
    cdp_page.screenshot(path=str(screenshot_dir() / "sumito-push-offline-laptop.png"))
    context.set_offline(False)

    # The site is an installable app.
    manifest = cdp_page.request.get("/manifest.webmanifest")
    assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    for icon in body["icons"]:
        assert cdp_page.request.get(icon["src"]).ok, icon

    # Ann turns push off on this device: no more pushes to it.
    cdp_page.goto("/notifications/settings/")
    expect(cdp_page.locator("#push")).to_have_attribute("data-ready", "true")
    cdp_page.get_by_role("button", name="Turn on for this device").click()
    expect(cdp_page.locator("#push-status")).to_have_text(
        "Push notifications are on for this device."
    )
    cdp_page.get_by_role("button", name="Turn off for this device").click()
    expect(cdp_page.locator("#push-status")).to_have_text(
        "Push notifications are off for this device."
    )
    expect(cdp_page.locator("#push-no-devices")).to_be_visible()
    assert not outside_the_event_loop(PushSubscription.objects.exists)


def test_the_push_settings_on_a_phone_in_french(open_page, make_player):
    """A phone (390x844) in French: the section reads in French and its button is reachable."""
    make_player("ann")
    phone = open_page(width=1280, height=900)
    phone.goto("/accounts/login/")
    phone.locator("#id_username").fill("ann")
    phone.locator("#id_password").fill(PASSWORD)
    phone.locator("main form button[type=submit]").click()
    phone.wait_for_url(lambda url: "/accounts/login/" not in url)
    origin = "/".join(phone.url.split("/", 3)[:3])
    phone.context.add_cookies([{"name": "django_language", "value": "fr", "url": origin}])
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto("/notifications/settings/")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator("#push")).to_have_attribute("data-ready", "true")
    expect(phone.locator("#push-title")).to_have_text("Notifications push")
    button = phone.get_by_role("button", name="Activer sur cet appareil")
    button.scroll_into_view_if_needed()
    in_the_window(phone, button)
    expect(phone.locator("#push-no-devices")).to_have_text("Aucun pour l’instant.")
    phone.screenshot(path=str(screenshot_dir() / "sumito-push-settings-phone-fr.png"))
