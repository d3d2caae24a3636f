"""API of a player's notifications."""

from django.urls import path

from notifications import api

urlpatterns = [
    path("me/notifications/", api.NotificationListView.as_view(), name="api-notifications"),
    path(
        "me/notifications/read/",
        api.NotificationReadView.as_view(),
        name="api-notifications-read",
    ),
]
