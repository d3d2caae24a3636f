"""Reads of notifications."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import QuerySet

from core.push_keys import public_key
from notifications import push
from notifications.models import DEFAULT_PUSH_KINDS, Kind, Notification, PushSubscription
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


def push_settings_document(user_id: int) -> dict:
    """What the settings page and the API show of Web Push: whether the site can push, the
    public key a browser subscribes with, the kinds a device may choose (with the defaults) and
    the player's devices."""
    devices = PushSubscription.objects.filter(user_id=user_id).order_by("created_at", "pk")
    return {
        "enabled": push.enabled(),
        "public_key": public_key(settings.VAPID_PRIVATE_KEY) if push.enabled() else None,
        "kinds": [
            {"kind": kind.value, "label": str(kind.label), "default": kind in DEFAULT_PUSH_KINDS}
            for kind in Kind
        ],
        "devices": [push_device_document(device) for device in devices],
    }


def push_device_document(device) -> dict:
    return {
        "id": device.pk,
        "device": device.device,
        "kinds": device.kinds,
        "push_service": urlsplit(device.endpoint).hostname or "",
        "endpoint": device.endpoint,
        "created_at": device.created_at,
        "last_push_at": device.last_push_at,
    }
