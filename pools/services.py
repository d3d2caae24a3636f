"""Quick play's writes: joining and leaving a pool, and pairing its waiting players.

A join is recorded first (its own transaction), then the pool is paired; beat pairs every pool
again every two seconds (``pools.tasks.pair``), as waiting widens the ratings a seeker accepts.
Pairing locks the pool's waiting seeks (``SELECT ... FOR UPDATE``, by id): of two pairings of
one pool at once, the second waits and then sees the first's pairs gone, so a seek becomes one
game at most. The players' tabs hear ``{"type": "game_ready", "game": id, "url": ...}`` on their
socket after the commit; a tab that missed it reads its seek (``selectors.my_seek``).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import InvalidInput, NotAllowed
from core.live import after_commit, send_group, user_group
from core.renderers import encode_json
from games.options import DEFAULT_START, LIVE_PRESETS, PRESETS, GameOptions
from games.services import game_create
from pools.matching import Seeker, pairs
from pools.models import PoolSeek
from ratings import elo
from ratings.selectors import current_rating


def pool_category(pool: str) -> str:
    """The rating category of a pool's games."""
    _label, base, increment, _marbles = PRESETS[pool]
    return elo.speed_category(base, increment)


def pool_options(pool: str) -> GameOptions:
    """The options of a pool's games: its preset's clock and marbles, the standard start, rated."""
    _label, base, increment, marbles = PRESETS[pool]
    return GameOptions(base, increment, marbles, DEFAULT_START, True)


def pool_join(*, user: User, pool: str, now: datetime) -> PoolSeek:
    """``user`` waits in ``pool`` (leaving any other pool); joining the pool one waits in
    already changes nothing. The pool is paired at once."""
    if pool not in LIVE_PRESETS:
        raise InvalidInput(
            _("There is no pool '%(pool)s': choose one of %(pools)s.")
            % {"pool": pool, "pools": ", ".join(LIVE_PRESETS)},
            code="unknown_pool",
        )
    if user.is_bot:
        raise NotAllowed(
            _("Bots do not wait in pools: they answer challenges."), code="bot_not_allowed"
        )
    with transaction.atomic():
        waiting = PoolSeek.objects.select_for_update().filter(
            user=user, status=PoolSeek.Status.WAITING
        )
        seek = None
        for mine in waiting:
            if mine.pool == pool:
                seek = mine
            else:
                _end(mine, PoolSeek.Status.LEFT, now)
        if seek is None:
            seek = PoolSeek.objects.create(
                user=user,
                pool=pool,
                rating=current_rating(user, pool_category(pool)),
                joined_at=now,
            )
    pool_pair(pool=pool, now=now)
    seek.refresh_from_db()
    return seek


def pool_leave(*, user: User, now: datetime) -> int:
    """``user`` stops waiting (in any pool); how many seeks ended (0: none was waiting)."""
    with transaction.atomic():
        waiting = list(
            PoolSeek.objects.select_for_update().filter(user=user, status=PoolSeek.Status.WAITING)
        )
        for seek in waiting:
            _end(seek, PoolSeek.Status.LEFT, now)
    return len(waiting)


def pool_pair(*, pool: str, now: datetime) -> int:
    """Pair ``pool``'s waiting players who accept each other now; how many games started."""
    with transaction.atomic():
        seeks = {
            seek.pk: seek
            for seek in PoolSeek.objects.select_for_update()
            .filter(pool=pool, status=PoolSeek.Status.WAITING)
            .select_related("user")
            .order_by("pk")
        }
        made = pairs([Seeker(s.pk, s.rating, s.joined_at) for s in seeks.values()], now)
        for first, second in made:
            _start(seeks[first.id], seeks[second.id], now)
    return len(made)


def pools_sweep(*, now: datetime) -> int:
    """Beat's job: seeks waiting longer than ``POOL_WAIT_SECONDS`` expire, and every pool with
    players waiting is paired again (their ranges have widened). What it did: seeks expired
    plus games started."""
    done = 0
    expired = PoolSeek.objects.filter(
        status=PoolSeek.Status.WAITING,
        joined_at__lte=now - timedelta(seconds=settings.POOL_WAIT_SECONDS),
    )
    for seek_id in expired.values_list("pk", flat=True):
        with transaction.atomic():
            seek = (
                PoolSeek.objects.select_for_update()
                .filter(pk=seek_id, status=PoolSeek.Status.WAITING)
                .first()
            )
            if seek is not None:
                _end(seek, PoolSeek.Status.EXPIRED, now)
                done += 1
    pools = PoolSeek.objects.filter(status=PoolSeek.Status.WAITING).values_list("pool", flat=True)
    for pool in sorted(set(pools)):
        done += pool_pair(pool=pool, now=now)
    return done


def _start(first: PoolSeek, second: PoolSeek, now: datetime) -> None:
    """The game of two seeks (the caller holds their locks): colours by lot."""
    black, white = (first, second) if secrets.randbelow(2) else (second, first)
    game = game_create(
        black=black.user, white=white.user, options=pool_options(first.pool), now=now
    )
    for seek in (first, second):
        seek.game = game
        _end(seek, PoolSeek.Status.PAIRED, now)
        message = {"type": "game_ready", "game": game.pk, "url": game.get_absolute_url()}
        text = encode_json(message | {"pool": seek.pool}).decode()
        user_id = seek.user_id
        after_commit(
            lambda user_id=user_id, text=text: send_group(
                user_group(user_id), {"type": "user.event", "text": text}
            ),
            f"player {user_id}'s game_ready",
        )


def _end(seek: PoolSeek, status: str, now: datetime) -> None:
    seek.status = status
    seek.ended_at = now
    seek.save(update_fields=["status", "ended_at", "game"])
