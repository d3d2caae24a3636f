"""Where a move's game comes from and where the move goes: the move path's storage.

The move service (``games.services.moves``) decides with rules and clocks; this module reads and
writes for it, as cheaply as a move needs, behind a narrow interface:

- :func:`lock` -- the game's row locked for the current transaction, with both players;
- :func:`read` -- PostgreSQL, no lock: the game with both players and the moves this process has
  not seen yet, in one statement (one snapshot), as a :class:`Snapshot`;
- :func:`history` -- the engine's view of a game and its moves as the state shows them: kept from
  this process's last move of the game, caught up with the moves made since, or rebuilt;
- :func:`write` -- the move's row and the game's changed columns; :func:`write_if_unchanged`
  the same as a compare-and-set, only if the row still holds what the move was decided on;
  :func:`insert_move` the move alone (a move that ends the game, whose row the finish saves);
- :func:`keep_after_commit` -- keep the engine and moves for this game's next move here.

Why plain SQL (see :mod:`core.sql`): on the move path the ORM spent more CPU compiling
queries than PostgreSQL spent running them. Why the kept engines: rebuilding the engine and the
move list is a query for every move and a replay of them all, a third of a move's CPU by the
middle of a game. Each player's connection stays with one web process, so usually only the
other player's moves have to be caught up with.

:data:`counters` counts how :func:`history` found each engine (``kept`` as it was, ``caught
up``, ``rebuilt``), for the tests and the curious.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core import sql
from core.errors import NotFound
from games import engine
from games.models import Game, Move
from games.records import engine_game_of
from games.selectors import move_document

#: What a move changes on the game's row (the draw services change ``draw_offer`` alone).
MOVE_FIELDS = [
    "ply",
    "position",
    "black_ms",
    "white_ms",
    "turn_started_at",
    "flag_deadline",
    "draw_offer",
]
# The columns of a move as the state shows it (selectors.move_document), in its order.
_MOVE_COLUMNS = ("ply", "notation", "played_at", "clock_ms", "pushed_off")

History = tuple[engine.Game, list[dict]]
counters: Counter[str] = Counter()


# --- reading -------------------------------------------------------------------------------------


def compare_and_set_enabled() -> bool:
    """Whether ordinary moves may be written by :func:`write_if_unchanged` (PostgreSQL)."""
    return connection.vendor == "postgresql" and settings.GAME_MOVES_COMPARE_AND_SET


@cache
def _lock_query(vendor: str) -> str:
    lock = ""
    if connection.features.has_select_for_update:
        lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return (
        f"SELECT {sql.columns(Game, 'g')}, {sql.columns(User, 'b')}, {sql.columns(User, 'w')} "
        f"FROM {Game._meta.db_table} g "
        f"JOIN {User._meta.db_table} b ON b.id = g.black_id "
        f"JOIN {User._meta.db_table} w ON w.id = g.white_id "
        f"WHERE g.id = %s{lock}"
    )


def lock(game_id: int) -> Game:
    """The game's row, locked for this transaction, with both players loaded; NotFound if none.

    Only the game's row is locked (``FOR UPDATE OF``); on SQLite the IMMEDIATE transaction
    serialises writers instead. Call inside ``transaction.atomic()``.
    """
    with connection.cursor() as cursor:
        cursor.execute(_lock_query(connection.vendor), [game_id])
        row = cursor.fetchone()
    if row is None:
        raise NotFound(_("There is no game %(game_id)s.") % {"game_id": game_id})
    game, game.black, game.white = sql.instances(row, Game, User, User)
    return game


def _move_documents(game_id: int, *, after_ply: int = 0) -> list[dict]:
    """The game's moves after ``after_ply`` in ply order, as the state shows them."""
    fields = [Move._meta.get_field(name) for name in ("played_at", "pushed_off")]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_MOVE_COLUMNS)} FROM {Move._meta.db_table} "
            "WHERE game_id = %s AND ply > %s ORDER BY ply",
            [game_id, after_ply],
        )
        rows = cursor.fetchall()
    played_at, pushed_off = (sql.converter(field) for field in fields)
    return [
        move_document(ply, notation, played_at(when), clock_ms, pushed_off(off))
        for ply, notation, when, clock_ms, off in rows
    ]


@cache
def _game_and_moves_query() -> str:
    return (
        f"SELECT {sql.columns(Game, 'g')}, {sql.columns(User, 'b')}, {sql.columns(User, 'w')}, "
        + ", ".join(f"m.{column}" for column in _MOVE_COLUMNS)
        + f" FROM {Game._meta.db_table} g "
        f"JOIN {User._meta.db_table} b ON b.id = g.black_id "
        f"JOIN {User._meta.db_table} w ON w.id = g.white_id "
        "CROSS JOIN LATERAL (SELECT "
        + ", ".join(f"array_agg({column} ORDER BY ply) AS {column}" for column in _MOVE_COLUMNS)
        + f" FROM {Move._meta.db_table} WHERE game_id = g.id AND ply > %s) m "
        "WHERE g.id = %s"
    )


@dataclass
class Snapshot:
    """A game read without a lock (:func:`read`): the row with both players, what this process
    kept of the game (None: nothing usable), and the moves played after the kept ones (all of
    them when nothing was kept), read in the same statement as the row."""

    game: Game
    kept: History | None
    newer: list[dict]

    def put_back(self) -> None:
        """Keep what was kept, untouched, when the move is left to the locked path."""
        if self.kept is not None:
            _kept.keep(self.game, *self.kept)


def read(game_id: int) -> Snapshot | None:
    """PostgreSQL: the game as :class:`Snapshot`, or None when there is no such game or what
    this process kept of it cannot be used (the locked path then rebuilds it)."""
    entry = _kept.pop(game_id)
    with connection.cursor() as cursor:
        cursor.execute(_game_and_moves_query(), [entry[1].ply if entry is not None else 0, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game, game.black, game.white = sql.instances(row[: -len(_MOVE_COLUMNS)], Game, User, User)
    plies, notations, played_at, clocks, pushed_off = (
        values or [] for values in row[-len(_MOVE_COLUMNS) :]
    )
    newer = [
        move_document(*move)
        for move in zip(plies, notations, played_at, clocks, pushed_off, strict=True)
    ]
    kept = _KeptEngines.usable(entry, game)
    if entry is not None and kept is None:
        return None  # ``newer`` is only the tail of the moves
    return Snapshot(game, kept, newer)


def history(game: Game, snapshot: Snapshot | None = None) -> History:
    """The engine's view of ``game`` and its moves as the state shows them.

    From what this process kept after the game's last move here (from ``snapshot`` when given,
    else taken from the kept engines), caught up with the moves played since (those the
    snapshot read, else read now), or else rebuilt from every move. Whatever the route, the
    engine ends exactly at the row's ply and position, or it is rebuilt from scratch.
    """
    if snapshot is not None:
        kept, newer = snapshot.kept, snapshot.newer
        if kept is None:
            return engine_game_of(game, [d["notation"] for d in newer]), newer
    else:
        kept, newer = _kept.take(game), None
    if kept is not None:
        caught_up = _catch_up(game, *kept, newer)
        if caught_up is not None:
            return caught_up
    counters["rebuilt"] += 1
    documents = _move_documents(game.pk)
    return engine_game_of(game, [d["notation"] for d in documents]), documents


def _catch_up(
    game: Game, engine_game: engine.Game, documents: list[dict], newer: list[dict] | None
) -> History | None:
    behind = engine_game.ply < game.ply
    try:
        if behind:
            if newer is None:
                newer = _move_documents(game.pk, after_ply=engine_game.ply)
            for document in newer:
                engine_game.play(document["notation"])
            documents.extend(newer)
    except engine.EngineError:
        return None  # not this game's history after all
    if (
        engine_game.ply == game.ply == len(documents)
        and not engine_game.is_over
        and engine_game.position.to_string() == game.position
    ):
        counters["caught up" if behind else "kept"] += 1
        return engine_game, documents
    return None


# --- writing -------------------------------------------------------------------------------------


def write(game: Game, move_row: Move) -> None:
    """Insert the move and update the game's :data:`MOVE_FIELDS` (one statement on PostgreSQL).
    The caller holds the game's row lock."""
    sql.insert_and_update(move_row, game, MOVE_FIELDS)


def insert_move(move_row: Move) -> None:
    """Insert the move alone; the caller holds the row lock and saves the game itself."""
    sql.insert(move_row)


def write_if_unchanged(game: Game, move_row: Move, *, expected: dict[str, object]) -> bool:
    """PostgreSQL, no lock held: update the game's :data:`MOVE_FIELDS` only if its columns
    still hold the ``expected`` values, and insert the move only if it did; one statement.
    False, having written nothing, if another writer changed the row first."""
    return sql.update_if_then_insert(game, MOVE_FIELDS, expected, move_row)


def keep_after_commit(game: Game, engine_game: engine.Game, documents: list[dict]) -> None:
    """Once the move commits, keep the engine and moves for this game's next move here."""
    transaction.on_commit(lambda: _kept.keep(game, engine_game, documents))


# --- the kept engines ----------------------------------------------------------------------------


class _KeptEngines:
    """The engine and move list of the games recently moved in this process.

    ``take`` and ``pop`` remove the entry, so a move that fails after taking it (an illegal move,
    a rolled-back transaction) leaves nothing behind; a move that commits keeps its own.
    """

    def __init__(self, size: int = 2000) -> None:
        self._entries: OrderedDict[int, tuple] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def take(self, game: Game) -> History | None:
        """The kept engine and moves of ``game`` if they are of this very game and not ahead
        of it; they may be behind."""
        return self.usable(self.pop(game.pk), game)

    def pop(self, game_id: int) -> tuple | None:
        with self._lock:
            return self._entries.pop(game_id, None)

    @staticmethod
    def usable(entry: tuple | None, game: Game) -> History | None:
        """An entry is of this game if it was kept for the same id and creation time (a test
        database rolled back may give a new game the id of an old one)."""
        if entry is None:
            return None
        created_at, engine_game, documents = entry
        usable = (
            created_at == game.created_at
            and engine_game.ply == len(documents) <= game.ply
            and not engine_game.is_over
        )
        return (engine_game, documents) if usable else None

    def keep(self, game: Game, engine_game: engine.Game, documents: list[dict]) -> None:
        with self._lock:
            self._entries[game.pk] = (game.created_at, engine_game, documents)
            self._entries.move_to_end(game.pk)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_kept = _KeptEngines()


def kept(game: Game) -> History | None:
    """Take what this process keeps of ``game`` (for tests that make a process fall behind)."""
    return _kept.take(game)


def keep(game: Game, engine_game: engine.Game, documents: list[dict]) -> None:
    """Keep ``engine_game`` and ``documents`` as this process's view of ``game`` (for tests)."""
    _kept.keep(game, engine_game, documents)


def forget_all() -> None:
    """Forget every kept engine (between tests: a rolled-back database reuses game ids)."""
    _kept.clear()
