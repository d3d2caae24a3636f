"""API of two-player games: challenges, games, their moves and actions, the computer."""

from django.urls import path

from games import api, computer_api

urlpatterns = [
    path("challenges/", api.ChallengeListView.as_view(), name="api-challenges"),
    path(
        "challenges/<int:challenge_id>/",
        api.ChallengeDetailView.as_view(),
        name="api-challenge",
    ),
    path(
        "challenges/<int:challenge_id>/accept/",
        api.ChallengeAcceptView.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        api.ChallengeDeclineView.as_view(),
        name="api-challenge-decline",
    ),
    path("games/", api.GameListView.as_view(), name="api-games"),
    path("me/vacation/", api.VacationView.as_view(), name="api-vacation"),
    path("computer/levels/", computer_api.ComputerLevelsView.as_view(), name="api-computer-levels"),
    path("computer/games/", computer_api.ComputerGameView.as_view(), name="api-computer-games"),
    path("games/<int:game_id>/", api.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/moves/", api.GameMoveView.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/chat/", api.GameChatView.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/premoves/", api.GamePremoveView.as_view(), name="api-game-premoves"),
    path(
        "games/<int:game_id>/conditional/",
        api.GameConditionalView.as_view(),
        name="api-game-conditional",
    ),
    path(
        "games/<int:game_id>/chat/mute/",
        api.GameChatMuteView.as_view(),
        name="api-game-chat-mute",
    ),
    path("games/<int:game_id>/rematch/", api.GameRematchView.as_view(), name="api-game-rematch"),
]
urlpatterns += [
    path(
        f"games/<int:game_id>/{action}/",
        api.GameActionView.as_view(action=action),
        name=f"api-game-{action}",
    )
    for action in api.GameActionView.ACTIONS
]
