"""Reads of tables: the one document a page, the API and the socket all use."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Min, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import NotFound
from games.engine.multi import COLOUR_NAMES, TEAMS, MultiPosition
from games.engine.placement import placements
from multiplayer.models import Seat, Table, TableMove
from ratings.elo import MULTI_CATEGORY

#: The colours' names the seats are shown with, in the reader's language (games.engine.multi
#: names them in English; Black and White are translated elsewhere too).
_COLOUR_WORDS = (gettext_noop("Red"), gettext_noop("Green"))

LIST_LIMIT = 50


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def time_control_label(table: Table) -> str:
    if table.base_seconds is None:
        return "no clock"
    minutes = table.base_seconds / 60
    shown = f"{minutes:g}" if minutes >= 1 else f"{table.base_seconds}s"
    return f"{shown}+{table.increment_seconds}"


def _team(table: Table, index: int) -> int | None:
    if table.players != 4:
        return None
    return next(t for t, team in enumerate(TEAMS) if index in team)


def seat_document(table: Table, seat: Seat, on_board: int) -> dict:
    return {
        "index": seat.index,
        "colour": seat.colour,
        "colour_name": _(COLOUR_NAMES[seat.colour]),
        "team": _team(table, seat.index),
        "user": ({"id": seat.user_id, "username": seat.user.username} if seat.user_id else None),
        "clock_ms": seat.clock_ms,
        "pushed_off": seat.pushed_off,
        "marbles": on_board,
        "place": seat.place,
        "out": seat.out,
    }


def legal_notations(table: Table) -> list[str]:
    """The side to move's moves (placements in the placement phase); none unless in play."""
    if table.status != Table.Status.STARTED:
        return []
    position = MultiPosition.from_string(table.position)
    per_player = len(MultiPosition.from_string(table.start_position).boards)
    if table.placement and table.ply < per_player * (11 if per_player == 3 else 9):
        return [p.notation for p in placements(position.occupied)]
    return sorted(move.notation for move in position.legal_moves())


def table_document(table: Table | int, *, now: datetime, summary: bool = False) -> dict:
    """The table as the API, the page and the socket show it (``summary``: no moves, positions
    or legal moves, for lists)."""
    if not isinstance(table, Table):
        found = Table.objects.filter(pk=table).first()
        if found is None:
            raise NotFound(
                _("There is no table %(table)s.") % {"table": table}, code="unknown_table"
            )
        table = found
    seats = list(table.seats.select_related("user").order_by("index"))
    position = MultiPosition.from_string(table.position)
    document = {
        "id": table.pk,
        "url": table.get_absolute_url(),
        "status": table.status,
        "players": table.players,
        "variant": table.variant,
        "placement": table.placement,
        "rated": table.rated,
        "marbles_to_win": table.marbles_to_win,
        "base_seconds": table.base_seconds,
        "increment_seconds": table.increment_seconds,
        "time_control": time_control_label(table),
        "seats": [seat_document(table, s, len(position.cells(s.colour))) for s in seats],
        "position": table.position,
        "side_to_move": position.side_to_move,
        "ply": table.ply,
        "turn_started_at": _iso(table.turn_started_at),
        "server_time": now.isoformat(),
        "deadline": _iso(table.flag_deadline),
        "result": sorted(
            ({"place": s.place, "colour": s.colour} for s in seats if s.place is not None),
            key=lambda r: (r["place"], "bwrg".index(r["colour"])),
        ),
        "termination": table.termination,
        "created_at": _iso(table.created_at),
        "rating_category": MULTI_CATEGORY,
    }
    if summary:
        return document
    moves = list(
        TableMove.objects.filter(table=table)
        .order_by("ply")
        .values("ply", "notation", "colour", "pushed_off", "position_after")
    )
    document["moves"] = [
        {
            "ply": m["ply"],
            "notation": m["notation"],
            "colour": m["colour"],
            "pushed_off": m["pushed_off"] or None,
        }
        for m in moves
    ]
    document["positions"] = [table.start_position, *(m["position_after"] for m in moves)]
    document["legal_moves"] = legal_notations(table)
    document["rating_changes"] = {
        change.user_id: change.rating_after - change.rating_before
        for change in table.rating_changes.all()
    }
    return document


def live_tables() -> QuerySet[Table]:
    """Open and started tables, newest first."""
    return Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.STARTED]).order_by(
        "-created_at"
    )[:LIST_LIMIT]


def finished_tables(limit: int = 20) -> list[dict]:
    """The latest finished tables for the lobby's archive list: summaries with the seats in
    order of place, the ending and when."""
    rows = Table.objects.filter(status=Table.Status.FINISHED).order_by("-ended_at")[:limit]
    documents = []
    for table in rows:
        document = table_document(table, now=table.ended_at, summary=True)
        document["ranked"] = sorted(document["seats"], key=lambda s: (s["place"], s["index"]))
        document["termination_label"] = table.get_termination_display()
        document["ended_at"] = table.ended_at
        documents.append(document)
    return documents


def finished_tables_of(user) -> QuerySet[Table]:
    return Table.objects.filter(seats__user=user, status=Table.Status.FINISHED).order_by(
        "-ended_at"
    )


def next_deadline() -> datetime | None:
    """The earliest deadline of a table: a started table's flag, or an open table's expiry
    (``tables_sweep`` aborts an open table nobody filled); None when there is none."""
    started = Table.objects.filter(status=Table.Status.STARTED, flag_deadline__isnull=False)
    flag = started.aggregate(earliest=Min("flag_deadline"))["earliest"]
    expiry = Table.objects.filter(status=Table.Status.OPEN).aggregate(earliest=Min("expires_at"))[
        "earliest"
    ]
    return min((d for d in (flag, expiry) if d is not None), default=None)
