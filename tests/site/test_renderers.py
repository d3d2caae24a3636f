"""The API's JSON renderer (orjson) gives the answers DRF's own renderer gives."""

import datetime
import decimal
import json
import uuid

from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from core.renderers import FastJSONRenderer
from games import engine
from games.selectors import legal_move_list, move_document

WHEN = datetime.datetime(2026, 11, 22, 3, 19, 0, 123456, tzinfo=datetime.UTC)


def both(data, media_type="application/json"):
    return (
        FastJSONRenderer().render(data, media_type, {}),
        JSONRenderer().render(data, media_type, {}),
    )


def test_same_bytes_for_what_the_api_sends():
    data = {
        "id": 7,
        "legal_moves": legal_move_list(engine.start_position("belgian")),
        "moves": [move_document(1, "a1b2", WHEN, 179_000, False)],
        "clock": {"black_ms": 180_000, "running": True, "first_move_ms_left": None},
        "rating": 1512.5,
        "name": 'Zoë 😀 "quoted" back\\slash',
        "nothing": [],
    }
    fast, drf = both(data)
    assert fast == drf


def test_values_orjson_leaves_to_drf_come_out_as_drf_writes_them():
    data = {
        "at": WHEN,
        "day": WHEN.date(),
        "time": WHEN.time(),
        "naive": WHEN.replace(tzinfo=None),
        "amount": decimal.Decimal("1.50"),
        "lazy": gettext_lazy("Invalid or revoked API token."),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        3: "an int key",
        "separators": "line\u2028paragraph\u2029end",
    }
    fast, drf = both(data)
    assert json.loads(fast) == json.loads(drf)
    assert b"\\u2028" in fast and b"\\u2029" in fast and "\u2028".encode() not in fast
    assert json.loads(fast)["at"] == "2026-11-22T03:19:00.123456Z"


def test_indented_answers_and_none_are_drf_s():
    fast, drf = both({"a": [1, 2]}, "application/json; indent=2")
    assert fast == drf and b"\n" in fast
    assert FastJSONRenderer().render(None) == b""


def test_what_orjson_refuses_falls_back_to_drf():
    fast, drf = both({"big": 2**70})
    assert fast == drf
