"""OpenAPI description of the API token scheme (loaded by AccountsConfig.ready)."""

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>` with a key created on your profile page.",
        }


class GuestSessionScheme(SessionScheme):
    """A visitor playing the computer without an account: the browser session's cookie, as a
    logged-in player's, for their own games' moves and actions only."""

    target_class = "accounts.authentication.GuestSessionAuthentication"
    name = "guestCookieAuth"

    def get_security_definition(self, auto_schema):
        return {
            **super().get_security_definition(auto_schema),
            "description": "A visitor's guest session (games against the computer only).",
        }
