"""API of leagues (``/api/v1/leagues/``)."""

from django.urls import path

from leagues import api

urlpatterns = [
    path("", api.LeaguesView.as_view(), name="api-leagues"),
    path("<slug:slug>/", api.LeagueView.as_view(), name="api-league"),
    path("<slug:slug>/divisions/", api.DivisionsView.as_view(), name="api-league-divisions"),
    path(
        "<slug:slug>/divisions/<int:division>/start/",
        api.DivisionStartView.as_view(),
        name="api-league-division-start",
    ),
    path(
        "<slug:slug>/divisions/<int:division>/matches/<int:match>/postpone/",
        api.FixturePostponeView.as_view(),
        name="api-league-fixture-postpone",
    ),
    path("<slug:slug>/next-season/", api.NextSeasonView.as_view(), name="api-league-next-season"),
]
