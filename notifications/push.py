"""Sending one Web Push (RFC 8030) to one device: the payload encrypted for the device
(RFC 8291, ``aes128gcm``) and the request signed with the site's VAPID key (RFC 8292), both by
``pywebpush`` (the web-push-libs project's Python library, on ``cryptography``). What to send,
when, and what to do with the answer is :mod:`notifications.services`'."""

from __future__ import annotations

import json
from dataclasses import dataclass

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from notifications.models import PushSubscription

#: The push service's answers that end a subscription: it expired or was withdrawn.
GONE = (404, 410)
#: Answers that sending again would not change: a request the push service refuses as such.
REFUSED = (400, 401, 403, 413)


@dataclass(frozen=True)
class Outcome:
    """``sent``: the push service took it; ``gone``: the subscription is no more; ``retry``:
    try again later; ``detail``: what went wrong."""

    sent: bool = False
    gone: bool = False
    retry: bool = False
    detail: str = ""


def enabled() -> bool:
    """Whether the site can push: it has a VAPID key."""
    return bool(settings.VAPID_PRIVATE_KEY)


def send(subscription: PushSubscription, payload: dict, *, topic: str) -> Outcome:
    """Push ``payload`` (JSON) to ``subscription``'s device. ``topic`` (RFC 8030 5.4, at most
    32 base64url characters) lets the push service replace a copy of the same push it still
    holds, so a push sent again reaches the device once."""
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # a new dict: the library adds to it
            ttl=settings.PUSH_TTL_SECONDS,
            headers={"Topic": topic, "Urgency": "normal"},
            timeout=settings.PUSH_TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        detail = f"{status or 'no answer'}: {str(error)[:150]}"
        if status in GONE:
            return Outcome(gone=True, detail=detail)
        return Outcome(retry=status not in REFUSED, detail=detail)
    except requests.RequestException as error:
        return Outcome(retry=True, detail=f"unreachable: {str(error)[:150]}")
    return Outcome(sent=True)
