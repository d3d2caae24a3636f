"""API of tournaments: the list, a tournament, its reads, exports and every action
(``tournaments.actions.ACTIONS``, the same table the pages use)."""

from django.urls import path

from tournaments import actions, api

T = "<slug:slug>/"

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api-tournaments"),
    path(T, api.TournamentDetailView.as_view(), name="api-tournament"),
    path(
        f"{T}players/",
        api.TournamentReadView.as_view(what="players"),
        name="api-tournament-players",
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
]
urlpatterns += [
    path(
        f"{T}{action}/",
        api.TournamentActionView.as_view(action=action),
        name=f"api-tournament-{action}",
    )
    for action in actions.ACTIONS
]
