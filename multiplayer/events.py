"""Live events of tables, sent after the change commits (core.live.send_group).

Every socket of a table's page (``/ws/tables/<id>/``) is in ``table_group(id)`` and receives
``{"type": "table", "table": <doc>}`` after each change: the whole state, which is small (a few
hundred moves at most). The lobby's sockets are in ``LOBBY_GROUP`` and hear ``{"type":
"tables"}`` when a table opens, fills, starts or ends. Best effort: pages refetch when a socket
is closed.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.live import send_group
from core.renderers import encode_json

LOBBY_GROUP = "tables"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, *, lobby: bool = False) -> None:
    """After the current transaction commits, send the table's new state to its sockets (and
    tell the lobby)."""
    transaction.on_commit(lambda: _publish(table_id, lobby))


def _publish(table_id: int, lobby: bool) -> None:
    from multiplayer.selectors import table_document

    text = encode_json({"type": "table", "table": table_document(table_id, now=timezone.now())})
    send_group(table_group(table_id), {"type": "table.event", "text": text.decode()})
    if lobby:
        send_group(LOBBY_GROUP, {"type": "table.event", "text": '{"type": "tables"}'})
