"""The player's socket on every page but a game's: ``/ws/me/``.

On connect it sends ``{"type": "notifications", "unread": n, "latest": [...]}`` (the ten newest);
then every new notification arrives as ``{"type": "notification", "notification": {...},
"unread": n}`` and every change of the unread count as ``{"type": "unread", "unread": n}``. The
game page's socket (``/ws/games/<id>/``) carries the same events, so a tab has one socket.
With ``?topics=site`` (the home page) it also joins the site's group: ``{"type": "site"}`` when a
game starts, gets its first move or ends, for anonymous visitors too; without it, an anonymous
handshake is refused (HTTP 403).
"""

import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from core.languages import socket_language
from core.live import SITE_GROUP, home_group, user_group
from core.renderers import encode_json
from core.sockets import ForgetsItsChannel
from notifications.selectors import notification_document, notifications_of, unread_count

#: The least time between two refreshes a client asks for.
REFRESH_SECONDS = 2.0


class UserConsumer(ForgetsItsChannel, AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        authenticated = user is not None and user.is_authenticated
        topics = parse_qs(self.scope.get("query_string", b"").decode("latin1")).get("topics", [])
        home = "site" in ",".join(topics).split(",")
        self.groups_joined = [SITE_GROUP] if home else []
        if authenticated:
            self.groups_joined.append(user_group(user.pk))
            if home:  # a home page: also the turns of the player's games
                self.groups_joined.append(home_group(user.pk))
        if not self.groups_joined:
            await self.close(code=4401)
            return
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if authenticated:
            await self.send(text_data=await database_sync_to_async(latest_text_for)(self.scope))

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        # Nothing to ask but the latest again (reading is marked over HTTP), at most once in
        # REFRESH_SECONDS: a client cannot make the socket a database pump.
        now = time.monotonic()
        if now - getattr(self, "refreshed_at", -REFRESH_SECONDS) < REFRESH_SECONDS:
            return
        self.refreshed_at = now
        user = self.scope["user"]
        if not user.is_authenticated:
            return
        await self.send(text_data=await database_sync_to_async(latest_text_for)(self.scope))

    async def dispatch(self, message):
        if message["type"] == "user.event":  # no database: skip Channels' connection check
            await self.user_event(message)
        else:
            await super().dispatch(message)

    async def user_event(self, event):
        await self.send(text_data=event["text"])  # encoded once by the publisher


def latest_text_for(scope) -> str:
    """:func:`latest_text` for the socket of ``scope``, written in its language (the account's,
    else the tab's cookie, else its Accept-Language: as its pages are)."""
    with translation.override(socket_language(scope)):
        return latest_text(scope["user"].pk)


def latest_text(user_id: int) -> str:
    """The message a socket gets on connect: the unread count and the ten newest."""
    latest = [notification_document(n) for n in notifications_of(user_id)[:10]]
    message = {"type": "notifications", "unread": unread_count(user_id), "latest": latest}
    return encode_json(message).decode()
