"""WebSocket routes; each app adds its consumers here."""

from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
