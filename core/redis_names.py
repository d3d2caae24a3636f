"""Names in Redis that must follow the database number a site's ``REDIS_URL`` chooses.

Keys live in a Redis database, but publish/subscribe channels do not: a PUBLISH is heard by every
subscriber of that channel on the server, whatever database either connection selected. Two
sites (or two test processes) on one Redis server with different database numbers would hear each
other's game events and notifications (``game-1`` exists in both). So the channel layer's prefix
carries the database number.
"""

from urllib.parse import parse_qs, urlsplit


def redis_database(url: str) -> int:
    """The database number ``url`` selects (``redis://host:6379/3``, or ``?db=3``; else 0)."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    if path.isdigit():
        return int(path)
    query = parse_qs(parts.query).get("db")
    return int(query[0]) if query and query[0].isdigit() else 0


def channel_prefix(url: str) -> str:
    """The channel layer's prefix for a site on ``url``: ``sumito`` and its database number."""
    return f"sumito{redis_database(url)}"
