from django.urls import path

from leagues import views

urlpatterns = [
    path("<slug:slug>/", views.league_detail, name="league-detail"),
    path("<slug:slug>/next-season/", views.next_season, name="league-next-season"),
    path("<slug:slug>/divisions/new/", views.division_create, name="league-division-create"),
    path("<slug:slug>/divisions/<int:pk>/", views.division_detail, name="league-division"),
    path(
        "<slug:slug>/divisions/<int:pk>/start/", views.division_start, name="league-division-start"
    ),
    path(
        "<slug:slug>/divisions/<int:pk>/matches/<int:match>/postpone/",
        views.fixture_postpone,
        name="league-fixture-postpone",
    ),
    path(
        "<slug:slug>/teams/<slug:team>.ics", views.team_calendar_file, name="league-team-calendar"
    ),
]
