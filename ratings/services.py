"""Rating writes: each rated game changes its players' ratings exactly once. Every rating row
(``PlayerRating``, ``RatingChange``, ``TableRatingChange``) is written here or by the replay
(``ratings.recompute``), for two-player games, tournament boards and tables alike.

``rating_apply_game`` runs inside the transaction that records the game's result, holding the
game row lock (it is registered in ``games.hooks``); ``rating_apply_board`` inside a director's
result entry, holding the tournament's locks. Both lock the two players' rating rows in user-id
order (the one order of every rating lock, so two games finishing at once, or a game and a
replay, never deadlock) and record a RatingChange per player, which a unique constraint makes
impossible to apply twice.

A corrected result changes history: the replay from that result on (``ratings.recompute``) is
requested here and runs in a background job.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Max

from core.jobs import enqueue
from ratings import elo
from ratings.models import PlayerRating, RatingChange, RecomputeRequest, TableRatingChange

RECOMPUTE_TASK = "ratings.tasks.recompute_requested"


def locked_ratings(user_ids: list[int], category: str) -> dict[int, PlayerRating]:
    """The players' rating rows in ``category`` (created at the default if missing), locked in
    user-id order."""
    default = settings.RATING_DEFAULT
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(user_id=uid, category=category, rating=default, peak=default)
            for uid in user_ids
        ],
        ignore_conflicts=True,
    )
    rows = (
        PlayerRating.objects.select_for_update()
        .filter(user_id__in=user_ids, category=category)
        .order_by("user_id", "category")
    )
    return {row.user_id: row for row in rows}


def rating_change_rows(
    *,
    black_id: int,
    white_id: int,
    sides: tuple[elo.RatedSide, elo.RatedSide],
    category: str,
    played_at: datetime,
    game_id: int | None = None,
    board_id: int | None = None,
    match_game_id: int | None = None,
) -> list[RatingChange]:
    """The two unsaved RatingChange rows of one rated result (see ``elo.rate_result``)."""
    return [
        RatingChange(
            user_id=user_id,
            category=category,
            rating_before=side.before.rating,
            rating_after=side.after.rating,
            opponent_rating=side.opponent_rating,
            score=side.score,
            played_at=played_at,
            game_id=game_id,
            board_id=board_id,
            match_game_id=match_game_id,
        )
        for user_id, side in ((black_id, sides[0]), (white_id, sides[1]))
    ]


def rating_apply(
    *,
    black_id: int,
    white_id: int,
    result: str,
    category: str,
    played_at: datetime,
    game=None,
    board=None,
    match_game=None,
) -> tuple[int, int] | None:
    """Apply one rated result (of ``game``, ``board`` or ``match_game``, whichever is given);
    returns the two deltas, or None if already applied."""
    if result not in elo.SCORES:
        return None
    if game is not None:
        source = {"game": game}
    elif match_game is not None:
        source = {"match_game": match_game}
    else:
        source = {"board": board}
    if RatingChange.objects.filter(**source).exists():
        return None
    rows = locked_ratings(sorted([black_id, white_id]), category)
    # Each player's changes stay in time order even when commits interleave, so replaying the
    # history by (played_at, id) reproduces exactly what was applied here.
    latest = RatingChange.objects.filter(
        user_id__in=[black_id, white_id], category=category
    ).aggregate(latest=Max("played_at"))["latest"]
    if latest is not None and latest > played_at:
        played_at = latest
    black, white = rows[black_id], rows[white_id]
    sides = elo.rate_result(_state(black), _state(white), result)
    RatingChange.objects.bulk_create(
        rating_change_rows(
            black_id=black_id,
            white_id=white_id,
            sides=sides,
            category=category,
            played_at=played_at,
            game_id=game.pk if game is not None else None,
            board_id=board.pk if board is not None else None,
            match_game_id=match_game.pk if match_game is not None else None,
        )
    )
    for row, side in ((black, sides[0]), (white, sides[1])):
        _store(row, side.after, played_at)
    return tuple(side.after.rating - side.before.rating for side in sides)


def _state(row: PlayerRating) -> elo.PlayerState:
    return elo.PlayerState(row.rating, row.games, row.reached_2400)


def _store(row: PlayerRating, after: elo.PlayerState, played_at: datetime) -> None:
    """Save ``row`` as ``after`` says, a rated game played at ``played_at``."""
    row.rating, row.games, row.reached_2400 = after.rating, after.games, after.reached_2400
    row.peak = max(row.peak, after.rating)
    row.last_game_at = played_at
    row.save(update_fields=["rating", "games", "reached_2400", "peak", "last_game_at"])


def rating_apply_game(*, game, now: datetime) -> tuple[int, int] | None:
    """Rate a finished server game (rated, with a result, actually played); a no-op otherwise.
    Registered in ``games.hooks``: runs when a game's end is recorded."""
    if not game.rated or game.result not in elo.SCORES or game.ply < 2:
        return None
    return rating_apply(
        black_id=game.black_id,
        white_id=game.white_id,
        result=game.result,
        category=elo.game_category(game.base_seconds, game.increment_seconds, game.rating_pool),
        played_at=now,
        game=game,
    )


def rating_apply_board(*, board, now: datetime) -> None:
    """Rate (or re-rate) a tournament board whose result a director entered or corrected.

    A first result of a rated over-the-board game is applied at once. A corrected result, or a
    correction of a rated server game's result, asks for the ratings to be replayed from that
    game onward, by a background job (:func:`ratings_recompute_request`).
    """
    tournament = board.round.tournament
    if not tournament.rated or board.white_id is None:
        return
    if tournament.has_matches:
        # a match's games are rated one by one (as server games, or over the board by
        # ``tournaments.services.match_results``); the board's result, the match's, is not
        return
    existing = RatingChange.objects.filter(board=board).order_by("played_at").first()
    if existing is None and board.game_id:
        existing = RatingChange.objects.filter(game_id=board.game_id).order_by("played_at").first()
    if existing is not None:
        ratings_recompute_request(
            since=existing.played_at,
            reason=f"{tournament.name}, round {board.round.number}, board {board.number}",
            now=now,
        )
        return
    if board.game_id is None and board.result in elo.SCORES:
        rating_apply(
            black_id=board.black.user_id,
            white_id=board.white.user_id,
            result=board.result,
            category=elo.speed_category(tournament.base_seconds, tournament.increment_seconds),
            played_at=now,
            board=board,
        )


def rating_apply_table(*, table, seats, now: datetime) -> None:
    """Rate a finished table of three or four players: pairwise Elo from the ranking in the
    ``multi`` category, exactly once per table, for a rated table whose every player moved at
    least once. ``seats``: the table's seats in seat order, each with its ``user_id`` and
    ``place``. Runs inside the transaction that records the table's end, holding its row lock;
    the rating rows are locked after it, in user-id order (docs/architecture.md)."""
    if not table.rated or table.ply < table.players:
        return
    if TableRatingChange.objects.filter(table=table).exists():
        return
    user_ids = [seat.user_id for seat in seats]
    rows = locked_ratings(sorted(user_ids), elo.MULTI_CATEGORY)
    states = [_state(rows[user_id]) for user_id in user_ids]
    deltas = elo.rate_ranking(states, [seat.place for seat in seats])
    for seat, state, delta in zip(seats, states, deltas, strict=True):
        after = state.after(delta)
        TableRatingChange.objects.create(
            table=table,
            user_id=seat.user_id,
            rating_before=state.rating,
            rating_after=after.rating,
            place=seat.place,
            played_at=now,
        )
        _store(rows[seat.user_id], after, now)


def ratings_recompute_request(*, since: datetime, reason: str, now: datetime) -> RecomputeRequest:
    """Ask for every rating to be replayed from ``since``, by a background job after the commit
    (``ratings.recompute.ratings_recompute_requested``); the pages show ratings as being
    updated until it has run."""
    request = RecomputeRequest.objects.create(since=since, reason=reason[:200], requested_at=now)
    enqueue(RECOMPUTE_TASK)
    return request
