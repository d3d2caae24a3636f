"""Rendered parts of pages kept in the site's cache (Redis in production).

A fragment is kept under a key that names everything it shows: either a stamp that changes
whenever what it shows changes (a player's history, ``players.selectors.profile``), or the very
values it is drawn from (:func:`values_key`: the rows of a leaderboard's or the archive's page,
read as plain values, hashed). A page then reads its values (cheap) and draws them only when
they changed (dear: model instances, the template engine's tags row by row).
"""

from __future__ import annotations

import contextlib
import hashlib

from django.core.cache import cache
from django.utils.safestring import mark_safe

#: How long a fragment is kept: an hour bounds what a stamp does not see.
KEPT_SECONDS = 3600


def kept(key: str, render, seconds: int = KEPT_SECONDS) -> str:
    """The fragment the cache keeps under ``key``, else ``render()`` kept there. A cache that
    cannot be reached renders it every time (the database answers, as without a cache)."""
    try:
        html = cache.get(key)
    except Exception:  # the cache is down
        html = None
    if html is not None:
        return mark_safe(html)  # rendered by ``render``'s template, escaped there
    html = render()
    with contextlib.suppress(Exception):  # the cache is down: rendered again next time
        cache.set(key, str(html), seconds)
    return html


def values_key(*values) -> str:
    """A short key for ``values`` (tuples of plain values: numbers, text, dates), the same in
    every process: the ``repr`` hashed."""
    return hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()
