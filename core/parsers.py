"""JSON in: parsed by orjson, and refused when nested deeper than any request needs.

Python's ``json`` recurses once per level and raised ``RecursionError`` (a 500) on a body nested
about 1,000 deep, before DRF could say anything; orjson parses without Python recursion (up to
its own limit of 1,024 levels, refused as malformed). No request of this API nests more than a
few levels, so anything deeper than :data:`MAX_JSON_DEPTH` is refused as malformed too, before
a serializer looks at it. The API's parser and the game socket both read JSON through
:func:`loads`.
"""

from __future__ import annotations

import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32


class MalformedJSON(ValueError):
    """The text is not JSON this site accepts; the message says why."""


def depth(value) -> int:
    """How deeply ``value`` nests lists and objects (a scalar: 0), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            items = item.values()
        elif isinstance(item, list):
            items = item
        else:
            continue
        deepest = max(deepest, level)
        if level > MAX_JSON_DEPTH:
            break
        stack.extend((child, level + 1) for child in items)
    return deepest


def loads(data: bytes | str):
    """The JSON value of ``data``, or :class:`MalformedJSON`."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise MalformedJSON(f"JSON parse error: {error}") from None
    if depth(value) > MAX_JSON_DEPTH:
        raise MalformedJSON(f"JSON nested deeper than {MAX_JSON_DEPTH} levels is not accepted.")
    return value


class LimitedJSONParser(JSONParser):
    """DRF's JSON parser, reading through :func:`loads`."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return loads(stream.read() if stream is not None else b"")
        except MalformedJSON as error:
            raise ParseError(str(error)) from None
