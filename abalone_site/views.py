from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club
from core.api_errors import json_not_found, json_server_error

from . import home as home_reads


def home(request):
    """The home page: for a player, what is happening for them; for everyone, what is
    happening on the site. ``?part=live`` answers only the part that changes, which the page
    fetches again when the player's socket says something happened (static/js/home.js)."""
    now = timezone.now()
    user = request.user
    context = {"live_games": home_reads.live_games(now=now)}
    if user.is_authenticated:
        received, made = home_reads.my_challenges(user, now=now)
        context |= {
            "my_games": home_reads.my_games(user, now=now),
            "challenges_received": received,
            "challenges_made": made,
            "next_rounds": home_reads.my_next_rounds(user),
            "club_tournaments": home_reads.club_tournaments_soon(user, now=now),
            "results": home_reads.my_results(user),
        }
    else:
        context |= {
            "tournaments": home_reads.tournaments_upcoming_and_running(),
            "leaders": home_reads.leaderboard_top(now=now),
            "player_count": User.objects.filter(is_active=True).count(),
            "club_count": Club.objects.count(),
        }
    if request.GET.get("part") == "live":
        return render(request, "home_live.html", context)
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


def favicon(request):
    """``/favicon.ico``: browsers, bookmarks and feed readers ask the root for it whatever a
    page links (base.html links the SVG and this). Served from the static files, cached a day."""
    path = finders.find("img/favicon.ico")
    if path is None:
        raise Http404(_("No favicon."))
    response = HttpResponse(Path(path).read_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return json_not_found(request, exception)
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request):
    """The 500 page, drawn without the request (as Django's own): the failure may be the
    database or the session, which the header's user and bell would read again."""
    if request.path.startswith("/api/"):
        return json_server_error(request)
    return HttpResponseServerError(render_to_string("500.html"))
