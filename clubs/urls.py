"""Club pages: the list, a club, its settings and its members' actions."""

from django.urls import path

from clubs import views

urlpatterns = [
    path("", views.club_list, name="club-list"),
    path("new/", views.club_create, name="club-create"),
    path("<slug:slug>/", views.club_detail, name="club-detail"),
    path("<slug:slug>/edit/", views.club_edit, name="club-edit"),
    path("<slug:slug>/<str:action>/", views.club_action, name="club-action"),
]
