"""Writes for three- and four-player tables: create, join, leave, move, resign, flags.

One locked path per table: every change locks the table's row (``select_for_update``) and then
its seats, in that order; moves carry the ply the client saw (a stale one is a 409). The engine
(games.engine.multi_game) rebuilt from the stored moves decides legality and the end; the clocks
are the server's. Events go out after the commit (multiplayer.events). A flag is adjudicated
by the beat's sweep (multiplayer.tasks.sweep_flags, every second; the in-process runner in the
embedded default) or by any request that finds it fallen; finishing and rating happen once.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import (
    Conflict,
    InvalidInput,
    NotAllowed,
    NotFound,
    Unprocessable,
    engine_text,
)
from games import engine, referee
from games.engine.multi import ALL_COLOURS, COLOUR_NAMES, MultiPosition, empty_board, start_of
from games.engine.multi_game import MultiGame
from games.referee import Refusal
from multiplayer import events
from multiplayer.models import Seat, Table, TableMove
from ratings.services import rating_apply_table

CLOCK_LIMITS = (10, 3 * 3600)  # seconds of a clock's base time, when there is a clock
INCREMENT_LIMIT = 60
#: An open table nobody fills within this long is aborted.
OPEN_TABLE_MINUTES = 60


def engine_game_of(table: Table, notations: list[str] | None = None) -> MultiGame:
    """The engine's game: the table's start and rules, its moves replayed."""
    game = MultiGame(
        position=MultiPosition.from_string(table.start_position),
        placement=table.placement,
        marbles_to_win=table.marbles_to_win,
    )
    if notations is None:
        notations = list(table.moves.order_by("ply").values_list("notation", flat=True))
    for notation in notations:
        game.play(notation)
    return game


def table_create(
    *,
    creator: User,
    players: int,
    base_seconds: int | None,
    increment_seconds: int = 0,
    marbles_to_win: int = 6,
    rated: bool = True,
    colour: str = "random",
    placement: bool = False,
    start: str | None = None,
    now: datetime,
) -> Table:
    """A new table of ``players`` seats with ``creator`` seated (``colour`` or by lot), from
    the players' fixed start, the placement phase, or ``start``: a position string with one
    list per colour (:func:`custom_start`)."""
    if players not in (3, 4):
        raise InvalidInput(
            _("A table has 3 or 4 players, not %(players)s.") % {"players": players},
            code="bad_players",
        )
    if not 1 <= marbles_to_win <= 6:
        raise InvalidInput(_("marbles_to_win must be from 1 to 6."), code="bad_marbles_to_win")
    if base_seconds is not None and not CLOCK_LIMITS[0] <= base_seconds <= CLOCK_LIMITS[1]:
        raise InvalidInput(
            _("base_seconds must be from %(least)s to %(most)s (or empty for no clock).")
            % {"least": CLOCK_LIMITS[0], "most": CLOCK_LIMITS[1]},
            code="bad_clock",
        )
    if not 0 <= increment_seconds <= INCREMENT_LIMIT:
        raise InvalidInput(
            _("increment_seconds must be from 0 to %(increment_limit)s.")
            % {"increment_limit": INCREMENT_LIMIT},
            code="bad_clock",
        )
    colours = ALL_COLOURS[:players]
    if colour != "random" and colour not in colours:
        raise Unprocessable(
            _(
                "A %(players)s-player table has the colours %(colours)s; %(colour)s is not one of them."
            )
            % {"players": players, "colours": ", ".join(colours), "colour": repr(colour)},
            code="bad_colour",
        )
    start = (start or "").strip() or None  # a blank start is no start
    if start is not None and placement:
        raise InvalidInput(
            _("Choose a start position or the placement phase, not both."), code="bad_start"
        )
    if start is not None:
        start = custom_start(start, players)
    else:
        start = empty_board(players) if placement else start_of(players)
    with transaction.atomic():
        table = Table.objects.create(
            created_by=creator,
            players=players,
            variant=Table.Variant.TEAMS if players == 4 else Table.Variant.THREE,
            placement=placement,
            base_seconds=base_seconds,
            increment_seconds=increment_seconds,
            marbles_to_win=marbles_to_win,
            rated=rated,
            start_position=start.to_string(),
            position=start.to_string(),
            created_at=now,
            expires_at=now + timedelta(minutes=OPEN_TABLE_MINUTES),
        )
        clock_ms = (base_seconds or 0) * 1000
        Seat.objects.bulk_create(
            Seat(table=table, index=i, colour=c, clock_ms=clock_ms) for i, c in enumerate(colours)
        )
        _sit(table, creator, None if colour == "random" else colour, now)
        table.document = events.table_changed(table, now=now, lobby=True)
    return table


def custom_start(text: str, players: int) -> MultiPosition:
    """A table's start from a position string (``<side>|<cells>|...``, one list per colour in
    turn order), or a 400 naming the problem. Every colour has a marble and a move to start
    with; the marbles pushed off are counted from this position on."""
    try:
        position = MultiPosition.from_string(text)
    except engine.EngineError as error:
        raise InvalidInput(
            _("The start position cannot be used: %(error)s") % {"error": engine_text(error)},
            code="bad_start",
        ) from error
    if position.players != players:
        raise InvalidInput(
            _(
                "The start position has %(colours)s colours; a %(players)s-player table needs "
                "%(players)s."
            )
            % {"colours": position.players, "players": players},
            code="bad_start",
        )
    empty = [
        COLOUR_NAMES[c]
        for c, cells in zip(position.colours, position.boards, strict=True)
        if not cells
    ]
    if empty:
        raise InvalidInput(
            _("Every colour needs a marble on the board; %(colours)s has none.")
            % {"colours": ", ".join(_(name) for name in empty)},
            code="bad_start",
        )
    if not position.legal_moves():
        raise InvalidInput(
            _("%(colour)s, first to move, has no legal move in this position.")
            % {"colour": _(COLOUR_NAMES[position.side_to_move])},
            code="bad_start",
        )
    return position


def _locked(table_id: int) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound(
            _("There is no table %(table_id)s.") % {"table_id": table_id}, code="unknown_table"
        )
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.select_for_update().filter(table=table).order_by("index"))


def _sit(table: Table, user: User, colour: str | None, now: datetime) -> Seat:
    seats = _seats(table)
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict(
            _("You already have a seat at table %(pk)s.") % {"pk": table.pk}, code="already_seated"
        )
    free = [seat for seat in seats if seat.user_id is None]
    if not free:
        raise Conflict(_("Table %(pk)s is full.") % {"pk": table.pk}, code="table_full")
    if colour is not None:
        chosen = next((seat for seat in seats if seat.colour == colour), None)
        if chosen is None:
            raise Unprocessable(
                _("Table %(pk)s has no colour %(colour)s.")
                % {"pk": table.pk, "colour": repr(colour)},
                code="bad_colour",
            )
        if chosen.user_id is not None:
            raise Conflict(
                _("%(colour)s is taken at table %(pk)s; choose a free seat.")
                % {"colour": _(COLOUR_NAMES[colour]), "pk": table.pk},
                code="seat_taken",
            )
        seat = chosen
    else:
        seat = random.SystemRandom().choice(free)
    seat.user, seat.joined_at = user, now
    seat.save(update_fields=["user", "joined_at"])
    if len(free) == 1:
        _start(table, seats, now)
    return seat


def _start(table: Table, seats: list[Seat], now: datetime) -> None:
    table.status = Table.Status.STARTED
    table.started_at = table.turn_started_at = now
    table.flag_deadline = _deadline(table, seats[0], now)
    table.save(update_fields=["status", "started_at", "turn_started_at", "flag_deadline"])


def _deadline(table: Table, seat: Seat, now: datetime) -> datetime | None:
    if table.base_seconds is None:
        return None
    return now + timedelta(milliseconds=seat.clock_ms)


def table_join(*, table_id: int, user: User, colour: str | None, now: datetime) -> Table:
    """Take a seat (``colour``, or a free one by lot); the game starts when the last is taken."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.Status.OPEN:
            raise Conflict(
                _("Table %(pk)s is not open for players (%(status)s).")
                % {"pk": table.pk, "status": table.get_status_display()},
                code="not_open",
            )
        _sit(table, user, colour, now)
        table.document = events.table_changed(table, now=now, lobby=True)
    return table


def table_leave(*, table_id: int, user: User, now: datetime) -> Table:
    """Give up a seat before the game starts; the table is aborted when nobody is left."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.Status.OPEN:
            raise Conflict(
                _("Table %(pk)s has started or ended: resign instead.") % {"pk": table.pk},
                code="not_open",
            )
        seats = _seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(
                _("You have no seat at table %(pk)s.") % {"pk": table.pk}, code="not_a_player"
            )
        seat.user, seat.joined_at = None, None
        seat.save(update_fields=["user", "joined_at"])
        if all(s.user_id is None for s in seats):
            table.status, table.ended_at = Table.Status.ABORTED, now
            table.termination = Table.Termination.EXPIRED
            table.save(update_fields=["status", "ended_at", "termination"])
        table.document = events.table_changed(table, now=now, lobby=True)
    return table


def _player_seat(table: Table, seats: list[Seat], user: User) -> Seat:
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(
            _("You are not a player of table %(pk)s.") % {"pk": table.pk}, code="not_a_player"
        )
    return seat


def _flagged(table: Table, now: datetime) -> bool:
    return (
        table.status == Table.Status.STARTED
        and table.flag_deadline is not None
        and now >= table.flag_deadline
    )


def _over_error(table: Table) -> Conflict:
    if table.status == Table.Status.OPEN:
        return Conflict(
            _("Table %(pk)s has not started: it waits for players.") % {"pk": table.pk},
            code="not_started",
        )
    return Conflict(
        _("The game at table %(pk)s is over (%(termination)s).")
        % {"pk": table.pk, "termination": table.get_termination_display()},
        code="game_over",
    )


def table_move(*, table_id: int, user: User, move: str, expected_ply: int, now: datetime) -> Table:
    """Play ``move`` (a move or, in the placement phase, ``@e5``) for ``user`` at
    ``expected_ply``. A move at or after the mover's deadline is not played: the flag is
    adjudicated and a 409 ``time_out`` raised after that commits."""
    timed_out = False
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        seat = _player_seat(table, seats, user)
        to_move = table.position[0]
        match referee.move_refusal(
            colour=seat.colour,
            active=table.status == Table.Status.STARTED,
            flagged=_flagged(table, now),
            ply=table.ply,
            expected_ply=expected_ply,
            to_move=to_move,
        ):
            case Refusal.TIME_OUT:
                _adjudicate_flag(table, seats, now)
                timed_out = True
            case Refusal.GAME_OVER:
                raise _over_error(table)
            case Refusal.STALE_PLY:
                raise referee.stale_ply(expected_ply=expected_ply, ply=table.ply)
            case Refusal.NOT_YOUR_TURN:
                raise referee.not_your_turn(COLOUR_NAMES[to_move])
        if not timed_out:
            game = engine_game_of(table)
            try:
                outcome = game.play(move)
            except engine.EngineError as error:
                raise referee.illegal(error) from error
            _advance(table, seats, seat, game, outcome, now)
            if game.over:
                _finish(table, seats, game, now)
        lobby = table.status != Table.Status.STARTED
        table.document = events.table_changed(table, now=now, lobby=lobby)
    if timed_out:
        raise Conflict(
            _(
                "%(colour)s ran out of time before the move arrived: it was not played; the game is over."
            )
            % {"colour": _(COLOUR_NAMES[table.position[0]])},
            code="time_out",
        )
    return table


def _advance(table, seats, seat, game: MultiGame, outcome, now: datetime) -> None:
    spent = max(0, int((now - table.turn_started_at).total_seconds() * 1000))
    if table.base_seconds is not None:
        seat.clock_ms = max(0, seat.clock_ms - spent) + table.increment_seconds * 1000
        seat.save(update_fields=["clock_ms"])
    table.ply += 1
    table.position = game.position.to_string()
    table.turn_started_at = now
    next_seat = seats[game.position.to_move]
    table.flag_deadline = _deadline(table, next_seat, now)
    TableMove.objects.create(
        table=table,
        ply=table.ply,
        colour=seat.colour,
        notation=outcome.move.notation,
        played_at=now,
        clock_ms=seat.clock_ms,
        spent_ms=spent,
        position_after=table.position,
        pushed_off=outcome.ejected or "",
    )
    if outcome.ejected:
        seat.pushed_off = game.pushed_off[seat.colour]
        seat.save(update_fields=["pushed_off"])
    table.save(update_fields=["ply", "position", "turn_started_at", "flag_deadline"])


def _finish(table: Table, seats: list[Seat], game: MultiGame, now: datetime) -> None:
    """Record the end the engine reached: places, the termination, the rating (once)."""
    places = {colour: place for place, colour in game.ranking()}
    for seat in seats:
        seat.place = places[seat.colour]
        seat.out = seat.colour == game.out
        seat.pushed_off = game.pushed_off[seat.colour]
    Seat.objects.bulk_update(seats, ["place", "out", "pushed_off"])
    table.status = Table.Status.FINISHED
    table.termination = game.termination
    table.ended_at = now
    table.flag_deadline = None
    table.save(update_fields=["status", "termination", "ended_at", "flag_deadline"])
    rating_apply_table(table=table, seats=seats, now=now)


def _adjudicate_flag(table: Table, seats: list[Seat], now: datetime) -> None:
    """The seat to move ran out of time: it finishes last (its team, with four) and the game
    ends."""
    game = engine_game_of(table)
    seat = seats[game.position.to_move]
    if table.base_seconds is not None:
        seat.clock_ms = 0
        seat.save(update_fields=["clock_ms"])
    game.drop_out(seat.colour, "time")
    _finish(table, seats, game, now)


def table_resign(*, table_id: int, user: User, now: datetime) -> Table:
    """``user`` resigns: last place (their team, with four), and the game ends."""
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        seat = _player_seat(table, seats, user)
        if _flagged(table, now):
            _adjudicate_flag(table, seats, now)
        else:
            if table.status != Table.Status.STARTED:
                raise _over_error(table)
            game = engine_game_of(table)
            game.drop_out(seat.colour, "resignation")
            _finish(table, seats, game, now)
        table.document = events.table_changed(table, now=now, lobby=True)
    return table


def table_current(*, table_id: int, now: datetime) -> Table:
    """The table as of now: a fallen flag is adjudicated first."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(
            _("There is no table %(table_id)s.") % {"table_id": table_id}, code="unknown_table"
        )
    if _flagged(table, now):
        tables_adjudicate(table_id=table_id, now=now)
        table.refresh_from_db()
    return table


def tables_adjudicate(*, table_id: int, now: datetime) -> bool:
    """Adjudicate ``table_id``'s flag if it has fallen (idempotent); True if it did now."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or not _flagged(table, now):
            return False
        _adjudicate_flag(table, _seats(table), now)
        events.table_changed(table, now=now, lobby=True)
    return True


def tables_sweep(*, now: datetime) -> int:
    """The beat's sweep: adjudicate every fallen flag; abort open tables nobody filled."""
    done = 0
    due = Table.objects.filter(status=Table.Status.STARTED, flag_deadline__lte=now)
    for table_id in due.values_list("pk", flat=True):
        done += tables_adjudicate(table_id=table_id, now=now)
    stale = Table.objects.filter(status=Table.Status.OPEN, expires_at__lte=now)
    for table_id in stale.values_list("pk", flat=True):
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table.status != Table.Status.OPEN or table.expires_at > now:
                continue
            table.status, table.ended_at = Table.Status.ABORTED, now
            table.termination = Table.Termination.EXPIRED
            table.save(update_fields=["status", "ended_at", "termination"])
            events.table_changed(table, now=now, lobby=True)
        done += 1
    return done
