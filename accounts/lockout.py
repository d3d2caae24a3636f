"""Password logins refused after repeated failures (django-axes), and how the owner lifts it.

django-axes counts failed logins in the database (``axes_accessattempt``), per account (by its
username, any case) and per client address. After ``AXES_FAILURE_LIMIT`` failures of either,
logins are refused with 429 until ``AXES_COOLOFF_TIME`` has passed. A lockout of an account
(which anyone can cause by guessing) is lifted when its owner resets the password by e-mail
(:func:`lift`, called by the password reset page).
"""

from __future__ import annotations

from axes.utils import reset
from django.conf import settings
from django.shortcuts import render

from core.throttle import client_ip as _client_ip


def username_of(request, credentials: dict | None) -> str | None:
    """The username tried, as accounts are matched: ignoring case and spaces."""
    name = (credentials or {}).get("username") or request.POST.get("username")
    return name.strip().lower() if name else None


def client_ip(request) -> str:
    return _client_ip(request)


def lockout_response(request, credentials=None, *args, **kwargs):
    """The page (429, ``Retry-After``) a locked-out login gets: it says how to lift it."""
    cooloff = int(settings.AXES_COOLOFF_TIME.total_seconds())
    response = render(
        request,
        "registration/locked_out.html",
        {"minutes": max(1, cooloff // 60)},
        status=429,
    )
    response["Retry-After"] = str(cooloff)
    return response


def lift(username: str) -> None:
    """Forget the failed logins of ``username`` (its owner has just reset the password)."""
    reset(username=username.strip().lower())
