"""How often one address, account or player may do a thing: throttles, counted in the cache.

Counted by django-ratelimit in the site's cache (Redis in production, the process's memory in
the embedded default, which is one process), each against a rate of :data:`RATES` (settings
``THROTTLE_RATES``). Over the rate, :class:`TooManyRequests` is raised: 429 with
``Retry-After``, as JSON on the API (``api_errors``) and as a page elsewhere
(``middleware.ServiceErrorPageMiddleware``). A cache that cannot be reached counts nothing and
refuses nothing (logged): a Redis outage must not lock everyone out.

Password logins are guarded by django-axes instead (``accounts/lockout.py``): a lockout per
account and per address, kept in the database, which the account's owner lifts by resetting
the password.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from core.errors import ServiceError

logger = logging.getLogger(__name__)


class TooManyRequests(ServiceError):
    status = 429
    code = "too_many_requests"

    def __init__(self, detail: str, *, retry_after: int):
        super().__init__(detail)
        self.retry_after = max(1, int(retry_after))


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or, behind ``TRUSTED_PROXIES`` proxies (each
    appending the address it saw to ``X-Forwarded-For``), the address the outermost one saw."""
    trusted = settings.TRUSTED_PROXIES
    if trusted:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= trusted:
            return forwarded[-trusted]
    return request.META.get("REMOTE_ADDR", "")


def usage(request, scope: str, key: str, *, increment: bool) -> dict | None:
    """django-ratelimit's count of ``key`` in ``scope`` (None: not counted)."""
    try:
        return get_usage(
            request,
            group=scope,
            key=lambda _group, _request: key,
            rate=settings.THROTTLE_RATES[scope],
            increment=increment,
        )
    except Exception as error:  # the cache is unreachable: fail open
        logger.warning("throttle %s not counted: the cache is unreachable (%r)", scope, error)
        return None


def throttle(request, scope: str, key: str, *, what: str, increment: bool = True) -> None:
    """Count one ``what`` for ``key`` in ``scope`` (or only look, ``increment=False``); raise
    :class:`TooManyRequests` when over the scope's rate."""
    counted = usage(request, scope, key, increment=increment)
    if counted is not None and counted["should_limit"]:
        wait = counted["time_left"]
        raise TooManyRequests(
            _("Too many %(what)s: %(limit)s are allowed per %(period)s. Try again in %(wait)s s.")
            % {
                "what": what,
                "limit": counted["limit"],
                "period": settings.THROTTLE_RATES[scope].split("/", 1)[1],
                "wait": max(1, wait),
            },
            retry_after=wait,
        )
