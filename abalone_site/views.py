from django.db.models import Count
from django.http import JsonResponse
from django.shortcuts import render

from accounts.models import User
from clubs.models import Club

from .api_errors import json_not_found, json_server_error


def home(request):
    clubs = Club.objects.annotate(member_count=Count("memberships")).order_by("-member_count")[:8]
    context = {
        "clubs": clubs,
        "player_count": User.objects.filter(is_active=True).count(),
        "club_count": Club.objects.count(),
        "my_clubs": (
            request.user.memberships.select_related("club")
            if request.user.is_authenticated
            else None
        ),
    }
    return render(request, "home.html", context)


def health(request):
    """For the supervisor's and the load balancer's health checks: 200 when this process can
    serve (the database answers), 503 when it cannot. Redis is reported, not required: without
    it the site still serves, with live updates and background jobs delayed."""
    checks = {"database": _database_ok(), "redis": _redis_ok()}
    status = 200 if checks["database"] == "ok" else 503
    return JsonResponse(
        {"status": "ok" if status == 200 else "unavailable", **checks}, status=status
    )


def _database_ok() -> str:
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception:  # noqa: BLE001 - any failure means: cannot serve
        return "down"


def _redis_ok() -> str:
    from django.conf import settings

    if settings.EMBEDDED:
        return "not used"
    from django.core.cache import cache

    try:
        cache.get("sumito-health")
        return "ok"
    except Exception:  # noqa: BLE001 - reported, not required
        return "down"


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return json_not_found(request, exception)
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request):
    if request.path.startswith("/api/"):
        return json_server_error(request)
    return render(request, "500.html", status=500)
