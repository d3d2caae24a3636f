"""Team pages (a club's teams are under the club: ``/clubs/<slug>/teams/``)."""

from django.urls import path

from teams import views

urlpatterns = [
    path("<slug:slug>/", views.team_detail, name="team-detail"),
    path("<slug:slug>/<str:action>/", views.team_action, name="team-action"),
]
