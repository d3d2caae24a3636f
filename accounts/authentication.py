"""API token authentication: ``Authorization: Token <key>`` (or ``Bearer <key>``)."""

from django.utils import timezone
from rest_framework import authentication, exceptions

from .models import ApiToken, hash_token_key


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
        key = header[1].decode(errors="replace")
        token = ApiToken.objects.select_related("user").filter(key_hash=hash_token_key(key)).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request):
        return "Token"
