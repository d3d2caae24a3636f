from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as accounts_views
from clubs import views as clubs_views
from games import computer_views
from games import views as games_views
from ratings import views as ratings_views

from . import rules, views

handler404 = "abalone_site.views.not_found"
handler500 = "abalone_site.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # Languages: the switcher (Django's set_language, kept on the account too) and the
    # translations the scripts use, served as a script file (docs/languages.md).
    path("i18n/setlang/", accounts_views.language_set, name="set_language"),
    # Every page loads it: kept an hour by the browser, per language (LocaleMiddleware's Vary).
    path(
        "jsi18n/",
        cache_control(max_age=3600, private=True)(JavaScriptCatalog.as_view()),
        name="javascript-catalog",
    ),
    # Accounts
    path("accounts/signup/", accounts_views.signup, name="signup"),
    path("accounts/profile/", accounts_views.profile, name="profile"),
    path("accounts/tokens/", accounts_views.token_create, name="token-create"),
    path(
        "accounts/tokens/<int:token_id>/revoke/", accounts_views.token_revoke, name="token-revoke"
    ),
    # Django's own account pages, but for the throttled reset and the reset that lifts a lockout
    path(
        "accounts/password_reset/",
        accounts_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("players/", accounts_views.player_list, name="player-list"),
    path("players/<str:username>/", ratings_views.player_detail, name="player-detail"),
    # Clubs
    path("clubs/", clubs_views.club_list, name="club-list"),
    path("clubs/new/", clubs_views.club_create, name="club-create"),
    path("clubs/<slug:slug>/", clubs_views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/edit/", clubs_views.club_edit, name="club-edit"),
    path("clubs/<slug:slug>/<str:action>/", clubs_views.club_action, name="club-action"),
    # Games
    path("play/", games_views.lobby, name="lobby"),
    path("play/computer/", computer_views.computer_game, name="computer-game"),
    path(
        "challenges/<int:challenge_id>/<str:action>/",
        games_views.challenge_action,
        name="challenge-action",
    ),
    path("games/<int:game_id>/", games_views.game_detail, name="game-detail"),
    path("archive/", include("archive.urls")),
    path("rules/", include(rules.urlpatterns)),
    path("tables/", include("multiplayer.urls")),
    path("analysis/", include("analysis.urls")),
    path("notifications/", include("notifications.urls")),
    path("ratings/", include("ratings.urls")),
    # Tournaments
    path("tournaments/", include("tournaments.urls")),
    # API
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
