"""How many spectators watch a game: sockets on its page that are not its two players.

Counted in the site's cache (Redis in production: every web process counts in one place; the
process's memory in the embedded default, which is one process) and sent to the game's sockets
as ``{"type": "watchers", "game": id, "count": n}`` when it changes. Best effort, like every
live event: an unreachable cache counts nothing and refuses nothing, and a web process that dies
with sockets open leaves its count behind until the key expires (a day after the last change).
"""

from __future__ import annotations

import logging

from django.core.cache import cache

from abalone_site.renderers import encode_json

logger = logging.getLogger(__name__)
_TTL_SECONDS = 24 * 3600


def _key(game_id: int) -> str:
    return f"watchers:{game_id}"


def watchers_change(game_id: int, delta: int) -> int | None:
    """Add ``delta`` to the game's count; the new count (None: unknown). The consumer then
    tells the game's sockets (:func:`watchers_event`)."""
    key = _key(game_id)
    try:
        cache.add(key, 0, _TTL_SECONDS)
        count = cache.incr(key, delta)
        if count < 0:  # the key expired (or was lost) while sockets were open: start again
            cache.set(key, 0, _TTL_SECONDS)
            count = 0
        cache.touch(key, _TTL_SECONDS)
    except Exception as error:  # the cache is down: no count, nothing refused
        logger.warning("could not count the watchers of game %s: %r", game_id, error)
        return None
    return count


def watchers_event(game_id: int, count: int) -> dict:
    """The channel-layer event that tells a game's sockets its spectator count."""
    message = {"type": "watchers", "game": game_id, "count": count}
    return {"type": "user.event", "text": encode_json(message).decode()}


def watchers_count(game_id: int) -> int:
    try:
        return max(0, int(cache.get(_key(game_id)) or 0))
    except Exception:
        return 0
