"""The live game socket: ``/ws/games/<id>/``.

On connect the client gets the state; then every change to the game arrives as
``{"type": "state", "state": ...}``. A client may send ``{"type": "move", "move": "a1b2",
"ply": 12}`` (the same service as the HTTP POST) or ``{"type": "refresh"}``; refusals come back as
``{"type": "error", "error": code, "detail": message}``. A logged-in player's socket also
carries their notifications (``{"type": "notification", ...}``, ``{"type": "unread", ...}``, as
``/ws/me/`` does, see ``notifications.consumers``), so a game's tab needs no second socket,
the game's chat (``{"type": "chat", ...}``, games.services.chat) and the spectator count
(``{"type": "watchers", "count": n}``, games.watchers).
"""

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from core.errors import NotFound, ServiceError
from core.languages import socket_language
from core.live import user_group
from core.parsers import MalformedJSON, loads
from core.renderers import encode_json
from core.sockets import ForgetsItsChannel
from games import services
from games.events import game_group, spectators_group
from games.selectors import game_state
from games.watchers import watchers_change, watchers_count, watchers_event
from notifications.consumers import latest_text_for


class GameConsumer(ForgetsItsChannel, AsyncJsonWebsocketConsumer):
    watchers_version = -1  # of the newest spectator count this socket has passed on

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        # Refusals are written in the language a page of the site would use for this client.
        self.language = socket_language(self.scope)
        state = await self._state()
        if state is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        user = self.scope.get("user")
        authenticated = user is not None and user.is_authenticated
        if authenticated:
            # The tab's one socket also carries the player's notifications (core.live).
            self.user_group = user_group(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        players = {state["black"]["username"], state["white"]["username"]}
        self.watching = not authenticated or user.username not in players
        if self.watching:
            await self.channel_layer.group_add(spectators_group(self.game_id), self.channel_name)
        # Every group is joined before the page hears "open": what it reads then (the chat's
        # room) and what the groups carry after leave no gap between them.
        await self.accept()
        await self.send_json({"type": "state", "state": state})
        if authenticated:  # the unread count and the latest, as /ws/me/ sends on connect
            await self.send(text_data=await database_sync_to_async(latest_text_for)(self.scope))
        if self.watching:
            await self._count_watchers(+1)
            self.counted = True
        else:
            count, version = await sync_to_async(watchers_count, thread_sensitive=False)(
                self.game_id
            )
            self.watchers_version = max(self.watchers_version, version)
            await self.send_json({"type": "watchers", "game": self.game_id, "count": count})

    async def disconnect(self, code):
        if hasattr(self, "game_id"):
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)
        if hasattr(self, "user_group"):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        if getattr(self, "watching", False):
            await self.channel_layer.group_discard(
                spectators_group(self.game_id), self.channel_name
            )
        if getattr(self, "counted", False):  # counted once accepted: uncounted once
            await self._count_watchers(-1)

    async def _count_watchers(self, delta: int) -> None:
        changed = await sync_to_async(watchers_change, thread_sensitive=False)(self.game_id, delta)
        if changed is not None:
            event = watchers_event(self.game_id, *changed)
            await self.channel_layer.group_send(game_group(self.game_id), event)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "refresh":
            await self.send_json({"type": "state", "state": await self._state()})
        elif kind == "move":
            await self._move(content)
        else:
            await self._error(
                "malformed",
                self._text(
                    gettext_noop(
                        'Send {"type": "move", "move": ..., "ply": ...} or {"type": "refresh"}.'
                    )
                ),
            )

    async def dispatch(self, message):
        if message["type"] in ("game.state", "user.event"):
            # Channels checks the database connections (a hop to a thread and back) before
            # every handler; this one uses no database, and runs for every socket on every
            # move: it was a twentieth of a web process's CPU with both players connected.
            await self.game_state(message)  # a notification's text is forwarded the same way
        else:
            await super().dispatch(message)

    async def game_state(self, event):
        version = event.get("watchers")
        if version is not None:  # a spectator count: never one older than the last sent
            if version <= self.watchers_version:
                return
            self.watchers_version = version
        await self.send(text_data=event["text"])  # encoded once by the publisher

    @classmethod
    async def encode_json(cls, content):
        return encode_json(content).decode()

    @classmethod
    async def decode_json(cls, text_data):
        return loads(text_data)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """As the JSON consumer's, but a message that is not acceptable JSON (nested a thousand
        deep, say) is answered with an error instead of closing the socket with a crash."""
        try:
            content = await self.decode_json(text_data if text_data is not None else bytes_data)
        except MalformedJSON as error:
            await self._error("malformed", str(error))
            return
        await self.receive_json(content, **kwargs)

    async def _move(self, content):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self._error("not_authenticated", self._text(gettext_noop("Log in to play.")))
            return
        move, ply = content.get("move"), content.get("ply")
        if not isinstance(move, str) or not isinstance(ply, int) or isinstance(ply, bool):
            await self._error(
                "malformed",
                self._text(gettext_noop("A move needs 'move' (text) and 'ply' (a number).")),
            )
            return
        try:
            await database_sync_to_async(self._apply)(user, move, ply)
        except ServiceError as error:
            await self._error(error.code, error.detail)

    def _apply(self, user, move: str, ply: int) -> None:
        with translation.override(self.language):  # the refusal's detail in the client's language
            services.game_move_apply(
                game_id=self.game_id, player=user, move=move, expected_ply=ply, now=timezone.now()
            )

    def _text(self, message: str) -> str:
        with translation.override(self.language):
            return gettext(message)

    async def _error(self, code: str, detail: str):
        await self.send_json({"type": "error", "error": code, "detail": detail})

    @database_sync_to_async
    def _state(self):
        """The state as the API gives it (a fallen flag adjudicated first); None: no game."""
        now = timezone.now()
        try:
            game = services.game_current(game_id=self.game_id, now=now)
        except NotFound:
            return None
        return game_state(game, now=now)
