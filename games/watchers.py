"""How many spectators watch a game: sockets on its page that are not its two players.

Counted in the site's cache (Redis in production: every web process counts in one place; the
process's memory in the embedded default, which is one process) and sent to the game's sockets
as ``{"type": "watchers", "game": id, "count": n}`` when it changes. Best effort, like every
live event: an unreachable cache counts nothing and refuses nothing, and a web process that dies
with sockets open leaves its count behind until the key expires (a day after the last change).

Two sockets that leave at once change the count in one order and may tell the game's sockets in
the other (0, then 1, when both left). So the count carries a version: the cache keeps one number,
``version * _VERSION + count``, that a change moves in one atomic ``incr`` (by ``_VERSION +
delta``), and a socket drops an event older than the newest it has passed on (the consumer).
"""

from __future__ import annotations

import logging

from django.core.cache import cache

from core.renderers import encode_json

logger = logging.getLogger(__name__)
_TTL_SECONDS = 24 * 3600
_VERSION = 1 << 24  # counts stay far below sixteen million sockets on one game


def _key(game_id: int) -> str:
    return f"watchers:{game_id}"


def _split(value: int) -> tuple[int, int]:
    """(count, version) of the cached number; a count below zero (the key expired, or was lost,
    while sockets were open) borrows from the version, which is put back."""
    version, count = divmod(int(value), _VERSION)
    if count > _VERSION // 2:
        return count - _VERSION, version + 1
    return count, version


def watchers_change(game_id: int, delta: int) -> tuple[int, int] | None:
    """Add ``delta`` to the game's count; the new (count, version) (None: unknown). The consumer
    then tells the game's sockets (:func:`watchers_event`)."""
    key = _key(game_id)
    try:
        cache.add(key, 0, _TTL_SECONDS)
        count, version = _split(cache.incr(key, _VERSION + delta))
        if count < 0:  # start again from nobody, at a later version
            count, version = 0, version + 1
            cache.set(key, version * _VERSION, _TTL_SECONDS)
        cache.touch(key, _TTL_SECONDS)
    except Exception as error:  # the cache is down: no count, nothing refused
        logger.warning("could not count the watchers of game %s: %r", game_id, error)
        return None
    return count, version


def watchers_event(game_id: int, count: int, version: int) -> dict:
    """The channel-layer event that tells a game's sockets its spectator count; ``version``
    orders it among the game's other counts (the text sent is without it)."""
    message = {"type": "watchers", "game": game_id, "count": count}
    return {"type": "user.event", "text": encode_json(message).decode(), "watchers": version}


def watchers_count(game_id: int) -> tuple[int, int]:
    """The game's (count, version) now; (0, 0) when unknown."""
    try:
        count, version = _split(cache.get(_key(game_id)) or 0)
    except Exception:
        return 0, 0
    return max(0, count), version
