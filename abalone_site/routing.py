"""WebSocket routes; each app adds its consumers here."""

from __future__ import annotations

import logging

from django.urls import path
from redis.exceptions import RedisError

from games.consumers import GameConsumer
from multiplayer.consumers import TableConsumer
from notifications.consumers import UserConsumer

logger = logging.getLogger(__name__)

# What a channel layer that cannot reach Redis raises.
LAYER_OUTAGE_ERRORS = (RedisError, OSError)


class ChannelLayerOutage:
    """A socket that cannot reach the channel layer (Redis down) is refused cleanly, not with a
    500: before the handshake completes, with 503 and ``Retry-After`` (or the close code 4503
    where the server cannot answer a handshake with a response); after it, closed with 4503.
    The page retries with backoff and, once back, refetches what it missed (static/js/game.js).
    Moves and reads go on over HTTP meanwhile: the database is the truth.
    """

    RETRY_AFTER_SECONDS = 5

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        accepted = False

        async def tracking_send(message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept":
                accepted = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except LAYER_OUTAGE_ERRORS as error:
            logger.warning(
                "socket %s refused: the channel layer is unreachable (%r)", scope["path"], error
            )
            if accepted or "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 4503})
                return
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": 503,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"retry-after", str(self.RETRY_AFTER_SECONDS).encode()),
                    ],
                }
            )
            await send(
                {
                    "type": "websocket.http.response.body",
                    "body": b'{"error": "unavailable", "detail": "Live updates are unavailable '
                    b'for a moment: retry in a few seconds."}',
                }
            )


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", ChannelLayerOutage(GameConsumer.as_asgi())),
    path("ws/me/", ChannelLayerOutage(UserConsumer.as_asgi())),
    path("ws/tables/", ChannelLayerOutage(TableConsumer.as_asgi())),
    path("ws/tables/<int:table_id>/", ChannelLayerOutage(TableConsumer.as_asgi())),
]
