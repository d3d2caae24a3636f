"""API of tournaments: the list, a tournament, its reads, exports and every action
(``tournaments.actions.ACTIONS``, the same table the pages use)."""

from django.urls import path

from tournaments import actions, api, guest_api, team_api

T = "<slug:slug>/"

G = "guests/<slug:club_slug>/"

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api-tournaments"),
    # a club's guest players (before the tournaments' own "<slug>/<action>/" paths)
    path(f"{G}claims/", guest_api.GuestClaimListView.as_view(), name="api-guest-claims"),
    path(
        f"{G}claims/<int:claim_id>/accept/",
        guest_api.GuestClaimDecisionView.as_view(accept=True),
        name="api-guest-claim-accept",
    ),
    path(
        f"{G}claims/<int:claim_id>/decline/",
        guest_api.GuestClaimDecisionView.as_view(accept=False),
        name="api-guest-claim-decline",
    ),
    path(
        f"{G}<str:username>/claim/", guest_api.GuestClaimAskView.as_view(), name="api-guest-claim"
    ),
    path(T, api.TournamentDetailView.as_view(), name="api-tournament"),
    path(
        f"{T}players/",
        api.TournamentReadView.as_view(what="players"),
        name="api-tournament-players",
    ),
    path(
        f"{T}bracket/",
        api.TournamentReadView.as_view(what="bracket"),
        name="api-tournament-bracket",
    ),
    path(
        f"{T}places/",
        api.TournamentReadView.as_view(what="places"),
        name="api-tournament-places",
    ),
    path(
        f"{T}standings/",
        api.TournamentReadView.as_view(what="standings"),
        name="api-tournament-standings",
    ),
    path(
        f"{T}crosstable/",
        api.TournamentReadView.as_view(what="crosstable"),
        name="api-tournament-crosstable",
    ),
    path(
        f"{T}rounds/<int:number>/",
        api.TournamentReadView.as_view(what="round"),
        name="api-tournament-round",
    ),
    path(f"{T}export/<str:kind>", api.TournamentExportView.as_view(), name="api-tournament-export"),
    # a team event's teams, matches, line-ups and standings
    path(f"{T}teams/", team_api.TeamEntriesView.as_view(), name="api-tournament-teams"),
    path(f"{T}teams/<slug:team>/", team_api.TeamEntryView.as_view(), name="api-tournament-team"),
    path(
        f"{T}teams/<slug:team>/withdraw/",
        team_api.TeamWithdrawView.as_view(),
        name="api-tournament-team-withdraw",
    ),
    path(
        f"{T}matches/<int:number>/",
        team_api.TeamRoundView.as_view(),
        name="api-tournament-team-matches",
    ),
    path(f"{T}lineups/<int:match>/", team_api.LineupView.as_view(), name="api-tournament-lineup"),
    path(
        f"{T}armageddon/<int:match>/",
        team_api.ArmageddonView.as_view(),
        name="api-team-cup-armageddon",
    ),
    path(f"{T}reports/<int:match>/", team_api.MatchReportView.as_view(), name="api-match-report"),
    path(
        f"{T}reports/<int:match>/confirm/",
        team_api.MatchConfirmView.as_view(),
        name="api-match-confirm",
    ),
    path(
        f"{T}reports/<int:match>/dispute/",
        team_api.MatchDisputeView.as_view(),
        name="api-match-dispute",
    ),
    path(
        f"{T}team-standings/",
        team_api.TeamStandingsView.as_view(),
        name="api-tournament-team-standings",
    ),
]
urlpatterns += [
    path(
        f"{T}{action}/",
        api.TournamentActionView.as_view(action=action),
        name=f"api-tournament-{action}",
    )
    for action in actions.ACTIONS
]
