import hashlib
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _

from core.api_errors import json_not_found, json_server_error


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


# --- the installable app (docs/notifications.md, "The installable app") -----------------------------


def web_manifest(request):
    """``/manifest.webmanifest``: the site as an app a phone or a laptop installs (W3C Web
    Application Manifest): its name, its icons (served by the site), opened at the home page."""
    manifest = {
        "name": "Sumito",
        "short_name": "Sumito",
        "description": _("Abalone clubs, tournaments and rated games"),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f1e7",
        "theme_color": "#2b2118",
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-512-maskable.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def service_worker(request):
    """``/sw.js``: the service worker, at the root so that it controls every page: the offline
    page when the network is gone, and the pushes of Web Push shown as notifications."""
    kept = "".join(static(name) for name in ("css/site.css", "img/favicon.svg", "img/icon-192.png"))
    version = hashlib.sha256(f"{kept}{request.LANGUAGE_CODE}".encode()).hexdigest()[:12]
    response = render(
        request, "pwa/sw.js", {"version": version}, content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


def offline(request):
    """``/offline/``: what a page shows when the network is gone (the service worker keeps it)."""
    return render(request, "pwa/offline.html")
