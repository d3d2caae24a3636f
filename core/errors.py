"""Domain errors meant for the user.

Services raise these when input is bad or an action is not allowed; the API turns them into
``{"error": code, "detail": message}`` with the status below, the pages into a message or form
error. Anything else that escapes is a bug (a 500).

The rules engine's own errors (``core.messages``) carry English templates that the
catalogues translate: :func:`engine_text` gives one in the active language.
"""

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format
from django.utils.translation import gettext


def local_number(text: str) -> str:
    """A decimal number written the active language's way ("1.5" -> "1,5" in German)."""
    try:
        return number_format(Decimal(text))
    except (InvalidOperation, ValueError):
        return text


def engine_text(error: object) -> str:
    """The message of a rules-engine error, or a pure engine's ``Text``, in the active language
    (its English template and named values through the catalogues, its numbers written the
    language's way); any other exception's text as it is."""
    render = getattr(error, "render", None)
    return render(gettext, local_number) if callable(render) else str(error)


class ServiceError(Exception):
    """A user-facing refusal: nothing was changed."""

    status = 400
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None):
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code


class InvalidInput(ServiceError):
    status = 400
    code = "invalid"


class NotAllowed(ServiceError):
    status = 403
    code = "permission_denied"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class Unprocessable(ServiceError):
    """Well-formed input that breaks a rule no schema can state: a move that the position does
    not allow, fields that contradict each other (HTTP 422)."""

    status = 422
    code = "unprocessable"
