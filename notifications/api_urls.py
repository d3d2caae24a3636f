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
    path(
        "me/push-subscriptions/",
        api.PushSubscriptionListView.as_view(),
        name="api-push-subscriptions",
    ),
    path(
        "me/push-subscriptions/<int:subscription_id>/",
        api.PushSubscriptionDetailView.as_view(),
        name="api-push-subscription",
    ),
]
