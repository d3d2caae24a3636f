"""Request checks that no view should have to repeat."""

from django.http import JsonResponse
from django.shortcuts import render

NUL_DETAIL = "The query string holds a NUL character (%00), which no parameter may contain."


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
