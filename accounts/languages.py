"""Which of the site's languages a player asked for (reads only)."""

from django.conf import settings


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
