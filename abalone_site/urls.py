"""The site's pages: each app's own ``urls`` and, under ``/api/v1/``, its ``api_urls``; the
site's own few (health, favicon, the translations for scripts, the API's schema and docs)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from leagues import views as league_views
from teams import views as team_views

from . import views

handler404 = "abalone_site.views.not_found"
handler500 = "abalone_site.views.server_error"

urlpatterns = [
    path("healthz", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("manifest.webmanifest", views.web_manifest, name="web-manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline/", views.offline, name="offline"),
    path("admin/", admin.site.urls),
    # The translations the scripts use, served as a script file (docs/languages.md). Every
    # page loads it: kept an hour by the browser, per language (LocaleMiddleware's Vary).
    path(
        "jsi18n/",
        cache_control(max_age=3600, private=True)(JavaScriptCatalog.as_view()),
        name="javascript-catalog",
    ),
    path("", include("players.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    # a club's teams (teams stands above clubs: the clubs' own urls do not import it)
    path("clubs/<slug:slug>/teams/", team_views.club_teams, name="club-teams"),
    path("clubs/<slug:club_slug>/leagues/new/", league_views.league_create, name="league-create"),
    path("clubs/", include("clubs.urls")),
    path("archive/", include("archive.urls")),
    path("tables/", include("multiplayer.urls")),
    path("analysis/", include("analysis.urls")),
    path("notifications/", include("notifications.urls")),
    path("ratings/", include("ratings.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("teams/", include("teams.urls")),
    path("leagues/", include("leagues.urls")),
    path("api/v1/", include("abalone_site.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file (the CSP allows no inline script);
    # Swagger UI injects one style element, the one inline thing the site allows, here only.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
]
