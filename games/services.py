"""Every write to a game goes through here.

One locked code path per game: each service takes ``SELECT ... FOR UPDATE`` on the game row (on
SQLite the IMMEDIATE transaction serialises writers instead), re-reads the state, and checks the
ply the client saw, so two racing requests give one success and one 409. Time is a parameter
(``now``). Events go to browsers after the commit, carrying the new version.

The one shortcut: on PostgreSQL an ordinary move is written by a compare-and-set, one statement
that changes the row only if its ply, status and draw offer are still those the move was decided
on (the row lock is then held only by that statement). Any other outcome goes to the locked path
above, which alone refuses moves; see ``game_move_apply``.

Adjudication (``game_adjudicate``) and finishing (``game_finish``) are idempotent: a flag is
adjudicated once however often it is checked, by a move, a read, a client's claim, the sweep or
the task scheduled at the deadline.
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.db import transaction

from abalone_site import sql
from abalone_site.errors import Conflict, InvalidInput, NotAllowed, NotFound
from abalone_site.jobs import enqueue
from accounts.models import User
from games import clock as game_clock
from games import engine, selectors
from games.models import Challenge, Game, Move
from tournaments.models import Board

BLACK, WHITE = "b", "w"
COLOUR_NAME = {BLACK: "Black", WHITE: "White"}
# Deadline tasks are scheduled only for deadlines this close. Further ones are scheduled by the
# sweep once they come this near, so a busy server does not send a task for every move (Celery
# holds countdown tasks in worker memory, and the Redis transport may redeliver long ones).
DEADLINE_TASK_HORIZON_SECONDS = 5.0
# The sweep runs every second; it schedules the deadlines entering the horizon in a window a
# little wider than that, so each game gets one or two tasks, not one a second.
SWEEP_SCHEDULING_WINDOW_SECONDS = 1.5
# What a move changes on the game's row.
MOVE_FIELDS = [
    "ply",
    "position",
    "black_ms",
    "white_ms",
    "turn_started_at",
    "flag_deadline",
    "draw_offer",
]


def _other(colour: str) -> str:
    return WHITE if colour == BLACK else BLACK


def _win_for(colour: str) -> str:
    return engine.BLACK_WINS if colour == BLACK else engine.WHITE_WINS


# --- settings of a new game ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameSettings:
    base_seconds: int | None
    increment_seconds: int = 0
    marbles_to_win: int = 6
    start: str = "belgian"
    rated: bool = True

    def validated(self) -> GameSettings:
        try:
            tc = game_clock.TimeControl(self.base_seconds, self.increment_seconds)
        except ValueError as error:
            raise InvalidInput(f"time control: {error}.", code="invalid_time_control") from error
        if not isinstance(self.marbles_to_win, int) or not 1 <= self.marbles_to_win <= 6:
            raise InvalidInput("marbles_to_win must be 1 to 6 (6 standard, 4 blitz).")
        if self.rated and not tc.has_clock:
            raise InvalidInput("A rated game needs a clock.", code="rated_needs_clock")
        if self.start not in engine.START_NAMES:
            raise InvalidInput(
                f"start must be one of {', '.join(engine.START_NAMES)}, not '{self.start}'.",
                code="invalid_start",
            )
        return self


def game_create(
    *,
    black: User,
    white: User,
    game_settings: GameSettings,
    now: datetime,
    first_move_seconds: int | None = None,
    max_plies_result: str = "draw",
) -> Game:
    """Create a started game; Black's first-move timer runs from ``now``."""
    game_settings = game_settings.validated()
    if black.pk == white.pk:
        raise InvalidInput("A player cannot play against themself.", code="same_player")
    first_move_seconds = first_move_seconds or settings.GAME_FIRST_MOVE_SECONDS
    start = engine.start_position(game_settings.start)
    tc = game_clock.TimeControl(game_settings.base_seconds, game_settings.increment_seconds)
    clock = game_clock.start(tc=tc, now=now, first_move_seconds=first_move_seconds)
    game = Game.objects.create(
        black=black,
        white=white,
        base_seconds=game_settings.base_seconds,
        increment_seconds=game_settings.increment_seconds,
        marbles_to_win=game_settings.marbles_to_win,
        start=game_settings.start,
        rated=game_settings.rated,
        start_position=start.to_string(),
        position=start.to_string(),
        first_move_seconds=first_move_seconds,
        max_plies_result=max_plies_result,
        black_ms=clock.black_ms,
        white_ms=clock.white_ms,
        turn_started_at=now,
        flag_deadline=clock.deadline(),
        created_at=now,
    )
    _after_commit(game, now)
    return game


# --- challenges ----------------------------------------------------------------------------------


def challenge_create(
    *,
    challenger: User,
    opponent: User | None,
    colour: str,
    game_settings: GameSettings,
    now: datetime,
) -> Challenge:
    game_settings.validated()
    if colour not in Challenge.Colour.values:
        raise InvalidInput(f"colour must be one of {', '.join(Challenge.Colour.values)}.")
    if opponent is not None and opponent.pk == challenger.pk:
        raise InvalidInput("You cannot challenge yourself.", code="same_player")
    return Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        colour=colour,
        base_seconds=game_settings.base_seconds,
        increment_seconds=game_settings.increment_seconds,
        marbles_to_win=game_settings.marbles_to_win,
        start=game_settings.start,
        rated=game_settings.rated,
        created_at=now,
        expires_at=now + timedelta(seconds=settings.CHALLENGE_EXPIRY_SECONDS),
    )


def _locked_challenge(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise NotFound(f"There is no challenge {challenge_id}.")
    return challenge


def _require_open(challenge: Challenge, now: datetime) -> None:
    status = challenge.status
    if status == Challenge.Status.OPEN and challenge.expires_at <= now:
        status = Challenge.Status.EXPIRED  # the periodic sweep records it
    if status != Challenge.Status.OPEN:
        raise Conflict(f"This challenge is {status}.", code=f"challenge_{status}")


def challenge_accept(*, challenge_id: int, user: User, now: datetime) -> Game:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise NotAllowed("This challenge is addressed to another player.")
        if challenge.challenger_id == user.pk:
            raise Conflict("You cannot accept your own challenge.", code="own_challenge")
        _require_open(challenge, now)
        colour = challenge.colour
        if colour == Challenge.Colour.RANDOM:
            colour = secrets.choice([Challenge.Colour.BLACK, Challenge.Colour.WHITE])
        black, white = (
            (challenge.challenger, user)
            if colour == Challenge.Colour.BLACK
            else (user, challenge.challenger)
        )
        game = game_create(
            black=black,
            white=white,
            game_settings=GameSettings(
                base_seconds=challenge.base_seconds,
                increment_seconds=challenge.increment_seconds,
                marbles_to_win=challenge.marbles_to_win,
                start=challenge.start,
                rated=challenge.rated,
            ),
            now=now,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.game = game
        challenge.save(update_fields=["status", "opponent", "game"])
    return game


def _close_challenge(
    *, challenge_id: int, user: User, now: datetime, by_opponent: bool, status: str
) -> Challenge:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        allowed = challenge.opponent_id if by_opponent else challenge.challenger_id
        if allowed != user.pk:
            who = "challenged player" if by_opponent else "challenger"
            verb = "decline" if by_opponent else "cancel"
            raise NotAllowed(f"Only the {who} may {verb} a challenge.")
        _require_open(challenge, now)
        challenge.status = status
        challenge.save(update_fields=["status"])
    return challenge


def challenge_decline(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    return _close_challenge(
        challenge_id=challenge_id,
        user=user,
        now=now,
        by_opponent=True,
        status=Challenge.Status.DECLINED,
    )


def challenge_cancel(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    return _close_challenge(
        challenge_id=challenge_id,
        user=user,
        now=now,
        by_opponent=False,
        status=Challenge.Status.CANCELLED,
    )


def challenges_expire(*, now: datetime) -> int:
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )


# --- moves ---------------------------------------------------------------------------------------


def _locked_game(game_id: int) -> Game:
    """The game's row, locked for this transaction, with both players loaded.

    Plain SQL (see :mod:`abalone_site.sql`): every move takes this lock, and the ORM's compiling
    of the query cost five times what running it does. Only the game's row is locked
    (``FOR UPDATE OF``); on SQLite the IMMEDIATE transaction serialises writers instead.
    """
    from django.db import connection

    lock = ""
    if connection.features.has_select_for_update:
        lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
    query = (
        f"SELECT {sql.columns(Game, 'g')}, {sql.columns(User, 'b')}, {sql.columns(User, 'w')} "
        f"FROM {Game._meta.db_table} g "
        f"JOIN {User._meta.db_table} b ON b.id = g.black_id "
        f"JOIN {User._meta.db_table} w ON w.id = g.white_id "
        f"WHERE g.id = %s{lock}"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise NotFound(f"There is no game {game_id}.")
    game, game.black, game.white = sql.instances(row, Game, User, User)
    return game


# The columns of a move as the state shows it (selectors.move_document), in its order.
_MOVE_COLUMNS = ("ply", "notation", "played_at", "clock_ms", "pushed_off")


def _move_documents(game: Game, *, after_ply: int = 0) -> list[dict]:
    """The game's moves after ``after_ply`` in ply order as its state shows them, read with
    plain SQL (on every move that cannot use the replay cache as it is, like the lock)."""
    from django.db import connection

    fields = [Move._meta.get_field(name) for name in ("played_at", "pushed_off")]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_MOVE_COLUMNS)} FROM {Move._meta.db_table} "
            "WHERE game_id = %s AND ply > %s ORDER BY ply",
            [game.pk, after_ply],
        )
        rows = cursor.fetchall()
    played_at, pushed_off = (sql.converter(field) for field in fields)
    return [
        selectors.move_document(ply, notation, played_at(when), clock_ms, pushed_off(off))
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


def _game_and_moves_since(game_id: int, after_ply: int) -> tuple[Game, list[dict]] | None:
    """PostgreSQL, no lock: the game's row with both players and its moves after ``after_ply``
    (as :func:`_move_documents` gives them), read by one statement, so from one snapshot: the
    moves are exactly those up to the row's ply. None if there is no such game."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_game_and_moves_query(), [after_ply, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game, game.black, game.white = sql.instances(row[: -len(_MOVE_COLUMNS)], Game, User, User)
    plies, notations, played_at, clocks, pushed_off = (
        values or [] for values in row[-len(_MOVE_COLUMNS) :]
    )
    documents = [
        selectors.move_document(*move)
        for move in zip(plies, notations, played_at, clocks, pushed_off, strict=True)
    ]
    return game, documents


def _player_colour(game: Game, user: User) -> str:
    colour = game.colour_of(user) if user.is_authenticated else None
    if colour is None:
        raise NotAllowed(f"You are not a player of game {game.pk}.", code="not_a_player")
    return colour


def replay(game: Game, notations: list[str] | None = None) -> engine.Game:
    """The engine's view of ``game``: its start, settings and every move played.

    ``notations`` are the game's moves in ply order, when the caller has them already.
    """
    engine_game = engine.Game(
        game.start_position,
        marbles_to_win=game.marbles_to_win,
        threefold_repetition=game.threefold_repetition,
        max_plies=game.max_plies,
        max_plies_result=game.max_plies_result,
    )
    if notations is None:
        notations = (
            Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True)
        )
    for notation in notations:
        engine_game.play(notation)
    return engine_game


class _ReplayCache:
    """The engine game and move list of games recently moved in this process.

    A move needs the engine's view of the game (for legality, repetition and the move cap) and
    the move list (for the state it answers with); rebuilding both is a query for every move and
    a replay of them all, a third of a move's CPU by the middle of a game. After a move commits,
    its game's engine and moves are kept here, and the next move of that game in this process
    takes them (see :func:`_engine_and_documents`): as they are when no other process moved the
    game since, or caught up with the moves played since, which are the only ones read. Each
    player's connection stays with one web process, so the other player's moves are usually
    the ones to catch up with. ``take`` removes the entry, so a move that fails after taking it
    (an illegal move, a rolled-back transaction) leaves nothing behind.
    """

    def __init__(self, size: int = 2000) -> None:
        self._entries: OrderedDict[int, tuple] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()
        # for the tests and the curious: moves that took an entry as it was, or caught it up
        self.hits = 0
        self.caught_up = 0

    def take(self, game: Game) -> tuple[engine.Game, list[dict]] | None:
        """The kept engine and moves of ``game`` if they are of this very game (same id and
        creation time) and not ahead of it; they may be behind."""
        return self.usable(self.pop(game.pk), game)

    def pop(self, game_id: int) -> tuple | None:
        """Whatever is kept for the game ``game_id``, unchecked (see :meth:`usable`)."""
        with self._lock:
            return self._entries.pop(game_id, None)

    @staticmethod
    def usable(entry: tuple | None, game: Game) -> tuple[engine.Game, list[dict]] | None:
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


_replays = _ReplayCache()
# Moves by the path that decided them, for the tests and the curious (see game_move_apply).
move_paths: Counter[str] = Counter()


def _engine_and_documents(
    game: Game,
    kept: tuple[engine.Game, list[dict]] | None = None,
    newer: list[dict] | None = None,
) -> tuple[engine.Game, list[dict]]:
    """The engine's view of the locked ``game`` and its moves as the state shows them: what this
    process kept after the game's last move here, caught up if others moved since, or else
    rebuilt from every move. Whatever the route, the engine must end exactly at the row's ply
    and position, or the game is rebuilt from scratch.

    ``kept`` is what was kept for the game (taken from the cache when not given); ``newer`` the
    moves played since, when the caller read them with the game (read here when not given)."""
    if kept is None:
        kept = _replays.take(game)
    if kept is not None:
        engine_game, documents = kept
        behind = engine_game.ply < game.ply
        try:
            if behind:
                if newer is None:
                    newer = _move_documents(game, after_ply=engine_game.ply)
                for document in newer:
                    engine_game.play(document["notation"])
                documents.extend(newer)
        except engine.EngineError:
            pass  # not this game's history after all: rebuild it below
        else:
            if (
                engine_game.ply == game.ply == len(documents)
                and not engine_game.is_over
                and engine_game.position.to_string() == game.position
            ):
                if behind:
                    _replays.caught_up += 1
                else:
                    _replays.hits += 1
                return engine_game, documents
    documents = _move_documents(game)
    return replay(game, [document["notation"] for document in documents]), documents


def _game_over_error(game: Game) -> Conflict:
    return Conflict(
        f"Game {game.pk} is over ({game.result or 'aborted'}, {game.termination}).",
        code="game_over",
    )


def game_move_apply(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game:
    """Play ``move`` for ``player`` if it is their turn at ``expected_ply`` and in time.

    A move at or after the deadline is not played: the game is adjudicated (lost on time, or
    abandoned during the first moves) and a 409 ``time_out`` is raised after that commits.

    On PostgreSQL an ordinary move (one that does not end the game) is first tried without
    taking the lock (:func:`_move_compare_and_set`); anything else, or a game that changed in
    the meantime, takes the locked path, which alone decides every refusal.
    """
    if _compare_and_set_moves():
        game = _move_compare_and_set(
            game_id=game_id, player=player, move=move, expected_ply=expected_ply, now=now
        )
        if game is not None:
            move_paths["compare-and-set"] += 1
            return game
    move_paths["locked"] += 1
    return _move_locked(
        game_id=game_id, player=player, move=move, expected_ply=expected_ply, now=now
    )


def _compare_and_set_moves() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql" and settings.GAME_MOVES_COMPARE_AND_SET


def _move_compare_and_set(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game | None:
    """The move as :func:`_move_locked` would play it, in two statements and no transaction:
    the game is read without a lock, with the moves this process has not seen (one snapshot),
    and the move is written by one statement that updates the row only if its ply, status and
    draw offer are still as read (the only columns of an active game that change: see
    ``MOVE_FIELDS`` and the draw services), and inserts the move only if it did.

    Returns None, having written nothing, whenever the locked path must decide: no such game,
    not a player, the game over or flagged, a stale ply, not the player's turn, an illegal move,
    a move that ends the game, or a row that changed between the read and the write (the other
    writer's lock is waited for, as the locked path would). Locking the row for the whole move
    cost two round trips more (BEGIN, COMMIT) and held the lock across them.
    """
    entry = _replays.pop(game_id)
    found = _game_and_moves_since(game_id, entry[1].ply if entry is not None else 0)
    if found is None:
        return None
    game, newer = found
    kept = _replays.usable(entry, game)
    if entry is not None and kept is None:
        return None  # ``newer`` is only the tail of the moves: let the locked path rebuild
    colour = game.colour_of(player) if player.is_authenticated else None
    if (
        colour is None
        or not game.is_active
        or game.clock.is_flagged(now)
        or expected_ply != game.ply
        or game.side_to_move != colour
    ):
        if kept is not None:
            _replays.keep(game, *kept)  # untouched: still good for the locked path
        return None
    if kept is None:
        engine_game, documents = replay(game, [d["notation"] for d in newer]), newer
    else:
        engine_game, documents = _engine_and_documents(game, kept, newer)
    if engine_game.ply != game.ply or engine_game.position.to_string() != game.position:
        return None  # a rebuild read moves newer than the row: the row changed meanwhile
    try:
        outcome = engine_game.play(move)
    except engine.EngineError:
        return None
    if engine_game.is_over:
        return None
    read_draw_offer = game.draw_offer
    move_row = _advance(game, engine_game, outcome, colour, now)
    if not sql.update_if_then_insert(
        game,
        MOVE_FIELDS,
        {"ply": expected_ply, "status": Game.Status.STARTED, "draw_offer": read_draw_offer},
        move_row,
    ):
        return None
    documents.append(_played_document(move_row))
    _after_commit(game, now, move_documents=documents)
    transaction.on_commit(lambda: _replays.keep(game, engine_game, documents))
    return game


def _advance(game: Game, engine_game: engine.Game, outcome, colour: str, now: datetime) -> Move:
    """Set ``game``'s fields as after the move the engine just played; the move's row."""
    timing = game_clock.after_move(game.clock, now=now, has_clock=game.time_control.has_clock)
    game.ply += 1
    game.position = engine_game.position.to_string()
    game.black_ms = timing.clock.black_ms
    game.white_ms = timing.clock.white_ms
    game.turn_started_at = now
    game.flag_deadline = timing.clock.deadline()
    if game.draw_offer == _other(colour):
        game.draw_offer = ""  # moving on declines the opponent's offer
    return Move(
        game=game,
        ply=game.ply,
        notation=outcome.move.notation,
        played_at=now,
        clock_ms=timing.mover_ms_after,
        spent_ms=timing.spent_ms,
        position_after=game.position,
        pushed_off=outcome.pushed_off is not None,
    )


def _played_document(move_row: Move) -> dict:
    return selectors.move_document(
        move_row.ply, move_row.notation, move_row.played_at, move_row.clock_ms, move_row.pushed_off
    )


def _move_locked(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game:
    timed_out = False
    with transaction.atomic():
        game = _locked_game(game_id)
        colour = _player_colour(game, player)
        if game.is_active and game.clock.is_flagged(now):
            _adjudicate_locked(game, now)
            timed_out = True
        else:
            if not game.is_active:
                raise _game_over_error(game)
            if expected_ply != game.ply:
                raise Conflict(
                    f"You sent ply {expected_ply} but the game is at ply {game.ply}: "
                    "refetch the game.",
                    code="stale_ply",
                )
            if game.side_to_move != colour:
                raise Conflict(
                    f"It is {COLOUR_NAME[game.side_to_move]}'s turn, not yours.",
                    code="not_your_turn",
                )
            engine_game, documents = _engine_and_documents(game)
            try:
                outcome = engine_game.play(move)
            except engine.EngineError as error:
                raise InvalidInput(str(error), code="illegal_move") from error
            move_row = _advance(game, engine_game, outcome, colour, now)
            documents.append(_played_document(move_row))
            if engine_game.is_over:
                sql.insert(move_row)
                _finish_locked(game, engine_game.result, engine_game.termination, now)
            else:
                sql.insert_and_update(move_row, game, MOVE_FIELDS)
                _after_commit(game, now, move_documents=documents)
                transaction.on_commit(lambda: _replays.keep(game, engine_game, documents))
    if timed_out:
        raise Conflict(
            f"{COLOUR_NAME[game.side_to_move]} ran out of time before the move arrived: "
            f"it was not played; the game is over ({game.result or 'aborted'}, "
            f"{game.termination}).",
            code="time_out",
        )
    return game


# --- ending a game -------------------------------------------------------------------------------


def _finish_locked(
    game: Game, result: str, termination: str, now: datetime, *, aborted: bool = False
) -> bool:
    """Record the end of ``game``; the caller holds the row lock. Idempotent: False if over."""
    if not game.is_active:
        return False
    if game.flag_deadline is not None and game.time_control.has_clock and game.ply >= 2:
        stopped = game_clock.stop(game.clock, now=now)
        game.black_ms, game.white_ms = stopped.black_ms, stopped.white_ms
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.result = "" if aborted else result
    game.termination = termination
    game.flag_deadline = None
    game.draw_offer = ""
    game.ended_at = now
    game.save()
    _after_commit(game, now)
    # The tournament first, then the ratings: the lock order of the tournament services too
    # (tournament, round, rating rows), so no two paths wait on each other.
    from ratings.services import rating_apply_game
    from tournaments.services import tournament_game_finished

    tournament_game_finished(game=game, now=now)  # a no-op for a game outside tournaments

    rating_apply_game(game=game, now=now)
    return True


def game_finish(*, game_id: int, result: str, termination: str, now: datetime) -> bool:
    """End a game for a reason outside the board (used by tournaments for forfeits)."""
    with transaction.atomic():
        return _finish_locked(_locked_game(game_id), result, termination, now)


def _adjudicate_locked(game: Game, now: datetime) -> bool:
    if not game.is_active or not game.clock.is_flagged(now):
        return False
    loser = game.side_to_move
    if game.ply < 2:
        if Board.objects.filter(game=game).exists():  # in a tournament: a forfeit
            return _finish_locked(game, _win_for(_other(loser)), Game.Termination.FORFEIT, now)
        if not game.rated:
            return _finish_locked(game, "", Game.Termination.ABORTED, now, aborted=True)
        return _finish_locked(game, _win_for(_other(loser)), Game.Termination.ABANDONED, now)
    return _finish_locked(game, _win_for(_other(loser)), Game.Termination.TIME, now)


def game_adjudicate(*, game_id: int, now: datetime) -> bool:
    """End the game if the side to move has run out of time at ``now``. Idempotent."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        return _adjudicate_locked(game, now)


def games_sweep_flags(*, now: datetime, limit: int = 500) -> int:
    """Adjudicate every game whose deadline has passed; the periodic correctness net.

    It also schedules the deadline task of every game whose deadline is entering the next
    ``DEADLINE_TASK_HORIZON_SECONDS``, so flags are adjudicated at the deadline itself even
    though moves only schedule tasks for deadlines that close. A task scheduled twice is
    harmless: adjudication is idempotent.
    """
    from games.tasks import adjudicate_game

    flagged_ids = list(
        Game.objects.filter(status=Game.Status.STARTED, flag_deadline__lte=now)
        .order_by("flag_deadline")
        .values_list("pk", flat=True)[:limit]
    )
    adjudicated = sum(game_adjudicate(game_id=game_id, now=now) for game_id in flagged_ids)
    horizon = now + timedelta(seconds=DEADLINE_TASK_HORIZON_SECONDS)
    soon = Game.objects.filter(
        status=Game.Status.STARTED,
        flag_deadline__gt=horizon - timedelta(seconds=SWEEP_SCHEDULING_WINDOW_SECONDS),
        flag_deadline__lte=horizon,
    ).values_list("pk", "flag_deadline")[:limit]
    for game_id, deadline in soon:
        enqueue(adjudicate_game, game_id, countdown=(deadline - now).total_seconds() + 0.05)
    return adjudicated


def game_claim_flag(*, game_id: int, player: User, now: datetime) -> Game:
    """A player says the opponent's time is up; the server's clock decides."""
    with transaction.atomic():
        game = _locked_game(game_id)
        colour = _player_colour(game, player)
        if not game.is_active:
            raise _game_over_error(game)
        if game.side_to_move == colour or not _adjudicate_locked(game, now):
            left = game.clock.remaining_ms(game.side_to_move, now)
            raise Conflict(
                f"{COLOUR_NAME[game.side_to_move]} still has {left / 1000:.1f} s.",
                code="not_flagged",
            )
    return game


def _active_for(game_id: int, player: User, now: datetime) -> tuple[Game, str]:
    """Lock the game for ``player``'s action; adjudicate a pending flag first."""
    game = _locked_game(game_id)
    colour = _player_colour(game, player)
    _adjudicate_locked(game, now)
    if not game.is_active:
        raise _game_over_error(game)
    return game, colour


def game_resign(*, game_id: int, player: User, now: datetime) -> Game:
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        _finish_locked(game, _win_for(_other(colour)), Game.Termination.RESIGNATION, now)
    return game


def game_abort(*, game_id: int, player: User, now: datetime) -> Game:
    """Either player may abort before both have made their first move."""
    with transaction.atomic():
        game, _ = _active_for(game_id, player, now)
        if game.ply >= 2:
            raise Conflict(
                "Both players have moved: resign instead of aborting.", code="too_late_to_abort"
            )
        _finish_locked(game, "", Game.Termination.ABORTED, now, aborted=True)
    return game


def game_draw_offer(*, game_id: int, player: User, now: datetime) -> Game:
    """Offer a draw; if the opponent already offers one, this accepts it."""
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        if game.draw_offer == _other(colour):
            _finish_locked(game, engine.DRAW, Game.Termination.AGREEMENT, now)
            return game
        if game.draw_offer == colour:
            raise Conflict("You already offer a draw.", code="draw_already_offered")
        game.draw_offer = colour
        game.save(update_fields=["draw_offer"])
        _after_commit(game, now, schedule=False)
    return game


def game_draw_answer(*, game_id: int, player: User, accept: bool, now: datetime) -> Game:
    with transaction.atomic():
        game, colour = _active_for(game_id, player, now)
        if game.draw_offer != _other(colour):
            raise Conflict("Your opponent does not offer a draw.", code="no_draw_offer")
        if accept:
            _finish_locked(game, engine.DRAW, Game.Termination.AGREEMENT, now)
        else:
            game.draw_offer = ""
            game.save(update_fields=["draw_offer"])
            _after_commit(game, now, schedule=False)
    return game


# --- after commit: events and the deadline task --------------------------------------------------


def _after_commit(
    game: Game, now: datetime, *, schedule: bool = True, move_documents: list | None = None
) -> None:
    """After the commit: publish the game's state, and schedule its deadline task if close.

    With ``move_documents`` (all of the game's moves, rendered) the state is built from ``game``
    without reading the game again.
    """
    from games.events import publish_game
    from games.tasks import adjudicate_game

    game_id = game.pk
    if move_documents is None:
        transaction.on_commit(lambda: publish_game(game_id))
    else:
        transaction.on_commit(
            lambda: publish_game(game_id, game=game, move_documents=move_documents)
        )
    if schedule and game.is_active and game.flag_deadline is not None:
        countdown = (game.flag_deadline - now).total_seconds() + 0.05
        if countdown <= DEADLINE_TASK_HORIZON_SECONDS:
            enqueue(adjudicate_game, game_id, countdown=max(0.0, countdown))
