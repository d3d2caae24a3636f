"""Playing a move: the rules and the clock decide, :mod:`games.move_store` reads and writes.

One locked path decides every move that can be refused: it locks the game's row, checks the
ply the client saw (two racing moves give one success and one 409 ``stale_ply``), the turn, the
clock and the rules. On PostgreSQL an ordinary move (one that does not end the game) is first
tried without the lock, as a compare-and-set that changes the row only if its ply, status and
draw offer are still those the move was decided on; anything else takes the locked path.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, NotAllowed, ServiceError
from games import clock as game_clock
from games import conditional, engine, move_store, referee
from games.models import ConditionalMoves, Game, Move
from games.referee import Refusal
from games.selectors import move_document, on_vacation
from games.services.lifecycle import adjudicate_locked, after_commit, finish_locked, game_over_error


def player_colour(game: Game, user: User) -> str:
    """``user``'s colour in ``game``, or NotAllowed if they do not play it."""
    colour = _colour_of(game, user)
    if colour is None:
        raise _not_a_player(game)
    return colour


def _colour_of(game: Game, user: User) -> str | None:
    return game.colour_of(user) if user.is_authenticated else None


def _not_a_player(game: Game) -> NotAllowed:
    return NotAllowed(
        _("You are not a player of game %(pk)s.") % {"pk": game.pk},
        code=Refusal.NOT_A_PLAYER.value,
    )


def _refusal(game: Game, colour: str | None, expected_ply: int, now: datetime) -> Refusal | None:
    """The referee's verdict on a move by ``colour`` at ``expected_ply`` (games.referee)."""
    return referee.move_refusal(
        colour=colour,
        active=game.is_active,
        flagged=game.clock.is_flagged(now),
        ply=game.ply,
        expected_ply=expected_ply,
        to_move=game.side_to_move,
    )


def game_move_apply(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game:
    """Play ``move`` for ``player`` if it is their turn at ``expected_ply`` and in time.

    A move at or after the deadline is not played: the game is adjudicated (lost on time, or
    abandoned during the first moves) and a 409 ``time_out`` is raised after that commits.
    """
    game = None
    if move_store.compare_and_set_enabled():
        game = _move_compare_and_set(
            game_id=game_id, player=player, move=move, expected_ply=expected_ply, now=now
        )
    if game is None:
        game = _move_locked(
            game_id=game_id, player=player, move=move, expected_ply=expected_ply, now=now
        )
    if game.days_per_move and game.is_active and has_conditional_moves(game.pk):
        conditional_follow(game_id=game.pk, now=now)
    return game


def _move_compare_and_set(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game | None:
    """The move as :func:`_move_locked` would play it, in two statements and no transaction:
    the game read without a lock, and the move written only if the row is still as read (the
    only columns of an active game that change are ``MOVE_FIELDS`` and the draw offer). Locking
    the row for the whole move cost two round trips more (BEGIN, COMMIT) and held the lock
    across them.

    Returns None, having written nothing, whenever the locked path must decide: no such game,
    not a player, the game over or flagged, a stale ply, not the player's turn, an illegal move,
    a move that ends the game, or a row that changed between the read and the write (the other
    writer's lock is waited for, as the locked path would).
    """
    snapshot = move_store.read(game_id)
    if snapshot is None:
        return None
    game = snapshot.game
    colour = _colour_of(game, player)
    if _refusal(game, colour, expected_ply, now) is not None:
        snapshot.put_back()  # untouched: still good for the locked path
        return None
    engine_game, documents = move_store.history(game, snapshot)
    if engine_game.ply != game.ply or engine_game.position.to_string() != game.position:
        return None  # a rebuild read moves newer than the row: the row changed meanwhile
    try:
        outcome = engine_game.play(move)
    except engine.EngineError:
        return None
    if engine_game.is_over:
        return None
    expected = {"ply": expected_ply, "status": Game.Status.STARTED, "draw_offer": game.draw_offer}
    move_row = _advance(game, engine_game, outcome, colour, now)
    if not move_store.write_if_unchanged(game, move_row, expected=expected):
        return None
    documents.append(_played_document(move_row))
    after_commit(game, now, move_documents=documents, engine_game=engine_game)
    move_store.keep_after_commit(game, engine_game, documents)
    return game


def _move_locked(
    *, game_id: int, player: User, move: str, expected_ply: int, now: datetime
) -> Game:
    timed_out = False
    with transaction.atomic():
        game = move_store.lock(game_id)
        colour = _colour_of(game, player)
        match _refusal(game, colour, expected_ply, now):
            case Refusal.NOT_A_PLAYER:
                raise _not_a_player(game)
            case Refusal.TIME_OUT:
                adjudicate_locked(game, now)
                timed_out = True
            case Refusal.GAME_OVER:
                raise game_over_error(game)
            case Refusal.STALE_PLY:
                raise referee.stale_ply(expected_ply=expected_ply, ply=game.ply)
            case Refusal.NOT_YOUR_TURN:
                raise referee.not_your_turn(engine.COLOUR_NAMES[game.side_to_move])
        if not timed_out:
            engine_game, documents = move_store.history(game)
            try:
                outcome = engine_game.play(move)
            except engine.EngineError as error:
                raise referee.illegal(error) from error
            move_row = _advance(game, engine_game, outcome, colour, now)
            documents.append(_played_document(move_row))
            if engine_game.is_over:
                move_store.insert_move(move_row)
                finish_locked(game, engine_game.result, engine_game.termination, now)
            else:
                move_store.write(game, move_row)
                after_commit(game, now, move_documents=documents, engine_game=engine_game)
                move_store.keep_after_commit(game, engine_game, documents)
    if timed_out:
        raise Conflict(
            _(
                "%(colour)s ran out of time before the move arrived: it was not played; the game is over (%(result)s, %(termination)s)."
            )
            % {
                "colour": _(engine.COLOUR_NAMES[game.side_to_move]),
                "result": game.result or _("aborted"),
                "termination": game.get_termination_display(),
            },
            code="time_out",
        )
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
    if game.days_per_move and on_vacation(game.player_to_move_id, now):
        game.flag_deadline = None  # the turn starts stopped (games.services.vacation)
    if game.draw_offer == engine.opponent(colour):
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
    return move_document(
        move_row.ply, move_row.notation, move_row.played_at, move_row.clock_ms, move_row.pushed_off
    )


# --- conditional moves (correspondence) -----------------------------------------------------------


def conditional_follow(*, game_id: int, now: datetime) -> int:
    """Play the answers that the players' conditional moves give to the moves made since they
    were saved (games.conditional): an answer to the opponent's last move is played at once, by
    the locked path, as its player would; the lines that go on after it are kept, the others
    dropped. Answers may follow answers when both players saved lines. How many moves it played.

    Called by the move path after each move of a correspondence game with conditional moves,
    and by the correspondence sweep for a move whose process died before its answer: the game's
    row is locked first, then the conditional moves' rows, and the answer is played in the same
    transaction, so it is played once or not at all. A flag that has fallen, or an answer the
    rules refuse, drops the lines and plays nothing.
    """
    played_count = 0
    while _conditional_step(game_id, now):
        played_count += 1
    return played_count


def _conditional_step(game_id: int, now: datetime) -> bool:
    with transaction.atomic():
        game = move_store.lock(game_id)
        saved = list(
            ConditionalMoves.objects.select_for_update()
            .filter(game_id=game_id)
            .select_related("player")
            .order_by("pk")
        )
        if not saved:
            return False
        if not (game.is_active and game.days_per_move) or game.clock.is_flagged(now):
            ConditionalMoves.objects.filter(game_id=game_id).delete()
            return False
        since = min(row.ply for row in saved)
        played = list(
            Move.objects.filter(game_id=game_id, ply__gt=since)
            .order_by("ply")
            .values_list("notation", flat=True)
        )
        for row in saved:
            answer, left = conditional.follow(row.lines, played[row.ply - since :])
            if left:
                row.lines, row.ply = left, game.ply + (1 if answer else 0)
                row.save(update_fields=["lines", "ply"])
            else:
                row.delete()
            if answer is None:
                continue
            try:
                with transaction.atomic():
                    _move_locked(
                        game_id=game_id,
                        player=row.player,
                        move=answer,
                        expected_ply=game.ply,
                        now=now,
                    )
            except ServiceError:
                ConditionalMoves.objects.filter(game_id=game_id, player=row.player).delete()
                return False
            return True
    return False


def has_conditional_moves(game_id: int) -> bool:
    return ConditionalMoves.objects.filter(game_id=game_id).exists()
