"""Rating API: ratings, history, leaderboards."""

from django.urls import path

from . import api

urlpatterns = [
    path("leaderboard/", api.LeaderboardView.as_view(), name="api-rating-leaderboard"),
    path("players/<str:username>/", api.PlayerRatingsView.as_view(), name="api-rating-player"),
]
