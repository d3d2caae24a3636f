"""Sockets of tables: ``/ws/tables/<id>/`` (a table's page: players and spectators alike) and
``/ws/tables/`` (the lobby). See multiplayer.events for what they receive."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from core.errors import NotFound
from core.renderers import encode_json
from core.sockets import ForgetsItsChannel
from multiplayer.events import LOBBY_GROUP, table_group
from multiplayer.selectors import table_document


def _snapshot(table_id: int) -> str | None:
    try:
        document = table_document(table_id, now=timezone.now())
    except NotFound:
        return None
    return encode_json({"type": "table", "table": document}).decode()


class TableConsumer(ForgetsItsChannel, AsyncWebsocketConsumer):
    async def connect(self):
        table_id = self.scope["url_route"]["kwargs"].get("table_id")
        self.group = LOBBY_GROUP if table_id is None else table_group(table_id)
        # The group first, then the table: a change published between the two comes after the
        # snapshot instead of being lost (as games.consumers does).
        await self.channel_layer.group_add(self.group, self.channel_name)
        snapshot = None
        if table_id is not None:
            snapshot = await database_sync_to_async(_snapshot)(table_id)
            if snapshot is None:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                await self.close(code=4404)
                return
        await self.accept()
        if snapshot is not None:
            await self.send(text_data=snapshot)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        return  # moves go over HTTP; the socket only listens

    async def dispatch(self, message):
        if message["type"] == "table.event":  # no database: skip Channels' connection check
            await self.send(text_data=message["text"])
        else:
            await super().dispatch(message)
