"""The API (``/api/v1/``): each app's ``api_urls``."""

from django.urls import include, path

urlpatterns = [
    path("", include("accounts.api_urls")),
    path("", include("notifications.api_urls")),
    path("", include("games.api_urls")),
    path("clubs/", include("clubs.api_urls")),
    path("tournaments/", include("tournaments.api_urls")),
    path("teams/", include("teams.api_urls")),
    path("leagues/", include("leagues.api_urls")),
    path("archive/", include("archive.api_urls")),
    path("ratings/", include("ratings.api_urls")),
    path("tables/", include("multiplayer.api_urls")),
    path("analysis/", include("analysis.api_urls")),
    path("bot/", include("bots.api_urls")),
    path("pools/", include("pools.api_urls")),
]
