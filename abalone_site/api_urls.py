from django.urls import include, path

from accounts import api as accounts_api
from clubs import api as clubs_api
from games import api as games_api
from games import computer_api
from notifications import api as notifications_api
from tournaments import actions as tournament_actions
from tournaments import api as tournaments_api

urlpatterns = [
    path("archive/", include("archive.api_urls")),
    path("ratings/", include("ratings.api_urls")),
    path("tables/", include("multiplayer.api_urls")),
    path("analysis/", include("analysis.api_urls")),
    path("bot/", include("bots.api_urls")),
    path("me/", accounts_api.MeView.as_view(), name="api-me"),
    path(
        "me/notifications/",
        notifications_api.NotificationListView.as_view(),
        name="api-notifications",
    ),
    path(
        "me/notifications/read/",
        notifications_api.NotificationReadView.as_view(),
        name="api-notifications-read",
    ),
    path("me/tokens/", accounts_api.TokenListView.as_view(), name="api-tokens"),
    path("me/tokens/<int:token_id>/", accounts_api.TokenDetailView.as_view(), name="api-token"),
    path("players/", accounts_api.PlayerListView.as_view(), name="api-players"),
    path("players/<str:username>/", accounts_api.PlayerDetailView.as_view(), name="api-player"),
    path("clubs/", clubs_api.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<slug:slug>/", clubs_api.ClubDetailView.as_view(), name="api-club"),
    path("clubs/<slug:slug>/join/", clubs_api.ClubJoinView.as_view(), name="api-club-join"),
    path("clubs/<slug:slug>/leave/", clubs_api.ClubLeaveView.as_view(), name="api-club-leave"),
    path(
        "clubs/<slug:slug>/transfer/",
        clubs_api.ClubTransferView.as_view(),
        name="api-club-transfer",
    ),
    path(
        "clubs/<slug:slug>/members/",
        clubs_api.ClubMemberListView.as_view(),
        name="api-club-members",
    ),
    path(
        "clubs/<slug:slug>/members/<str:username>/",
        clubs_api.ClubMemberDetailView.as_view(),
        name="api-club-member",
    ),
    path(
        "clubs/<slug:slug>/members/<str:username>/promote/",
        clubs_api.ClubMemberRoleView.as_view(change="promote"),
        name="api-club-member-promote",
    ),
    path(
        "clubs/<slug:slug>/members/<str:username>/demote/",
        clubs_api.ClubMemberRoleView.as_view(change="demote"),
        name="api-club-member-demote",
    ),
    path(
        "clubs/<slug:slug>/requests/",
        clubs_api.ClubRequestListView.as_view(),
        name="api-club-requests",
    ),
    path(
        "clubs/<slug:slug>/requests/<int:request_id>/approve/",
        clubs_api.ClubRequestDecisionView.as_view(decision="approve"),
        name="api-club-request-approve",
    ),
    path(
        "clubs/<slug:slug>/requests/<int:request_id>/decline/",
        clubs_api.ClubRequestDecisionView.as_view(decision="decline"),
        name="api-club-request-decline",
    ),
    path("challenges/", games_api.ChallengeListView.as_view(), name="api-challenges"),
    path(
        "challenges/<int:challenge_id>/",
        games_api.ChallengeDetailView.as_view(),
        name="api-challenge",
    ),
    path(
        "challenges/<int:challenge_id>/accept/",
        games_api.ChallengeAcceptView.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        games_api.ChallengeDeclineView.as_view(),
        name="api-challenge-decline",
    ),
    path("games/", games_api.GameListView.as_view(), name="api-games"),
    path("computer/levels/", computer_api.ComputerLevelsView.as_view(), name="api-computer-levels"),
    path("computer/games/", computer_api.ComputerGameView.as_view(), name="api-computer-games"),
    path("games/<int:game_id>/", games_api.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/moves/", games_api.GameMoveView.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/chat/", games_api.GameChatView.as_view(), name="api-game-chat"),
    path(
        "games/<int:game_id>/premoves/",
        games_api.GamePremoveView.as_view(),
        name="api-game-premoves",
    ),
    path(
        "games/<int:game_id>/chat/mute/",
        games_api.GameChatMuteView.as_view(),
        name="api-game-chat-mute",
    ),
    path(
        "games/<int:game_id>/rematch/",
        games_api.GameRematchView.as_view(),
        name="api-game-rematch",
    ),
]
for _action in ("resign", "abort", "draw-offer", "draw-accept", "draw-decline", "claim-flag"):
    urlpatterns.append(
        path(
            f"games/<int:game_id>/{_action}/",
            games_api.GameActionView.as_view(action=_action),
            name=f"api-game-{_action}",
        )
    )

T = "tournaments/<slug:slug>/"
urlpatterns += [
    path("tournaments/", tournaments_api.TournamentListView.as_view(), name="api-tournaments"),
    path(T, tournaments_api.TournamentDetailView.as_view(), name="api-tournament"),
    path(
        f"{T}players/",
        tournaments_api.TournamentReadView.as_view(what="players"),
        name="api-tournament-players",
    ),
    path(
        f"{T}standings/",
        tournaments_api.TournamentReadView.as_view(what="standings"),
        name="api-tournament-standings",
    ),
    path(
        f"{T}crosstable/",
        tournaments_api.TournamentReadView.as_view(what="crosstable"),
        name="api-tournament-crosstable",
    ),
    path(
        f"{T}rounds/<int:number>/",
        tournaments_api.TournamentReadView.as_view(what="round"),
        name="api-tournament-round",
    ),
    path(
        f"{T}export/<str:kind>",
        tournaments_api.TournamentExportView.as_view(),
        name="api-tournament-export",
    ),
]
for _action in tournament_actions.ACTIONS:
    urlpatterns.append(
        path(
            f"{T}{_action}/",
            tournaments_api.TournamentActionView.as_view(action=_action),
            name=f"api-tournament-{_action}",
        )
    )
