"""The player's pages: the home page, the list of players, a player's page."""

from django.urls import path

from players import views

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.player_list, name="player-list"),
    path("players/<str:username>/", views.player_detail, name="player-detail"),
]
