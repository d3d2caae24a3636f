"""API of clubs: the list, a club, joining and leaving, members, roles and join requests."""

from django.urls import path

from clubs import api

C = "<slug:slug>/"
M = f"{C}members/<str:username>/"
R = f"{C}requests/<int:request_id>/"

urlpatterns = [
    path("", api.ClubListView.as_view(), name="api-clubs"),
    path(C, api.ClubDetailView.as_view(), name="api-club"),
    path(f"{C}join/", api.ClubJoinView.as_view(), name="api-club-join"),
    path(f"{C}leave/", api.ClubLeaveView.as_view(), name="api-club-leave"),
    path(f"{C}transfer/", api.ClubTransferView.as_view(), name="api-club-transfer"),
    path(f"{C}members/", api.ClubMemberListView.as_view(), name="api-club-members"),
    path(M, api.ClubMemberDetailView.as_view(), name="api-club-member"),
    path(
        f"{M}promote/",
        api.ClubMemberRoleView.as_view(change="promote"),
        name="api-club-member-promote",
    ),
    path(
        f"{M}demote/",
        api.ClubMemberRoleView.as_view(change="demote"),
        name="api-club-member-demote",
    ),
    path(f"{C}requests/", api.ClubRequestListView.as_view(), name="api-club-requests"),
    path(
        f"{R}approve/",
        api.ClubRequestDecisionView.as_view(decision="approve"),
        name="api-club-request-approve",
    ),
    path(
        f"{R}decline/",
        api.ClubRequestDecisionView.as_view(decision="decline"),
        name="api-club-request-decline",
    ),
]
