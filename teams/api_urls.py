"""API of teams (``/api/v1/teams/``)."""

from django.urls import path

from teams import api

T = "<slug:slug>/"

urlpatterns = [
    path("", api.TeamListView.as_view(), name="api-teams"),
    path(T, api.TeamDetailView.as_view(), name="api-team"),
    path(f"{T}members/", api.TeamMembersView.as_view(), name="api-team-members"),
    path(f"{T}members/<str:username>/", api.TeamMemberView.as_view(), name="api-team-member"),
    path(f"{T}roster/", api.TeamRosterView.as_view(), name="api-team-roster"),
    path(
        f"{T}roster/by-rating/",
        api.TeamRosterByRatingView.as_view(),
        name="api-team-roster-by-rating",
    ),
]
