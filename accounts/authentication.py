"""API token authentication: ``Authorization: Token <key>`` (or ``Bearer <key>``).

Failed attempts are counted per client address (``THROTTLE_RATES["token-failures"]``); an
address over the rate gets 429 with ``Retry-After`` instead of 401 for every bad token until the
window ends, answered by this process without the cache. A valid token is never refused: many
clients may share an address (a NAT), and one of them guessing must not lock the others out.
Only failures touch the cache: a valid token costs nothing more (every scripted move comes
this way).
"""

import threading
import time
from functools import cache

from django.db import connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from core import sql
from core.languages import account_language
from core.throttle import TooManyRequests, client_ip, usage

from .models import ApiToken, User, hash_token_key


@cache
def _token_query() -> str:
    # Every API call reads its token and user: one plain-SQL query (see core.sql).
    return (
        f"SELECT {sql.columns(ApiToken, 't')}, {sql.columns(User, 'u')} "
        f"FROM {ApiToken._meta.db_table} t "
        f"JOIN {User._meta.db_table} u ON u.id = t.user_id WHERE t.key_hash = %s"
    )


def token_and_user(key: str) -> tuple[ApiToken, User] | None:
    """The token whose key is ``key`` and its user, or None."""
    with connection.cursor() as cursor:
        cursor.execute(_token_query(), [hash_token_key(key)])
        row = cursor.fetchone()
    if row is None:
        return None
    token, token.user = sql.instances(row, ApiToken, User)
    return token, token.user


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keywords = ("token", "bearer")

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Malformed Authorization header: expected 'Token <key>'.")
            )
        found = token_and_user(header[1].decode(errors="replace"))
        if found is None or not found[1].is_active:
            address = client_ip(request)
            _refuse_if_throttled(address)
            _count_failure(request, address)
            raise exceptions.AuthenticationFailed(_("Invalid or revoked API token."))
        token, user = found
        # The account's language, as the session's middleware does for logged-in pages
        # (accounts.middleware): a script's errors read as its owner chose.
        language = account_language(user)
        if language:
            translation.activate(language)
            request._request.LANGUAGE_CODE = language
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return user, token

    def authenticate_header(self, request):
        return "Token"


# Addresses this process refuses until the given monotonic time (they went over the rate).
_refused: dict[str, float] = {}
_refused_lock = threading.Lock()


def _refuse_if_throttled(address: str) -> None:
    with _refused_lock:
        until = _refused.get(address)
        if until is not None and until <= time.monotonic():
            del _refused[address]
            until = None
    if until is not None:
        wait = int(until - time.monotonic()) + 1
        raise TooManyRequests(
            _("Too many failed API token attempts from your address. Try again in %(wait)s s.")
            % {"wait": wait},
            retry_after=wait,
        )


def _count_failure(request, address: str) -> None:
    counted = usage(request, "token-failures", address, increment=True)
    if counted is not None and counted["should_limit"]:
        with _refused_lock:
            _refused[address] = time.monotonic() + max(1, counted["time_left"])
        _refuse_if_throttled(address)


class GuestSessionAuthentication(authentication.SessionAuthentication):
    """A visitor playing the computer as this browser session's guest (``accounts.guests``),
    for the few API views that list it: the guest's moves and actions on their own games. The
    session's CSRF check applies, as for a logged-in player."""

    def authenticate(self, request):
        from .guests import guest_of

        guest = guest_of(request._request)
        if guest is None:
            return None
        self.enforce_csrf(request)
        return guest, None
