"""Bad input refused before any work: JSON nested too deep, bodies too large."""

import pytest

from core.parsers import MAX_JSON_DEPTH, MalformedJSON, depth, loads

pytestmark = pytest.mark.django_db


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/api/v1/challenges/"), ("PATCH", "/api/v1/me/"), ("POST", "/api/v1/clubs/")],
)
def test_json_nested_a_thousand_deep_is_a_400_on_every_json_endpoint(
    api, make_player, method, path
):
    """It was a 500: Python's json recursed into RecursionError before DRF could answer."""
    client = api(make_player())
    body = '{"name": ' + nested(1000) + "}"
    response = client.generic(method, path, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "malformed"
    assert f"deeper than {MAX_JSON_DEPTH} levels" in response.json()["detail"]


def test_the_depth_limit_is_where_it_says(api, make_player):
    client = api(make_player())
    for levels, status in ((MAX_JSON_DEPTH, 400), (MAX_JSON_DEPTH + 1, 400)):
        body = '{"preset": "blitz-3+2", "opponent": ' + nested(levels - 1) + "}"
        response = client.generic("POST", "/api/v1/challenges/", body, "application/json")
        assert response.status_code == status
    assert response.json()["error"] == "malformed"  # the deeper one: refused as malformed
    ok = client.post("/api/v1/challenges/", {"preset": "blitz-3+2"}, format="json")
    assert ok.status_code == 201


def test_depth_is_counted_without_recursion():
    assert depth(1) == 0 and depth([]) == 1 and depth({"a": [{"b": []}]}) == 4
    deep = loads(nested(MAX_JSON_DEPTH))
    assert depth(deep) == MAX_JSON_DEPTH
    with pytest.raises(MalformedJSON):
        loads(nested(MAX_JSON_DEPTH + 1))
    with pytest.raises(MalformedJSON):
        loads(nested(100_000))  # beyond orjson's own limit too
    with pytest.raises(MalformedJSON):
        loads(b"{nope")


def test_a_form_body_over_django_s_limit_is_refused(client, settings, make_player):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client.force_login(make_player())
    response = client.post("/clubs/new/", {"name": "x" * 2000})
    assert response.status_code == 400
