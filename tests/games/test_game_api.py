"""The games API: challenges, state, moves and every error path."""

import pytest

from games import engine
from games.models import Game, Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(api, players):
    """A rated Blitz 3+2 game started through the API: (game id, black client, white client)."""
    black, white = players
    created = api(black).post(
        "/api/v1/challenges/", {"preset": "blitz-3+2", "colour": "black"}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["marbles_to_win"] == 4
    accepted = api(white).post(f"/api/v1/challenges/{created.json()['id']}/accept/")
    assert accepted.status_code == 201
    return accepted.json()["id"], api(black), api(white)


def first_move(state):
    return state["legal_moves"][0]["notation"]


def test_state_has_position_legal_moves_clocks_and_version(started, api):
    game_id, _, _ = started
    state = api().get(f"/api/v1/games/{game_id}/").json()
    assert state["position"] == engine.STANDARD_START.to_string()  # the default start
    assert state["version"] == 0 and state["side_to_move"] == "b"
    assert len(state["legal_moves"]) == 44
    assert state["clock"]["black_ms"] == 180_000 and state["clock"]["first_moves"] is True
    assert state["time_control"]["label"] == "3+2"
    assert state["black"]["username"] == "blackie"


def test_moves_through_the_api(started):
    game_id, black, white = started
    state = black.get(f"/api/v1/games/{game_id}/").json()
    after = black.post(
        f"/api/v1/games/{game_id}/moves/",
        {"move": first_move(state).upper(), "ply": 0},
        format="json",
    )
    assert after.status_code == 200
    assert after.json()["version"] == 1
    assert after.json()["moves"][0]["notation"] == first_move(state)
    reply = white.post(
        f"/api/v1/games/{game_id}/moves/",
        {"move": first_move(after.json()), "ply": 1},
        format="json",
    )
    assert reply.json()["clock"]["running"] is True
    assert reply.json()["clock"]["first_moves"] is False


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("black", {"move": "a1a6", "ply": 0}, 422, "illegal_move"),
        ("black", {"move": "a1a0", "ply": 0}, 400, "invalid"),
        ("black", {"move": "  ", "ply": 0}, 400, "invalid"),
        ("black", {"move": "e5e6", "ply": 0}, 422, "illegal_move"),
        ("black", {"move": "", "ply": 0}, 400, "invalid"),
        ("black", {"move": "a1b2"}, 400, "invalid"),
        ("black", {"move": "a1b2", "ply": "x"}, 400, "invalid"),
        ("black", {"move": "FIRST", "ply": 5}, 409, "stale_ply"),
        ("white", {"move": "FIRST", "ply": 0}, 409, "not_your_turn"),
        ("kibitzer", {"move": "FIRST", "ply": 0}, 403, "not_a_player"),
        ("anonymous", {"move": "FIRST", "ply": 0}, 401, "not_authenticated"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    started, api, make_player, who, body, status, code
):
    game_id, black, white = started
    state = black.get(f"/api/v1/games/{game_id}/").json()
    if body.get("move") == "FIRST":
        body = dict(body, move=first_move(state))
    client = {
        "black": black,
        "white": white,
        "kibitzer": api(make_player("kibitzer")),
        "anonymous": api(),
    }[who]
    response = client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
    assert response.status_code in ((401, 403) if status == 401 else (status,))
    assert response.json()["error"] == code
    assert response.json()["detail"]
    assert Move.objects.count() == 0
    assert Game.objects.get(pk=game_id).ply == 0


def test_illegal_move_detail_names_the_rule(started):
    game_id, black, _ = started
    response = black.post(
        f"/api/v1/games/{game_id}/moves/", {"move": "a1a6", "ply": 0}, format="json"
    )
    assert response.json()["detail"] == "a1a6: a6 is not a cell"


def test_malformed_json_is_400(started):
    game_id, black, _ = started
    response = black.post(
        f"/api/v1/games/{game_id}/moves/", data="{oops", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"] == "malformed"


def test_unknown_game_is_404(api, players):
    response = api(players[0]).post(
        "/api/v1/games/424242/moves/", {"move": "a1b2", "ply": 0}, format="json"
    )
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert api().get("/api/v1/games/424242/").status_code == 404


def test_resign_draw_and_abort_endpoints(started, api, make_player):
    game_id, black, white = started
    assert api(make_player("kib")).post(f"/api/v1/games/{game_id}/resign/").status_code == 403
    offered = black.post(f"/api/v1/games/{game_id}/draw-offer/")
    assert offered.json()["draw_offer"] == "b"
    assert black.post(f"/api/v1/games/{game_id}/draw-accept/").json()["error"] == "no_draw_offer"
    declined = white.post(f"/api/v1/games/{game_id}/draw-decline/")
    assert declined.json()["draw_offer"] is None
    aborted = white.post(f"/api/v1/games/{game_id}/abort/")
    assert aborted.json()["status"] == "aborted"
    again = black.post(f"/api/v1/games/{game_id}/resign/")
    assert again.status_code == 409 and again.json()["error"] == "game_over"


def test_resign(started):
    game_id, black, white = started
    state = white.post(f"/api/v1/games/{game_id}/resign/").json()
    assert (state["result"], state["termination"], state["status"]) == (
        "1-0",
        "resignation",
        "finished",
    )
    assert state["legal_moves"] == []


def test_claim_flag_too_early_is_409(started):
    game_id, black, white = started
    response = white.post(f"/api/v1/games/{game_id}/claim-flag/")
    assert response.status_code == 409 and response.json()["error"] == "not_flagged"


def test_reading_a_flagged_game_adjudicates_it(started, api):
    game_id, _, _ = started
    from datetime import timedelta

    from django.utils import timezone

    Game.objects.filter(pk=game_id).update(
        flag_deadline=timezone.now() - timedelta(seconds=1),
        turn_started_at=timezone.now() - timedelta(seconds=61),
    )
    state = api().get(f"/api/v1/games/{game_id}/").json()
    assert (state["status"], state["termination"]) == ("finished", "abandoned")


def test_challenge_api_errors(api, players, make_player):
    black, white = players
    client = api(black)
    missing = client.post("/api/v1/challenges/", {"colour": "black"}, format="json")
    assert missing.status_code == 400 and "preset" in missing.json()["detail"]
    nobody = client.post(
        "/api/v1/challenges/", {"preset": "rapid-10+0", "opponent": "ghost"}, format="json"
    )
    assert nobody.status_code == 404
    bad = client.post(
        "/api/v1/challenges/", {"preset": "rapid-10+0", "marbles_to_win": 9}, format="json"
    )
    assert bad.status_code == 400 and "marbles_to_win" in bad.json()["detail"]
    casual_no_clock = client.post(
        "/api/v1/challenges/", {"base_seconds": None, "rated": True}, format="json"
    )
    assert casual_no_clock.json()["error"] == "rated_needs_clock"
    direct = client.post(
        "/api/v1/challenges/", {"preset": "rapid-15+0", "opponent": "WHITEY"}, format="json"
    ).json()
    assert direct["opponent"]["username"] == "whitey"
    stranger = api(make_player("stranger"))
    assert stranger.post(f"/api/v1/challenges/{direct['id']}/accept/").status_code == 403
    assert stranger.delete(f"/api/v1/challenges/{direct['id']}/").status_code == 403
    assert (
        api(white).post(f"/api/v1/challenges/{direct['id']}/decline/").json()["status"]
        == "declined"
    )
    listed = api().get("/api/v1/challenges/").json()
    assert all(c["opponent"] is None for c in listed)


def test_game_list_filters(started, api):
    game_id, _, _ = started
    assert api().get("/api/v1/games/", {"status": "started"}).json()["count"] == 1
    assert api().get("/api/v1/games/", {"player": "WHITEY"}).json()["results"][0]["id"] == game_id
    assert api().get("/api/v1/games/", {"status": "finished"}).json()["count"] == 0
