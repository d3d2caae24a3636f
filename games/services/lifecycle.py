"""A game's life: created with its clocks, adjudicated when a flag falls, finished once.

Finishing (:func:`finish_locked`) and adjudication (:func:`game_adjudicate`) are idempotent: a
flag is adjudicated once however often it is checked, by a move, a read, a client's claim, the
sweep or the task scheduled at the deadline. What other apps do when a game ends (its
tournament board, the ratings) they registered in :mod:`games.hooks`; it runs inside the
finishing transaction.

Events go to browsers after the commit (:func:`after_commit`), carrying the new version. No
task is scheduled for a deadline: the deadline watcher of every web process
(:mod:`core.deadlines`) and beat's sweep find it in the database.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core import live
from core.errors import Conflict, NotFound, Unprocessable
from games import clock as game_clock
from games import engine, hooks, move_store
from games.events import publish_game
from games.models import Game
from games.options import GameOptions


def game_create(
    *,
    black: User,
    white: User,
    options: GameOptions,
    now: datetime,
    first_move_seconds: int | None = None,
    max_plies_result: str = "draw",
    forfeit_if_unplayed: bool = False,
    chat_enabled: bool = True,
) -> Game:
    """Create a started game; Black's first-move timer runs from ``now`` (the placement
    variant: Black's first placement).

    ``forfeit_if_unplayed``: a first move not made in time loses the game by forfeit (a game of
    an event) instead of abandoning it (rated) or aborting it (casual).
    """
    options = options.validated()
    if black.pk == white.pk:
        raise Unprocessable(_("A player cannot play against themself."), code="same_player")
    rating_pool = ""
    if black.is_bot or white.is_bot:  # the bots' own pool, or unrated (docs/bots.md)
        if settings.BOT_GAMES_RATED:
            rating_pool = "bot"
        else:
            options = dataclasses.replace(options, rated=False)
    first_move_seconds = game_clock.first_move_seconds_of(
        options.time_control, first_move_seconds or settings.GAME_FIRST_MOVE_SECONDS
    )
    # The game keeps the string of its start whatever the start (a custom one, the empty board
    # of the placement variant, a named layout): games.records.engine_game_of replays from it.
    start = options.start_board().to_string()
    clock = game_clock.start(
        tc=options.time_control, now=now, first_move_seconds=first_move_seconds
    )
    game = Game.objects.create(
        black=black,
        white=white,
        **{**options.fields(), "start_position": start},
        position=start,
        first_move_seconds=first_move_seconds,
        max_plies_result=max_plies_result,
        forfeit_if_unplayed=forfeit_if_unplayed,
        chat_enabled=chat_enabled,
        rating_pool=rating_pool if options.rated else "",
        black_ms=clock.black_ms,
        white_ms=clock.white_ms,
        turn_started_at=now,
        flag_deadline=clock.deadline(),
        created_at=now,
    )
    after_commit(game, now)
    return game


def game_over_error(game: Game) -> Conflict:
    return Conflict(
        _("Game %(pk)s is over (%(result)s, %(termination)s).")
        % {
            "pk": game.pk,
            "result": game.result or _("aborted"),
            "termination": game.get_termination_display(),
        },
        code="game_over",
    )


# --- ending a game -------------------------------------------------------------------------------


def finish_locked(
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
    after_commit(game, now)
    hooks.game_finished(game=game, now=now)
    return True


def game_finish(*, game_id: int, result: str, termination: str, now: datetime) -> bool:
    """End a game for a reason outside the board. Idempotent: False if it was over already."""
    with transaction.atomic():
        return finish_locked(move_store.lock(game_id), result, termination, now)


def adjudicate_locked(game: Game, now: datetime) -> bool:
    """End ``game`` if the side to move is out of time at ``now``; the caller holds the lock.

    A first move not made in time abandons the game (rated), aborts it (casual) or, in a game
    of an event, loses it by forfeit.
    """
    if not game.is_active or not game.clock.is_flagged(now):
        return False
    winner = engine.opponent(game.side_to_move)
    if game.ply >= 2:
        return finish_locked(game, engine.win_for(winner), Game.Termination.TIME, now)
    if game.forfeit_if_unplayed:
        return finish_locked(game, engine.win_for(winner), Game.Termination.FORFEIT, now)
    if not game.rated:
        return finish_locked(game, "", Game.Termination.ABORTED, now, aborted=True)
    return finish_locked(game, engine.win_for(winner), Game.Termination.ABANDONED, now)


def game_adjudicate(*, game_id: int, now: datetime) -> bool:
    """End the game if the side to move has run out of time at ``now``. Idempotent."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        return adjudicate_locked(game, now)


def game_adjudicate_unfinished(*, game_id: int, now: datetime) -> bool:
    """End a game still in play at ``now`` by its rule for an unfinished game (a draw, or a
    win for the side that pushed off more marbles: the event's ``max_plies_result``), as a
    correspondence round's deadline asks. A flag that has fallen is adjudicated as a flag.
    Idempotent: False if the game was over already."""
    with transaction.atomic():
        game = move_store.lock(game_id)
        if not game.is_active:
            return False
        if game.clock.is_flagged(now):
            return adjudicate_locked(game, now)
        engine_game, _documents = move_store.history(game)
        return finish_locked(
            game, engine_game.adjudicated_result(), Game.Termination.ADJUDICATED, now
        )


def game_current(*, game_id: int, now: datetime) -> Game:
    """The game as of ``now``, with both players: a deadline that has passed is adjudicated
    first, so every reader (the API, the page, the socket) sees the same game. NotFound if none.
    """
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no game %(game_id)s.") % {"game_id": game_id})
    if game.is_active and game.clock.is_flagged(now) and game_adjudicate(game_id=game_id, now=now):
        game.refresh_from_db()
    return game


def games_sweep_flags(*, now: datetime, limit: int = 500) -> int:
    """Adjudicate every game whose deadline has passed at ``now``, earliest first; how many.

    Run by the deadline watcher of each web process at each deadline (``core.deadlines``) and
    by beat every second (``games.tasks.sweep_flags``); idempotent, like adjudication itself.
    """
    flagged_ids = list(
        Game.objects.filter(status=Game.Status.STARTED, flag_deadline__lte=now)
        .order_by("flag_deadline")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(game_adjudicate(game_id=game_id, now=now) for game_id in flagged_ids)


# --- after commit: events to browsers --------------------------------------------------------------


def after_commit(
    game: Game,
    now: datetime,
    *,
    move_documents: list | None = None,
    engine_game: engine.Game | None = None,
) -> None:
    """After the commit: publish the game's state to everyone watching it.

    With ``move_documents`` (all of the game's moves, rendered) the state is built from ``game``
    without reading the game again; with ``engine_game`` (the move path's engine after the move)
    without parsing its position again.
    """
    game_id = game.pk
    if move_documents is None:
        live.after_commit(lambda: publish_game(game_id), f"game {game_id}'s state")
    else:
        live.after_commit(
            lambda: publish_game(
                game_id, game=game, move_documents=move_documents, engine_game=engine_game
            ),
            f"game {game_id}'s state",
        )
