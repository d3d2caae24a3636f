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

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from core.errors import InvalidInput, NotFound
from core.languages import recipient_language
from core.live import after_commit, send_group, user_group
from core.renderers import encode_json
from notifications.models import DEFAULT_EMAIL_KINDS, EmailChoice, Kind, Notification
from notifications.selectors import notification_document, unread_count
from notifications.texts import notification_text

logger = logging.getLogger(__name__)

#: The most ids one "mark read" request may name.
MARK_READ_MAX_IDS = 500


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
    return notification


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
