"""One error shape for the whole API: ``{"error": code, "detail": message}``."""

import logging

from django import db
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ServiceError

logger = logging.getLogger(__name__)


def flatten_detail(detail) -> str:
    """Turn DRF's nested validation detail into one readable sentence naming the fields."""
    if isinstance(detail, dict):
        parts = []
        for field, value in detail.items():
            text = flatten_detail(value)
            parts.append(text if field == "non_field_errors" else f"{field}: {text}")
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(flatten_detail(item) for item in detail)
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, (db.OperationalError, db.InterfaceError)):
        # The connection to the database died under the request (a restart, a failover, an
        # administrator's kill): the request's transaction did not commit, or its commit was
        # not confirmed. The client is told so, and to look again; the next request gets a
        # connection the pool has checked (CONN_HEALTH_CHECKS).
        logger.warning("database connection lost during %s", context.get("request"), exc_info=exc)
        response = Response(
            {
                "error": "database_unavailable",
                "detail": _(
                    "The connection to the database was lost during this request, which may "
                    "not have been saved: fetch the current state and try again."
                ),
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, ServiceError):
        response = Response({"error": exc.code, "detail": exc.detail}, status=exc.status)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or _("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        body = {"error": "invalid", "detail": flatten_detail(exc.detail), "fields": exc.detail}
    elif isinstance(exc, exceptions.ParseError):
        body = {"error": "malformed", "detail": flatten_detail(exc.detail)}
    else:
        code = getattr(exc, "default_code", "error")
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        body = {"error": code, "detail": flatten_detail(detail)}
    response.data = body
    return response


def json_not_found(request, exception=None):
    return JsonResponse(
        {
            "error": "not_found",
            "detail": _("No API endpoint at %(path)s.") % {"path": request.path},
        },
        status=status.HTTP_404_NOT_FOUND,
    )


def json_server_error(request):
    return JsonResponse(
        {"error": "server_error", "detail": _("The server failed; the error was logged.")},
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
