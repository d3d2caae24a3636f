"""API of accounts: who I am, my tokens, and the players."""

from django.urls import path

from accounts import api

urlpatterns = [
    path("me/", api.MeView.as_view(), name="api-me"),
    path("me/tokens/", api.TokenListView.as_view(), name="api-tokens"),
    path("me/tokens/<int:token_id>/", api.TokenDetailView.as_view(), name="api-token"),
    path("players/", api.PlayerListView.as_view(), name="api-players"),
    path("players/<str:username>/", api.PlayerDetailView.as_view(), name="api-player"),
]
