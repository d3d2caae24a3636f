from django.urls import path

from bots import api

urlpatterns = [
    path("stream/", api.BotStreamView.as_view(), name="api-bot-stream"),
    path("account/upgrade/", api.BotUpgradeView.as_view(), name="api-bot-upgrade"),
]
