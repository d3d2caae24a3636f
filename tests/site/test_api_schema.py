"""The OpenAPI schema states what the API does: the reads validate against it, the rules the
services enforce are in it, and a JSON value of the wrong type is refused (in-process;
tests/production/test_api_contract.py runs Schemathesis over the whole API)."""

from __future__ import annotations

import re

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import api_token_create
from clubs.models import Club
from games.models import Game
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def schema(settings):
    settings.ALLOWED_HOSTS = ["*"]
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", WSGIHandler())


@pytest.fixture
def demo():
    call_command("seed_demo", verbosity=0)
    return Tournament.objects.filter(current_round__gt=0).first()


def test_every_read_of_the_demo_data_answers_as_documented(schema, demo):
    """Tournament players, standings and crosstable are lists of rows; a player's country may
    be blank; an open seek has no opponent and no game (each was documented otherwise)."""
    assert User.objects.filter(country="").exists()  # 'admin' has none
    game = Game.objects.filter(status=Game.Status.FINISHED).first()
    round_ = Round.objects.filter(tournament=demo).first()
    club = Club.objects.first()
    reads = [
        ("/api/v1/players/", {}),
        ("/api/v1/players/{username}/", {"username": "admin"}),
        ("/api/v1/me/", {}),
        ("/api/v1/clubs/", {}),
        ("/api/v1/clubs/{slug}/", {"slug": club.slug}),
        ("/api/v1/clubs/{slug}/members/", {"slug": club.slug}),
        ("/api/v1/challenges/", {}),
        ("/api/v1/games/", {}),
        ("/api/v1/games/{game_id}/", {"game_id": game.pk}),
        ("/api/v1/tournaments/", {}),
        ("/api/v1/tournaments/{slug}/", {"slug": demo.slug}),
        ("/api/v1/tournaments/{slug}/players/", {"slug": demo.slug}),
        ("/api/v1/tournaments/{slug}/standings/", {"slug": demo.slug}),
        ("/api/v1/tournaments/{slug}/crosstable/", {"slug": demo.slug}),
        ("/api/v1/tournaments/{slug}/rounds/{number}/", {"slug": demo.slug, "number": 1}),
        ("/api/v1/archive/games/", {}),
        ("/api/v1/archive/games/{game_id}/replay", {"game_id": game.pk}),
        ("/api/v1/ratings/leaderboard/", {}),
        ("/api/v1/ratings/players/{username}/", {"username": "alice"}),
    ]
    assert round_ is not None
    _, key = api_token_create(user=User.objects.get(username="admin"), name="schema")
    for path, parameters in reads:
        case = schema[path]["GET"].Case(
            path_parameters=parameters, headers={"Authorization": f"Token {key}"}
        )
        response = case.call()
        assert response.status_code == 200, (path, response.text[:300])
        case.validate_response(response)  # status, content type, headers and body


def test_a_body_shaped_rule_of_the_services_is_in_the_schema(schema):
    raw = schema.raw_schema["components"]["schemas"]
    challenge = raw["ChallengeCreateRequest"]
    # preset or base_seconds; no clock (null) only unrated
    assert {tuple(branch.get("required", [])) for branch in challenge["anyOf"]} == {
        ("preset",),
        ("base_seconds",),
        ("base_seconds", "rated"),
    }
    # a correspondence clock: whole days a move (the schema names them), and no increment
    base = challenge["properties"]["base_seconds"]["oneOf"]
    assert base[0]["maximum"] == 6 * 3600 and 3 * 86_400 in base[1]["enum"]
    assert {"properties": {"increment_seconds": {"maximum": 0}}} in challenge["allOf"][0]["anyOf"]
    events = raw["TournamentCreateRequest"]
    assert events["allOf"] == challenge["allOf"]
    assert events["properties"]["base_seconds"]["oneOf"] == base
    create = schema.raw_schema["paths"]["/api/v1/challenges/"]["post"]
    assert create["requestBody"]["required"] is True  # an empty body has no clock either
    move = raw["MoveRequest"]["properties"]["move"]
    assert re.search(move["pattern"], "c3c5d4") and not re.search(move["pattern"], " ")
    name = raw["ClubWriteRequest"]["properties"]["name"]
    assert name["maxLength"] == 80
    assert re.search(name["pattern"], " ab ") and not re.search(name["pattern"], " a  ")
    tournament = raw["TournamentCreateRequest"]["properties"]
    assert tournament["rounds"]["minimum"] == 1 and tournament["rounds"]["maximum"] == 30
    assert tournament["tiebreaks"]["uniqueItems"] is True


def test_every_operation_documents_the_errors_it_can_answer(schema):
    for path, methods in schema.raw_schema["paths"].items():
        for method, operation in methods.items():
            answers = operation["responses"]
            assert {"401", "429"} <= answers.keys(), (method, path)
            if method in ("post", "put", "patch", "delete"):
                assert {"400", "403", "409", "413"} <= answers.keys(), (method, path)
            if "{" in path:
                assert "404" in answers, (method, path)
            error = answers["401"]["content"]["application/json"]["schema"]
            assert error == {"$ref": "#/components/schemas/Error"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/challenges/", {"preset": "blitz-3+2", "rated": "yes"}, "rated"),
        ("/api/v1/challenges/", {"base_seconds": "300"}, "base_seconds"),
        ("/api/v1/me/tokens/", {"name": 5}, "name"),
        ("/api/v1/clubs/", {"name": ["Club"]}, "name"),
        ("/api/v1/challenges/", {"base_seconds": 300.5}, "base_seconds"),
    ],
)
def test_a_json_value_of_another_type_is_a_400_naming_the_field(make_player, path, body, field):
    client = APIClient()
    client.force_authenticate(make_player("typed"))
    response = client.post(path, body, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith(f"{field}: Must be ")


def test_text_is_checked_as_the_service_keeps_it(make_player):
    client = APIClient()
    client.force_authenticate(make_player("texts"))
    blank = client.post("/api/v1/clubs/", {"name": "  x  "}, format="json")
    assert blank.status_code == 400 and blank.json()["detail"].startswith("name: Give at least 2")
    made = client.post("/api/v1/clubs/", {"name": "  Spaced Out  "}, format="json")
    assert made.status_code == 201 and made.json()["name"] == "Spaced Out"
