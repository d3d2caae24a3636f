"""Writes of notifications: create one per event, mark read, e-mail choices, send due e-mail.

``notification_create`` is called by the app whose event it is (games for challenges, tournaments
for rounds, clubs for join requests, ratings for a finished game), inside that event's
transaction; it is idempotent per ``(user, key)``. What leaves the process (the push to the
player's open tabs, the e-mail) happens only after the commit, best effort: the database row is
the truth, a tab that missed the push reads it on its next page or reconnect, and the e-mail is
found by a periodic sweep (``email_send_due``) like every other due work.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotFound, Unprocessable
from core.jobs import enqueue
from core.languages import recipient_language
from core.live import after_commit, send_group, user_group
from core.push_keys import valid_device_keys
from core.renderers import encode_json
from notifications import push
from notifications.models import (
    DEFAULT_EMAIL_KINDS,
    EmailChoice,
    Kind,
    Notification,
    PushDelivery,
    PushSubscription,
)
from notifications.selectors import notification_document, unread_count
from notifications.texts import notification_text

logger = logging.getLogger(__name__)

#: The most ids one "mark read" request may name.
MARK_READ_MAX_IDS = 500
#: A push the push service could not take is tried this many times, then given up.
PUSH_MAX_ATTEMPTS = 5
PUSH_TASK = "notifications.tasks.send_pushes"


def notification_create(
    *, user: User, kind: str, key: str, data: dict, url: str = "", now: datetime
) -> Notification:
    """The notification of ``user`` about the event ``key``: written the first time, found
    (and nothing sent again) every later time. Pushed to the player's tabs after the commit."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notification kind {kind!r}")
    existing = Notification.objects.filter(user=user, key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():  # a savepoint: a concurrent twin must not spoil the caller
            notification = Notification.objects.create(
                user=user,
                kind=kind,
                key=key,
                data=data,
                url=url,
                created=now,
                email_wanted=_email_wanted(user, kind),
            )
    except IntegrityError:  # the same event, delivered twice at once
        return Notification.objects.get(user=user, key=key)
    after_commit(lambda: push_notification(notification.pk), f"notification {notification.pk}")
    _push_deliveries_create(notification, now)
    return notification


# --- Web Push to the player's devices ----------------------------------------------------------------


def _push_deliveries_create(notification: Notification, now: datetime) -> None:
    """A push of ``notification`` for each of its player's devices that wants its kind, made in
    the event's transaction (so a push is never lost to a process that dies after the commit:
    the sweep finds it) and sent after the commit by a task."""
    if not push.enabled():
        return
    devices = PushSubscription.objects.filter(user_id=notification.user_id).values_list(
        "pk", "kinds"
    )
    rows = [
        PushDelivery(notification=notification, subscription_id=pk, created_at=now)
        for pk, kinds in devices
        if notification.kind in kinds
    ]
    if rows:
        PushDelivery.objects.bulk_create(rows, ignore_conflicts=True)
        enqueue(PUSH_TASK, notification.pk)


def push_send(notification_id: int, *, now: datetime) -> int:
    """Send the pushes of one notification still to send (the task after its commit); how many
    the push services took."""
    ids = PushDelivery.objects.filter(
        notification_id=notification_id, sent_at__isnull=True
    ).values_list("pk", flat=True)
    return sum(_push_one(pk, now) for pk in list(ids))


def push_send_due(*, now: datetime) -> int:
    """The sweep (every ``PUSH_SWEEP_SECONDS``): send the pushes that no task sent (its message
    lost, its process dead, the push service away), and give up those older than their TTL;
    how many the push services took. Each is claimed before it is sent, so two senders never
    send it at once; a push sent again after its sender died is one the push service replaces
    (its Topic) and the device shows once (its tag)."""
    stale = now - timedelta(seconds=settings.PUSH_TTL_SECONDS)
    PushDelivery.objects.filter(sent_at__isnull=True, created_at__lt=stale).update(
        sent_at=now, error="expired: not sent within its TTL"
    )
    ids = list(
        PushDelivery.objects.filter(sent_at__isnull=True)
        .order_by("created_at")
        .values_list("pk", flat=True)[:200]
    )
    return sum(_push_one(pk, now) for pk in ids)


def _push_one(delivery_id: int, now: datetime) -> bool:
    patience = now - timedelta(seconds=settings.PUSH_CLAIM_SECONDS)
    claimed = (
        PushDelivery.objects.filter(pk=delivery_id, sent_at__isnull=True)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=patience))
        .update(claimed_at=now, attempts=F("attempts") + 1)
    )
    if not claimed:
        return False
    delivery = PushDelivery.objects.select_related("notification__user", "subscription").get(
        pk=delivery_id
    )
    notification = delivery.notification
    with translation.override(recipient_language(notification.user)):
        payload = {
            "id": notification.pk,
            "kind": notification.kind,
            "title": str(Kind(notification.kind).label),
            "body": notification_text(notification.kind, notification.data),
            "url": settings.SITE_URL.rstrip("/") + (notification.url or "/notifications/"),
            "tag": f"sumito-{notification.pk}",
        }
    outcome = push.send(delivery.subscription, payload, topic=f"n{notification.pk}")
    if outcome.gone:  # the device unsubscribed or the push service expired it: never again
        PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
        return False
    if outcome.sent:
        PushDelivery.objects.filter(pk=delivery_id).update(sent_at=now, error="")
        PushSubscription.objects.filter(pk=delivery.subscription_id).update(last_push_at=now)
        return True
    given_up = not outcome.retry or delivery.attempts >= PUSH_MAX_ATTEMPTS
    logger.warning(
        "push %s not sent (%s)%s", delivery_id, outcome.detail, "" if not given_up else "; given up"
    )
    PushDelivery.objects.filter(pk=delivery_id).update(
        claimed_at=None, error=outcome.detail[:200], sent_at=now if given_up else None
    )
    return False


def push_subscription_save(
    *,
    user: User,
    endpoint: str,
    p256dh: str,
    auth: str,
    kinds: list[str],
    device: str,
    now: datetime,
) -> tuple[PushSubscription, bool]:
    """Keep this device's subscription for ``user`` (a device subscribed before, under another
    account or this one, is taken over: a browser has one subscription per site) with the
    kinds it wants; ``(subscription, created)``. Refused, changing nothing: push is off on this
    site (409), an endpoint that is not a push service's https address, keys that are not a
    device's (RFC 8291) (422), an unknown kind (400)."""
    if not push.enabled():
        raise Conflict(
            gettext("Push notifications are not set up on this site (no VAPID key)."),
            code="push_off",
        )
    if not _push_service_address(endpoint):
        raise Unprocessable(
            gettext("The subscription's endpoint must be a push service's https address."),
            code="invalid_subscription",
        )
    if not valid_device_keys(p256dh, auth):
        raise Unprocessable(
            gettext(
                "The subscription's keys are not a device's: p256dh is its P-256 public key "
                "(65 bytes) and auth a 16-byte secret, both in base64url."
            ),
            code="invalid_subscription",
        )
    kinds = _push_kinds_checked(kinds)
    values = {"user": user, "p256dh": p256dh, "auth": auth, "kinds": kinds}
    values["device"] = device.strip()[:80]
    create = values | {"created_at": now}
    try:
        with transaction.atomic():
            return PushSubscription.objects.update_or_create(
                endpoint=endpoint, defaults=values, create_defaults=create
            )
    except IntegrityError:  # the same device subscribed twice at once: the other one made it
        return PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults=values, create_defaults=create
        )


def _push_service_address(endpoint: str) -> bool:
    """Whether ``endpoint`` is a push service's address: https (http only where allowed, for a
    test's push service), with a host."""
    try:
        address = urlsplit(endpoint)
        host = address.hostname
    except ValueError:  # a malformed address (an unclosed IPv6 bracket, ...)
        return False
    allowed = ("https", "http") if settings.PUSH_ALLOW_HTTP else ("https",)
    plain = len(endpoint) <= 1000 and not any(char.isspace() for char in endpoint)
    return address.scheme in allowed and bool(host) and plain


def push_subscription_update(
    *, user: User, subscription_id: int, kinds: list[str] | None, device: str | None
) -> PushSubscription:
    """Change which kinds a device of ``user`` gets, or its name."""
    subscription = _own_subscription(user, subscription_id)
    if kinds is not None:
        subscription.kinds = _push_kinds_checked(kinds)
    if device is not None:
        subscription.device = device.strip()[:80]
    subscription.save(update_fields=["kinds", "device"])
    return subscription


def push_subscription_delete(*, user: User, subscription_id: int) -> None:
    """Forget a device of ``user`` (the page unsubscribes it in the browser too)."""
    _own_subscription(user, subscription_id).delete()


def _own_subscription(user: User, subscription_id: int) -> PushSubscription:
    subscription = PushSubscription.objects.filter(pk=subscription_id, user=user).first()
    if subscription is None:
        raise NotFound(
            gettext("You have no device %(id)s subscribed to push notifications.")
            % {"id": subscription_id},
            code="unknown_device",
        )
    return subscription


def _push_kinds_checked(kinds: list[str]) -> list[str]:
    unknown = [kind for kind in kinds if kind not in Kind.values]
    if unknown:
        raise InvalidInput(
            gettext("Unknown notification kinds: %(unknown)s.") % {"unknown": ", ".join(unknown)},
            code="invalid_kinds",
        )
    return [kind for kind in Kind.values if kind in kinds]


def _email_wanted(user: User, kind: str) -> bool:
    if not user.email:
        return False
    choice = EmailChoice.objects.filter(user=user).first()
    if choice is None:
        return kind in DEFAULT_EMAIL_KINDS
    return choice.enabled and kind in choice.kinds


def push_notification(notification_id: int) -> None:
    """Send the notification and the unread count to every tab its player has open."""
    notification = Notification.objects.filter(pk=notification_id).select_related("user").first()
    if notification is None:
        return
    # Its text in the recipient's language (their account's), not in that of whoever's request
    # made it; the pages and the API give it in the reader's own.
    with translation.override(recipient_language(notification.user)):
        document = notification_document(notification)
    message = {
        "type": "notification",
        "notification": document,
        "unread": unread_count(notification.user_id),
    }
    _push(notification.user_id, message)


def _push(user_id: int, message: dict) -> None:
    # The socket text is encoded once here; each consumer forwards it as it is.
    send_group(user_group(user_id), {"type": "user.event", "text": encode_json(message).decode()})


def notifications_mark_read(*, user: User, ids: list[int] | None, now: datetime) -> int:
    """Mark ``ids`` (all when empty or None) of ``user`` read; how many changed. Ids that are
    not the player's are refused with nothing changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids:
        wanted = set(ids)
        if len(wanted) > MARK_READ_MAX_IDS:
            raise InvalidInput(
                gettext("Name at most %(mark_read_max_ids)s notifications at once.")
                % {"mark_read_max_ids": MARK_READ_MAX_IDS},
                code="too_many",
            )
        mine = set(
            Notification.objects.filter(user=user, pk__in=wanted).values_list("pk", flat=True)
        )
        foreign = sorted(wanted - mine)
        if foreign:
            shown = ", ".join(str(pk) for pk in foreign[:10])
            raise NotFound(
                gettext("No notification of yours has the id %(shown)s; nothing was marked read.")
                % {"shown": shown},
                code="unknown_notification",
            )
        unread = unread.filter(pk__in=wanted)
    changed = unread.update(read_at=now)
    if changed:  # counted after the commit: two tabs marking at once both push the truth
        after_commit(lambda: push_unread(user.pk), f"player {user.pk}'s unread count")
    return changed


def push_unread(user_id: int) -> None:
    """Send the player's unread count to every tab they have open."""
    _push(user_id, {"type": "unread", "unread": unread_count(user_id)})


def email_choice_update(*, user: User, enabled: bool, kinds: list[str]) -> EmailChoice:
    """Set which notifications ``user`` gets by e-mail (``enabled`` False: none at all)."""
    unknown = sorted(set(kinds) - set(Kind.values))
    if unknown:
        raise InvalidInput(
            gettext("Unknown notification kinds: %(unknown)s.") % {"unknown": ", ".join(unknown)},
            code="bad_kind",
        )
    choice, _ = EmailChoice.objects.update_or_create(
        user=user, defaults={"enabled": enabled, "kinds": sorted(set(kinds))}
    )
    return choice


def email_choice(user: User) -> EmailChoice:
    """The player's e-mail choice (the defaults when never set)."""
    found = EmailChoice.objects.filter(user=user).first()
    return found or EmailChoice(user=user, enabled=True, kinds=list(DEFAULT_EMAIL_KINDS))


def email_send_due(*, now: datetime) -> int:
    """E-mail every wanted notification still unread ``NOTIFICATION_EMAIL_DELAY_SECONDS``
    after it was made (one read on the site in the meantime is not e-mailed); how many were
    sent. Each is claimed (``emailed_at`` set) before it is sent, so two sweeps never send it
    twice; a send that fails is released for the next sweep."""
    due = now - timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY_SECONDS)
    ids = list(
        Notification.objects.filter(
            email_wanted=True, emailed_at__isnull=True, read_at__isnull=True, created__lte=due
        )
        .order_by("created")
        .values_list("pk", flat=True)[:200]
    )
    return sum(_email_one(pk, now) for pk in ids)


def _email_one(notification_id: int, now: datetime) -> bool:
    claimed = Notification.objects.filter(
        pk=notification_id, emailed_at__isnull=True, read_at__isnull=True
    ).update(emailed_at=now)
    if not claimed:
        return False
    notification = Notification.objects.select_related("user").get(pk=notification_id)
    # In the recipient's language (their account's choice), whoever's request made it.
    with translation.override(recipient_language(notification.user)):
        text = notification_text(notification.kind, notification.data)
        why = gettext(
            "You get this e-mail because you chose it in your notification settings: %(url)s"
        ) % {"url": f"{settings.SITE_URL.rstrip('/')}/notifications/settings/"}
    link = settings.SITE_URL.rstrip("/") + (notification.url or "/notifications/")
    try:
        send_mail(
            subject=f"[Sumito] {text[:90]}",
            message=f"{text}\n\n{link}\n\n{why}",
            from_email=None,
            recipient_list=[notification.user.email],
        )
    except Exception:
        logger.exception("could not e-mail notification %s; retried later", notification_id)
        Notification.objects.filter(pk=notification_id).update(emailed_at=None)
        return False
    return True
