"""Quick play's reads: how many wait in each pool, and a player's own seek."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Count

from games.clock import TimeControl
from games.options import LIVE_PRESETS, PRESETS
from pools.models import PoolSeek
from ratings import elo

#: A seek that ended this recently is still shown to its player (the game it became).
RECENT_SECONDS = 120


def pools(*, now: datetime) -> list[dict]:
    """Every pool, in the presets' order, with how many players wait in it."""
    counts = dict(
        PoolSeek.objects.filter(status=PoolSeek.Status.WAITING)
        .values_list("pool")
        .annotate(count=Count("pk"))
    )
    return [
        {
            "key": key,
            "label": label,
            "time_control": TimeControl(base, increment).label(),
            "category": elo.speed_category(base, increment),
            "base_seconds": base,
            "increment_seconds": increment,
            "marbles_to_win": marbles,
            "waiting": counts.get(key, 0),
        }
        for key, (label, base, increment, marbles) in PRESETS.items()
        if key in LIVE_PRESETS
    ]


def my_seek(user, *, now: datetime) -> PoolSeek | None:
    """``user``'s seek that waits, or ended in the last ``RECENT_SECONDS``; None otherwise."""
    if not user.is_authenticated:
        return None
    return (
        PoolSeek.objects.filter(user=user, joined_at__gte=now - timedelta(days=1))
        .exclude(ended_at__lt=now - timedelta(seconds=RECENT_SECONDS))
        .order_by("-joined_at", "-pk")
        .first()
    )


def seek_document(seek: PoolSeek | None) -> dict | None:
    if seek is None:
        return None
    return {
        "pool": seek.pool,
        "status": seek.status,
        "joined_at": seek.joined_at,
        "rating": seek.rating,
        "game": seek.game_id,
        "url": f"/games/{seek.game_id}/" if seek.game_id else None,
    }
