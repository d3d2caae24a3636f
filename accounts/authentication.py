"""API token authentication: ``Authorization: Token <key>`` (or ``Bearer <key>``)."""

from functools import cache

from django.db import connection
from django.utils import timezone
from rest_framework import authentication, exceptions

from abalone_site import sql

from .models import ApiToken, User, hash_token_key


@cache
def _token_query() -> str:
    # Every API call reads its token and user: one plain-SQL query (see abalone_site.sql).
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
                "Malformed Authorization header: expected 'Token <key>'."
            )
        found = token_and_user(header[1].decode(errors="replace"))
        if found is None or not found[1].is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        token, user = found
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return user, token

    def authenticate_header(self, request):
        return "Token"
