"""Live events of tables, sent after the change commits (core.live.send_group).

Every socket of a table's page (``/ws/tables/<id>/``) is in ``table_group(id)`` and receives
``{"type": "table", "table": <doc>}`` after each change: the whole state, which is small (a few
hundred moves at most). The lobby's sockets are in ``LOBBY_GROUP`` and hear ``{"type":
"tables"}`` when a table opens, fills, starts or ends. Best effort: pages refetch when a socket
is closed.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from core.live import after_commit, send_group
from core.renderers import encode_json

if TYPE_CHECKING:
    from multiplayer.models import Table

LOBBY_GROUP = "tables"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table: Table, *, now: datetime, lobby: bool = False) -> dict:
    """Call inside the transaction that changed ``table``: its new state is built now, from what
    the transaction wrote, and sent to the table's sockets after the commit (and the lobby told
    when ``lobby``). Returns that state, which the request answers with: nothing after the
    commit reads the database, so a connection lost then cannot fail a request whose change is
    stored (core.live.after_commit)."""
    from multiplayer.selectors import table_document

    document = table_document(table, now=now)
    text = encode_json({"type": "table", "table": document}).decode()

    def publish() -> None:
        send_group(table_group(table.pk), {"type": "table.event", "text": text})
        if lobby:
            send_group(LOBBY_GROUP, {"type": "table.event", "text": '{"type": "tables"}'})

    after_commit(publish, f"table {table.pk}'s state")
    return document
