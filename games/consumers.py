"""The live game socket: ``/ws/games/<id>/``.

On connect the client gets the whole state; then every change to the game arrives as
``{"type": "state", "state": ...}`` carrying what changed (games.events). A client may send
``{"type": "move", "move": "a1b2", "ply": 12}`` (the same service as the HTTP POST), answered on
this socket by ``{"type": "ack", "move", "ply", "version"}`` or by the refusal naming the move
and ply, or ``{"type": "refresh"}``; refusals come back as
``{"type": "error", "error": code, "detail": message}``. A logged-in player's socket also
carries their notifications (``{"type": "notification", ...}``, ``{"type": "unread", ...}``, as
``/ws/me/`` does, see ``notifications.consumers``), so a game's tab needs no second socket,
the game's chat (``{"type": "chat", ...}``, games.services.chat) and the spectator count
(``{"type": "watchers", "count": n}``, games.watchers).
"""

import asyncio
import functools
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from accounts.guests import guest_of_session
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


class _MoveThread:
    """The thread that plays the moves sent on this process's game sockets. It keeps its
    database connection from one move to the next (Channels' ``database_sync_to_async`` returns
    the connection to the pool after every call and takes one again, checked by a round trip to
    PostgreSQL, before the next) and hands it back once no move came for ``IDLE_SECONDS``.
    One thread: a process's moves are played one at a time, as the interpreter lock would have
    them anyway; each is two statements (games.move_store)."""

    IDLE_SECONDS = 2.0

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="socket-moves")
        self.last_used = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.timer_loop: asyncio.AbstractEventLoop | None = None

    async def run(self, function, *args):
        """``function(*args)`` on the thread. A connection that failed is closed (the pool
        replaces it) and the call made once more on a new one: a move is written only if the
        game's row still holds the ply it was decided on (games.move_store), so a move that did
        commit before its connection failed is refused the second time, never played twice."""
        loop = asyncio.get_running_loop()
        call = functools.partial(_with_a_usable_connection, function, *args)
        # The executor's own hand-off, not asgiref's ``sync_to_async``: that one copies the
        # context, inspects the function and wraps the future again for every call (a tenth of
        # the event loop's CPU a move); a move needs none of it: it runs in this thread alone,
        # its language set inside (``_apply``), its connection this thread's.
        try:
            try:
                return await loop.run_in_executor(self.executor, call)
            except (InterfaceError, OperationalError):
                return await loop.run_in_executor(self.executor, call)
        finally:
            self.last_used = time.monotonic()
            self._watch(loop)

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        # one check pending at a time, on the running loop (a test's server may have stopped
        # the loop that had one)
        if self.timer is None or self.timer_loop is not loop:
            self.timer = loop.call_later(self.IDLE_SECONDS, self._check, loop)
            self.timer_loop = loop

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        self.timer = None
        idle = time.monotonic() - self.last_used
        if idle >= self.IDLE_SECONDS:
            self.executor.submit(_close_connection)
        else:
            self.timer = loop.call_later(self.IDLE_SECONDS - idle, self._check, loop)

    def release(self) -> None:
        """Hand the thread's connection back now (a server stopping: its database may go)."""
        self.executor.submit(_close_connection).result()


def _close_connection() -> None:
    connection.close()  # this thread's own (``connection`` is per thread)


def _with_a_usable_connection(function, *args):
    try:
        return function(*args)
    except DatabaseError:
        connection.close()  # returned to the pool, which checks it before handing it out again
        raise


move_thread = _MoveThread()


def ack_text(move: str, ply: int, version: int) -> str:
    """The answer to a move the server played: the move and ply the client sent, and the
    game's version after it (the opponent hears the move itself as a state event)."""
    return encode_json({"type": "ack", "move": move, "ply": ply, "version": version}).decode()


class GameConsumer(ForgetsItsChannel, AsyncJsonWebsocketConsumer):
    watchers_version = -1  # of the newest spectator count this socket has passed on
    colour = None  # "b" or "w" on a player's socket
    player = None  # who moves on this socket (a logged-in user or the session's guest)

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        # Refusals are written in the language a page of the site would use for this client.
        self.language = socket_language(self.scope)
        # The game's group first, then its state: an event published between the two is then
        # queued for this socket (sent after the state, and dropped by the page as no newer),
        # where reading first lost it and the page saw a gap at its first event (the multi-host
        # rehearsal's reconnected spectators asked again at once).
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        state = await self._state()
        if state is None:
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)
            await self.close(code=4404)
            return
        user = self.scope.get("user")
        authenticated = user is not None and user.is_authenticated
        if authenticated:
            # The tab's one socket also carries the player's notifications (core.live).
            self.user_group = user_group(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        # Who moves on this socket: the logged-in user, or the session's guest (a visitor
        # playing the computer, accounts.guests), as the HTTP API lets them.
        self.player = user if authenticated else await self._guest()
        colours = {state["black"]["username"]: "b", state["white"]["username"]: "w"}
        # A player's sockets get the legal moves when it is their turn (games.events).
        self.colour = colours.get(self.player.username) if self.player is not None else None
        self.watching = self.colour is None
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
        # Channels checks the database connections (a hop to a thread and back) before every
        # handler. These two use no database in the event loop, and run for every move: a
        # game's event for every socket on it (a twentieth of a web process's CPU with both
        # players connected), and a client's message (a move is played on the move thread,
        # which keeps its own connection; a refresh reads through database_sync_to_async,
        # which checks them itself).
        kind = message["type"]
        if kind in ("game.state", "user.event"):
            await self.game_state(message)  # a notification's text is forwarded the same way
        elif kind == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def game_state(self, event):
        version = event.get("watchers")
        if version is not None:  # a spectator count: never one older than the last sent
            if version <= self.watchers_version:
                return
            self.watchers_version = version
        if event.get("to_move") is not None and event["to_move"] == self.colour:
            await self.send(text_data=event["to_move_text"])  # with the legal moves
        else:
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
        user = self.player
        if user is None:
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
            version = await move_thread.run(self._apply, user, move, ply)
        except ServiceError as error:
            await self._error(error.code, error.detail, move=move, ply=ply)
            return
        except DatabaseError:
            await self._error(
                "unavailable",
                self._text(gettext_noop("The move could not be stored; send it again.")),
                move=move,
                ply=ply,
            )
            return
        await self.send(text_data=ack_text(move, ply, version))

    def _apply(self, user, move: str, ply: int) -> int:
        with translation.override(self.language):  # the refusal's detail in the client's language
            game = services.game_move_apply(
                game_id=self.game_id, player=user, move=move, expected_ply=ply, now=timezone.now()
            )
        return game.ply

    def _text(self, message: str) -> str:
        with translation.override(self.language):
            return gettext(message)

    async def _error(self, code: str, detail: str, **about):
        """A refusal; ``about``: the move and ply it answers (a move's refusal names them, so a
        client matches it with the move it sent)."""
        await self.send_json({"type": "error", "error": code, "detail": detail, **about})

    @database_sync_to_async
    def _guest(self):
        return guest_of_session(self.scope.get("session"))

    @database_sync_to_async
    def _state(self):
        """The state as the API gives it (a fallen flag adjudicated first); None: no game."""
        now = timezone.now()
        try:
            game = services.game_current(game_id=self.game_id, now=now)
        except NotFound:
            return None
        return game_state(game, now=now)
