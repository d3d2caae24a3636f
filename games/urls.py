"""Pages of two-player games: the lobby, the computer's form, challenges, a game, and the rules."""

from django.urls import path

from games import computer_views, rules_page, views

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/vacation/", views.vacation, name="vacation"),
    path("play/computer/", computer_views.computer_game, name="computer-game"),
    path(
        "challenges/<int:challenge_id>/<str:action>/",
        views.challenge_action,
        name="challenge-action",
    ),
    path("games/<int:game_id>/", views.game_detail, name="game-detail"),
    path("rules/", rules_page.rules_page, name="rules"),
    path("rules/<str:lang>/", rules_page.rules_page, name="rules-language"),
]
