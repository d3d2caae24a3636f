"""Which of the site's languages a player asked for (reads only)."""

from http.cookies import SimpleCookie

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def supported(language: str) -> bool:
    """Whether ``language`` is one of the site's languages (``settings.LANGUAGES``)."""
    return language in {code for code, _name in settings.LANGUAGES}


def account_language(user) -> str:
    """The language chosen on ``user``'s account, or "" (anonymous, or not chosen)."""
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "")
    return language if language and supported(language) else ""


def recipient_language(user) -> str:
    """The language to write to ``user`` in when no request says (e-mails, background jobs):
    their account's choice, else the site's default."""
    return account_language(user) or settings.LANGUAGE_CODE


def socket_language(scope) -> str:
    """The language of a WebSocket's messages, chosen as a page's is (accounts.middleware):
    the account's choice, else the language cookie, else ``Accept-Language``, else the
    site's default. ``scope``: the connection's ASGI scope, its user already resolved."""
    chosen = account_language(scope.get("user"))
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or ())
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
    except Exception:  # a malformed cookie header: as if there were none
        cookies = SimpleCookie()
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie is not None and supported(cookie.value):
        return cookie.value
    accepted = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accepted):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
