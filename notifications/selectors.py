"""Reads of notifications."""

from __future__ import annotations

from django.db.models import QuerySet

from notifications.models import Notification
from notifications.texts import notification_text


def notifications_of(user_id: int) -> QuerySet[Notification]:
    """A player's notifications, newest first."""
    return Notification.objects.filter(user_id=user_id).order_by("-created", "-id")


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notification_document(notification: Notification) -> dict:
    """A notification as the API, the socket and the page give it."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "created": notification.created.isoformat().replace("+00:00", "Z"),
        "read": notification.read_at is not None,
        "text": notification_text(notification.kind, notification.data),
        "url": notification.url or None,
        "subjects": notification.data,
    }
