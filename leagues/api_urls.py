"""API of leagues (``/api/v1/leagues/``)."""

from django.urls import path

from leagues import api

urlpatterns = [
    path("<slug:slug>/", api.LeagueView.as_view(), name="api-league"),
]
