"""Rating writes: each rated game changes both players' ratings exactly once.

``rating_apply_game`` runs inside the transaction that records the game's result, holding the
game row lock; it locks both players' rating rows (in user-id order, so two games finishing at
once never deadlock) and records a RatingChange per player, which a unique constraint makes
impossible to apply twice.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Max

from ratings import elo
from ratings.models import PlayerRating, RatingChange

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def _locked_ratings(user_ids: list[int], category: str) -> dict[int, PlayerRating]:
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
        .order_by("user_id")
    )
    return {row.user_id: row for row in rows}


def rating_apply(
    *,
    black_id: int,
    white_id: int,
    result: str,
    category: str,
    played_at: datetime,
    game=None,
    board=None,
) -> tuple[int, int] | None:
    """Apply one rated result; returns the two deltas, or None if already applied."""
    if result not in SCORES:
        return None
    source = {"game": game} if game is not None else {"board": board}
    if RatingChange.objects.filter(**source).exists():
        return None
    rows = _locked_ratings(sorted([black_id, white_id]), category)
    # Each player's changes stay in time order even when commits interleave, so replaying the
    # history by (played_at, id) reproduces exactly what was applied here.
    latest = RatingChange.objects.filter(
        user_id__in=[black_id, white_id], category=category
    ).aggregate(latest=Max("played_at"))["latest"]
    if latest is not None and latest > played_at:
        played_at = latest
    black, white = rows[black_id], rows[white_id]
    black_state = elo.PlayerState(black.rating, black.games, black.reached_2400)
    white_state = elo.PlayerState(white.rating, white.games, white.reached_2400)
    black_delta, white_delta = elo.rate_game(black_state, white_state, SCORES[result])
    for row, state, delta, opponent, score in (
        (black, black_state, black_delta, white_state, SCORES[result]),
        (white, white_state, white_delta, black_state, 1.0 - SCORES[result]),
    ):
        RatingChange.objects.create(
            user_id=row.user_id,
            category=category,
            rating_before=state.rating,
            rating_after=state.rating + delta,
            opponent_rating=opponent.rating,
            score=score,
            played_at=played_at,
            **source,
        )
        after = state.after(delta)
        row.rating, row.games, row.reached_2400 = after.rating, after.games, after.reached_2400
        row.peak = max(row.peak, after.rating)
        row.last_game_at = played_at
        row.save(update_fields=["rating", "games", "reached_2400", "peak", "last_game_at"])
    return black_delta, white_delta


def rating_apply_game(*, game, now: datetime) -> tuple[int, int] | None:
    """Rate a finished server game (rated, with a result, actually played)."""
    if not game.rated or game.result not in SCORES or game.ply < 2:
        return None
    return rating_apply(
        black_id=game.black_id,
        white_id=game.white_id,
        result=game.result,
        category=elo.speed_category(game.base_seconds, game.increment_seconds),
        played_at=now,
        game=game,
    )


def rating_apply_board(*, board, now: datetime) -> None:
    """Rate (or re-rate) a tournament board whose result a director entered or corrected.

    A first result of a rated over-the-board game is applied at once. A corrected result, or a
    correction of a rated server game's result, recomputes every rating from that game onward.
    """
    tournament = board.round.tournament
    if not tournament.rated or board.white_id is None:
        return
    existing = RatingChange.objects.filter(board=board).order_by("played_at").first()
    if existing is None and board.game_id:
        existing = RatingChange.objects.filter(game_id=board.game_id).order_by("played_at").first()
    if existing is not None:
        from ratings.recompute import ratings_recompute

        ratings_recompute(since=existing.played_at)
        return
    if board.game_id is None and board.result in SCORES:
        rating_apply(
            black_id=board.black.user_id,
            white_id=board.white.user_id,
            result=board.result,
            category=elo.speed_category(tournament.base_seconds, tournament.increment_seconds),
            played_at=now,
            board=board,
        )
