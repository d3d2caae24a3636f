"""Request checks that no view should have to repeat."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from .errors import ServiceError

NUL_DETAIL = gettext_lazy(
    "The query string holds a NUL character (%00), which no parameter may contain."
)


class RejectNulInQueryMiddleware:
    """A 400 for a query string with a NUL character, before any view runs.

    Views read search and filter parameters straight from the query string, and PostgreSQL
    refuses text with a NUL in it: without this, ``?search=%00`` was a 500 wherever such a
    parameter reaches a query. (Forms and API bodies are already refused by Django's and DRF's
    own NUL validators.) A NUL can only arrive percent-encoded, so the raw string is enough.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "%00" in request.META.get("QUERY_STRING", ""):
            if request.path.startswith("/api/"):
                return JsonResponse({"error": "malformed", "detail": NUL_DETAIL}, status=400)
            return render(request, "400.html", {"detail": NUL_DETAIL}, status=400)
        return self.get_response(request)


class ServiceErrorPageMiddleware:
    """A page whose view lets a :class:`ServiceError` escape shows it as an error page.

    Services and selectors refuse with these errors (``NotFound`` for a player or a board that
    does not exist, ``NotAllowed``...); the API turns them into JSON (``api_errors``), and this
    turns them into the page of their status, with the message, so a view need not catch a
    refusal it has nothing to add to.
    """

    TEMPLATES = {403: "403.html", 404: "404.html", 429: "429.html"}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, ServiceError) or request.path.startswith("/api/"):
            return None
        template = self.TEMPLATES.get(exception.status, "400.html")
        context = {"detail": exception.detail, "path": request.path}
        response = render(request, template, context, status=exception.status)
        retry_after = getattr(exception, "retry_after", None)
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
