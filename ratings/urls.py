"""Rating pages: leaderboards."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.leaderboard, name="rating-leaderboard"),
]
