"""A table's game record (games.engine.multi_record) with the players and the event filled."""

from __future__ import annotations

from games.engine.multi_record import write_multi_record
from multiplayer.models import Table
from multiplayer.selectors import time_control_label
from multiplayer.services import engine_game_of


def table_record(table: Table) -> str:
    game = engine_game_of(table)
    seats = list(table.seats.select_related("user").order_by("index"))
    if table.status == Table.Status.FINISHED and not game.over:
        out = next((s.colour for s in seats if s.out), None)
        if out is not None and table.termination in ("resignation", "time"):
            game.drop_out(out, table.termination)
    headers = {
        "Event": f"Sumito table {table.pk}",
        "Date": (table.started_at or table.created_at).strftime("%Y.%m.%d"),
        "Players": ", ".join(s.user.username if s.user_id else "?" for s in seats),
        "TimeControl": time_control_label(table) if table.base_seconds is not None else "-",
    }
    return write_multi_record(game, headers)
