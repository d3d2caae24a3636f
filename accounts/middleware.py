"""The language the player chose on their account wins over the cookie and Accept-Language.

Django's ``LocaleMiddleware`` has already picked a language from the ``django_language`` cookie
or the Accept-Language header (or English); once ``AuthenticationMiddleware`` knows the user,
this switches to the account's language when one is set. ``LocaleMiddleware`` then names the
active language in the response's ``Content-Language`` (docs/languages.md).
"""

from django.utils import translation

from core.languages import account_language


class AccountLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = account_language(getattr(request, "user", None))
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
