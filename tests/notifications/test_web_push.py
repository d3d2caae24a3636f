"""Web Push (issue 29, item 2): a device subscribes through the API with the kinds it wants;
each notification of those kinds is pushed to it once, signed with the site's VAPID key and
encrypted for the device, as the push service run by the test checks (RFC 8030/8291/8292);
an expired subscription (410) is removed and never pushed to again; a push the push service
could not take is sent again by the sweep, once; a push claimed by a sender that died is sent
after the claim's patience; every refusal names its problem and changes nothing."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import translation

from core.push_keys import public_key
from notifications.models import Notification, PushDelivery, PushSubscription
from notifications.services import (
    notification_create,
    push_send,
    push_send_due,
    push_subscription_save,
)
from tests.push_service import PushService

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


@pytest.fixture
def service():
    running = PushService(public_key(settings.VAPID_PRIVATE_KEY))
    yield running
    running.close()
    assert running.refused == []  # every push the site sent was signed and encrypted right


def subscribe(user, device, kinds=("your_move", "challenge_received"), name="Laptop"):
    subscription = device.subscription()
    saved, _created = push_subscription_save(
        user=user,
        endpoint=subscription["endpoint"],
        p256dh=subscription["keys"]["p256dh"],
        auth=subscription["keys"]["auth"],
        kinds=list(kinds),
        device=name,
        now=T0,
    )
    return saved


def notify(user, key="challenge:1", kind="challenge_received", now=T0, **data):
    return notification_create(
        user=user,
        kind=kind,
        key=key,
        data=data or {"from": "nina", "clock": "5+0", "rated": True},
        url="/play/",
        now=now,
    )


def test_a_notification_reaches_each_device_that_wants_it_once(make_player, service):
    ann = make_player("ann")
    laptop, phone = service.device(), service.device()
    subscribe(ann, laptop)
    subscribe(ann, phone, kinds=["your_move"])  # no challenges on the phone
    note = notify(ann)
    assert push_send(note.pk, now=T0) == 1
    assert push_send(note.pk, now=T0) == 0  # a second delivery of the task sends nothing
    assert push_send_due(now=T0 + timedelta(minutes=5)) == 0  # nor does the sweep
    [pushed] = service.pushes_to(laptop)
    assert pushed["id"] == note.pk and pushed["kind"] == "challenge_received"
    assert pushed["title"] == "Challenge received"
    assert pushed["body"] == "nina challenges you to a rated game (5+0)."
    assert pushed["url"] == settings.SITE_URL.rstrip("/") + "/play/"
    assert pushed["tag"] == f"sumito-{note.pk}"
    assert service.pushes_to(phone) == []
    headers = service.received[0].headers
    assert headers["topic"] == f"n{note.pk}" and int(headers["ttl"]) == settings.PUSH_TTL_SECONDS
    assert headers["urgency"] == "normal" and headers["content-encoding"] == "aes128gcm"
    delivery = PushDelivery.objects.get()
    assert delivery.sent_at == T0 and delivery.attempts == 1
    # The same event notified again (a retried hook): no new notification, no new push.
    notify(ann)
    assert PushDelivery.objects.count() == 1 and len(service.received) == 1


def test_the_push_is_in_the_player_s_language(make_player, service):
    ann = make_player("ann")
    ann.language = "fr"
    ann.save()
    laptop = service.device()
    subscribe(ann, laptop)
    with translation.override("de"):  # whoever's request made it
        note = notify(ann)
    push_send(note.pk, now=T0)
    [pushed] = service.pushes_to(laptop)
    assert pushed["title"] == "Défi reçu", pushed
    assert "nina" in pushed["body"] and "partie" in pushed["body"]


def test_an_expired_subscription_is_removed_and_never_pushed_to_again(make_player, service):
    ann = make_player("ann")
    laptop, phone = service.device(), service.device()
    subscribe(ann, laptop)
    subscribe(ann, phone)
    service.answer_next(phone, 410)
    note = notify(ann)
    assert push_send(note.pk, now=T0) == 1  # the laptop's
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [laptop.endpoint]
    later = notify(ann, key="challenge:2")
    assert push_send(later.pk, now=T0) == 1
    assert push_send_due(now=T0 + timedelta(minutes=1)) == 0
    assert len(service.pushes_to(laptop)) == 2 and service.pushes_to(phone) == []
    assert PushDelivery.objects.filter(subscription__endpoint=phone.endpoint).count() == 0


def test_a_push_the_service_could_not_take_is_sent_again_by_the_sweep_once(make_player, service):
    ann = make_player("ann")
    laptop = service.device()
    subscribe(ann, laptop)
    service.answer_next(laptop, 503)
    note = notify(ann)
    assert push_send(note.pk, now=T0) == 0
    delivery = PushDelivery.objects.get()
    assert delivery.sent_at is None and delivery.claimed_at is None
    assert delivery.error.startswith("503")
    assert push_send_due(now=T0 + timedelta(seconds=10)) == 1
    assert push_send_due(now=T0 + timedelta(seconds=20)) == 0
    assert len(service.pushes_to(laptop)) == 1


def test_a_push_refused_as_such_or_failing_too_often_is_given_up(make_player, service):
    ann = make_player("ann")
    laptop = service.device()
    subscribe(ann, laptop)
    service.answer_next(laptop, 413)  # too large: sending it again would not help
    assert push_send(notify(ann).pk, now=T0) == 0
    assert push_send_due(now=T0 + timedelta(minutes=1)) == 0
    service.answer_next(laptop, *[500] * 5)
    second = notify(ann, key="challenge:2")
    for minute in range(5):
        push_send_due(now=T0 + timedelta(minutes=2 + minute))
    given_up = PushDelivery.objects.get(notification=second)
    assert given_up.attempts == 5 and given_up.sent_at is not None and given_up.error
    assert service.pushes_to(laptop) == []
    assert PushSubscription.objects.count() == 1  # the device is kept


def test_a_push_claimed_by_a_sender_that_died_is_sent_after_the_claim_s_patience(
    make_player, service
):
    ann = make_player("ann")
    laptop = service.device()
    subscribe(ann, laptop)
    note = notify(ann)
    PushDelivery.objects.update(claimed_at=T0)  # claimed, then its process died
    assert push_send_due(now=T0 + timedelta(seconds=settings.PUSH_CLAIM_SECONDS - 1)) == 0
    assert push_send_due(now=T0 + timedelta(seconds=settings.PUSH_CLAIM_SECONDS + 1)) == 1
    assert [push["id"] for push in service.pushes_to(laptop)] == [note.pk]


def test_a_push_not_sent_within_its_ttl_is_given_up(make_player, service):
    ann = make_player("ann")
    subscribe(ann, service.device())
    notify(ann)
    later = T0 + timedelta(seconds=settings.PUSH_TTL_SECONDS + 1)
    assert push_send_due(now=later) == 0
    assert PushDelivery.objects.get().error.startswith("expired")
    assert service.received == []


def test_the_api_subscribes_a_device_and_refuses_what_is_not_one(
    api, make_player, service, settings
):
    ann, bob = make_player("ann"), make_player("bob")
    laptop = service.device()
    url = "/api/v1/me/push-subscriptions/"
    shown = api(ann).get(url).json()
    assert shown["enabled"] and shown["public_key"] == public_key(settings.VAPID_PRIVATE_KEY)
    assert {kind["kind"] for kind in shown["kinds"] if kind["default"]} == {
        "your_move",
        "move_reminder",
        "game_started",
        "round_paired",
        "challenge_received",
    }
    made = api(ann).post(url, laptop.subscription() | {"device": "Laptop"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["device"] == "Laptop" and "your_move" in body["kinds"]
    again = api(ann).post(url, laptop.subscription() | {"kinds": ["round_paired"]}, format="json")
    assert again.status_code == 200 and again.json()["kinds"] == ["round_paired"]
    assert PushSubscription.objects.count() == 1
    good = laptop.subscription()
    for body, status, code in (
        (good | {"endpoint": "ftp://push.example/x"}, 422, "invalid_subscription"),
        (good | {"endpoint": "https://[::1/push"}, 422, "invalid_subscription"),
        (good | {"endpoint": "https:///push"}, 422, "invalid_subscription"),
        (good | {"endpoint": "https://push.example/a b"}, 422, "invalid_subscription"),
        (
            good | {"keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}},
            422,
            "invalid_subscription",
        ),
        (
            good | {"keys": {"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}},
            422,
            "invalid_subscription",
        ),
        (good | {"kinds": ["your_move", "nonsense"]}, 400, "invalid"),
        ({"endpoint": good["endpoint"]}, 400, "invalid"),
    ):
        refused = api(ann).post(url, body, format="json")
        assert refused.status_code == status, (body, refused.content)
        assert refused.json()["error"] == code and refused.json()["detail"]
    settings.PUSH_ALLOW_HTTP = False
    plain = api(ann).post(url, service.device().subscription(), format="json")
    assert plain.status_code == 422 and plain.json()["error"] == "invalid_subscription"
    settings.PUSH_ALLOW_HTTP = True
    device_url = f"{url}{body_id(ann)}/"
    assert api(bob).patch(device_url, {"kinds": []}, format="json").status_code == 404
    assert api(bob).delete(device_url).status_code == 404
    assert api().get(url).status_code in (401, 403)
    changed = api(ann).patch(
        device_url, {"kinds": ["your_move"], "device": "Old laptop"}, format="json"
    )
    assert changed.json()["kinds"] == ["your_move"] and changed.json()["device"] == "Old laptop"
    assert PushSubscription.objects.get().kinds == ["your_move"]
    settings.VAPID_PRIVATE_KEY = ""
    off = api(ann).post(url, service.device().subscription(), format="json")
    assert off.status_code == 409 and off.json()["error"] == "push_off"
    assert api(ann).get(url).json()["enabled"] is False
    assert api(ann).delete(device_url).status_code == 204
    assert not PushSubscription.objects.exists()


def body_id(user) -> int:
    return PushSubscription.objects.get(user=user).pk


def test_a_device_taken_over_by_another_account_pushes_to_that_account_only(make_player, service):
    ann, bob = make_player("ann"), make_player("bob")
    shared = service.device()
    subscribe(ann, shared)
    subscribe(bob, shared)  # the same browser, now logged in as Bob
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    assert push_send(notify(ann).pk, now=T0) == 0
    assert push_send(notify(bob).pk, now=T0) == 1
    assert [push["id"] for push in service.pushes_to(shared)] == [
        Notification.objects.get(user=bob).pk
    ]
