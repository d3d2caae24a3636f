"""Starts of two-player games: Standard by default, the daisies, placement and custom positions,
through the API and the lobby's form (games.options, games.services, games.selectors)."""

from unittest import mock

import pytest
from django.urls import reverse

from core.errors import Unprocessable
from games import engine, records
from games.models import Challenge, Game, Move
from games.options import GameOptions, custom_start
from games.selectors import PLACEMENT_PLIES

pytestmark = pytest.mark.django_db

#: Black to move, a few marbles lost on each side (14 - 11 black, 14 - 12 white).
CUSTOM = (
    "B| A1, a2, a3, b1, b2, b3, c3, c4, d4, e5, e6 | i9, i8, i7, h9, h8, h7, g7, g6, f6, f5, e4, g5"
)
CUSTOM_CANONICAL = engine.Position.from_string(CUSTOM).to_string()
FIFTEEN_BLACK = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c1,c2,c3,c4|i5,i6,i7,i8,i9"


def challenge(client, **body):
    body.setdefault("preset", "rapid-10+0")
    body.setdefault("colour", "black")
    return client.post("/api/v1/challenges/", body, format="json")


def accepted(api, players, **body):
    """A challenge by Black made and accepted by White: (game id, black client, white client)."""
    black, white = players
    created = challenge(api(black), **body)
    assert created.status_code == 201, created.json()
    answer = api(white).post(f"/api/v1/challenges/{created.json()['id']}/accept/")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"], api(black), api(white)


def move(client, game_id, notation, ply):
    return client.post(
        f"/api/v1/games/{game_id}/moves/", {"move": notation, "ply": ply}, format="json"
    )


# --- the default and the named starts ------------------------------------------------------------


def test_a_challenge_starts_from_the_standard_position_unless_told_otherwise(api, players):
    game_id, _, _ = accepted(api, players)
    game = Game.objects.get(pk=game_id)
    assert Challenge.objects.get().start == "standard"
    assert (game.start, game.start_position) == ("standard", engine.STANDARD_START.to_string())
    assert GameOptions(600).start == "standard"


@pytest.mark.parametrize("name", ["standard", "belgian", "german", "placement"])
def test_each_named_start(api, players, name):
    game_id, black, _ = accepted(api, players, start=name)
    state = black.get(f"/api/v1/games/{game_id}/").json()
    assert state["start"] == name
    assert state["position"] == engine.start_position(name).to_string()
    assert Challenge.objects.get().start_position == ""  # only a custom start has one


def test_the_lobby_form_offers_every_start_with_standard_first_chosen(client, players):
    client.force_login(players[0])
    page = client.get(reverse("lobby")).content.decode()
    assert '<option value="standard" selected>Standard</option>' in page
    for value in ("belgian", "german", "placement", "custom"):
        assert f'<option value="{value}">' in page
    assert 'data-board-editor="id_start"' in page  # the custom position's text and board


# --- custom positions ----------------------------------------------------------------------------


def test_a_custom_start_is_kept_canonical_and_the_game_starts_from_it(api, players):
    game_id, black, white = accepted(api, players, start="custom", start_position=CUSTOM)
    assert Challenge.objects.get().start_position == CUSTOM_CANONICAL
    state = black.get(f"/api/v1/games/{game_id}/").json()
    assert (state["start"], state["position"]) == ("custom", CUSTOM_CANONICAL)
    assert state["pushed_off"] == {"black": 3, "white": 2}  # carried over from the position
    position = engine.Position.from_string(CUSTOM_CANONICAL)
    assert {m["notation"] for m in state["legal_moves"]} == {
        m.notation for m in engine.legal_moves(position)
    }
    first = state["legal_moves"][0]["notation"]
    assert move(black, game_id, first, 0).status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.start_position == CUSTOM_CANONICAL
    replayed = records.engine_game_of(game)
    assert replayed.start_position == position and replayed.notations == (first,)
    # the record carries the position, and reads back to the same game
    headers, read = engine.read_record(records.game_record(game))
    assert headers["Start"] == CUSTOM_CANONICAL and read.position.to_string() == game.position
    assert white.get(f"/api/v1/games/{game_id}/").json()["version"] == 1


def test_a_rematch_of_a_custom_game_starts_from_the_same_position(api, players):
    game_id, black, _ = accepted(api, players, start="custom", start_position=CUSTOM)
    assert black.post(f"/api/v1/games/{game_id}/resign/").status_code == 200
    offer = black.post(f"/api/v1/games/{game_id}/rematch/")
    assert offer.status_code in (200, 201), offer.json()
    rematch = Challenge.objects.get(rematch_of_id=game_id)
    assert (rematch.start, rematch.start_position) == ("custom", CUSTOM_CANONICAL)


@pytest.mark.parametrize(
    ("start_position", "named"),
    [
        (FIFTEEN_BLACK, "Black has 15 marbles; at most 14"),
        ("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,z9|i9", "'z9' is not a cell"),
        ("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5|a5,i9,i8,i7,i6,i5,h9,h8,h7", "both a black and a white"),
        ("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,a2|i9,i8", "a2 is listed twice"),
        ("b,a1,a2", "three parts separated by '|'"),
        ("x|a1|i9", "side to move must be 'b' or 'w'"),
        ("b|a1,a2,a3,a4,a5,b1,b2,b3|" + ",".join(f"i{n}" for n in range(5, 10)), "already lost"),
    ],
)
def test_a_bad_custom_start_is_a_clear_422_and_creates_nothing(api, players, start_position, named):
    answer = challenge(api(players[0]), start="custom", start_position=start_position)
    assert answer.status_code == 422, answer.json()
    assert answer.json()["error"] == "invalid_start_position"
    assert named in answer.json()["detail"]
    assert not Challenge.objects.exists()


def test_a_custom_start_needs_its_position_and_only_it_takes_one(api, players):
    client = api(players[0])
    missing = challenge(client, start="custom")
    assert (missing.status_code, missing.json()["error"]) == (422, "start_position_missing")
    stray = challenge(client, start="belgian", start_position=CUSTOM)
    assert (stray.status_code, stray.json()["error"]) == (422, "start_position_not_custom")
    too_long = challenge(client, start="custom", start_position="b|" + "a1," * 100)
    assert too_long.status_code == 400  # longer than the schema's maxLength
    assert not Challenge.objects.exists()


def test_a_custom_start_whose_side_to_move_cannot_move_is_refused():
    # No position with nine or more marbles a side leaves its side to move without a move in
    # practice; the check is still made (the rules: a player who cannot move loses at once).
    cannot_move = mock.patch.object(engine.Position, "has_legal_move", return_value=False)
    with cannot_move, pytest.raises(Unprocessable, match="Black is to move and has no") as caught:
        custom_start(CUSTOM, marbles_to_win=6)
    assert caught.value.code == "invalid_start_position"


def test_the_lobby_form_takes_a_custom_start_and_names_a_bad_one(client, players):
    client.force_login(players[0])
    form = {"preset": "rapid-10+0", "colour": "random", "start": "custom", "rated": "on"}
    refused = client.post(reverse("lobby"), {**form, "start_position": FIFTEEN_BLACK})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "Black has 15 marbles; at most 14" in page and 'class="error"' in page
    assert not Challenge.objects.exists()
    taken = client.post(reverse("lobby"), {**form, "start_position": CUSTOM})
    assert taken.status_code == 302
    assert Challenge.objects.get().start_position == CUSTOM_CANONICAL


def test_the_lobby_form_ignores_position_text_left_under_another_start(client, players):
    client.force_login(players[0])
    answer = client.post(
        reverse("lobby"),
        {"preset": "rapid-10+0", "colour": "random", "start": "german", "start_position": "x"},
    )
    assert answer.status_code == 302
    assert (Challenge.objects.get().start, Challenge.objects.get().start_position) == ("german", "")


# --- placement -----------------------------------------------------------------------------------


def test_placement_game_from_the_empty_board_to_ordinary_moves(api, players):
    game_id, black, white = accepted(api, players, start="placement")
    state = black.get(f"/api/v1/games/{game_id}/").json()
    assert state["position"] == "b||" and state["placement"] == {
        "black_left": 14,
        "white_left": 14,
    }
    assert len(state["legal_moves"]) == 61
    assert {m["kind"] for m in state["legal_moves"]} == {"placement"}

    # Black and White place in turn; an occupied cell is refused and changes nothing.
    assert move(black, game_id, "@e5", 0).status_code == 200
    before = Game.objects.get(pk=game_id)
    taken = move(white, game_id, "@E5", 1)
    assert taken.status_code == 422 and taken.json()["error"] == "illegal_move"
    assert "e5 is occupied" in taken.json()["detail"]
    after = Game.objects.get(pk=game_id)
    assert (after.ply, after.position, after.side_to_move) == (1, before.position, "w")
    assert Move.objects.filter(game_id=game_id).count() == 1
    not_yours = move(black, game_id, "@e6", 1)
    assert (not_yours.status_code, not_yours.json()["error"]) == (409, "not_your_turn")
    state = white.get(f"/api/v1/games/{game_id}/").json()
    assert state["placement"] == {"black_left": 13, "white_left": 14}
    assert state["pushed_off"] == {"black": 0, "white": 0}  # not 13 and 14: still placing
    assert "@e5" not in {m["notation"] for m in state["legal_moves"]}
    ordinary = move(white, game_id, "e5e6", 1)
    assert ordinary.status_code == 422 and "placement phase" in ordinary.json()["detail"]

    # The rest of the phase: the first open cell each time.
    clients = {"b": black, "w": white}
    while state["placement"]:
        notation = state["legal_moves"][0]["notation"]
        answer = move(clients[state["side_to_move"]], game_id, notation, state["version"])
        assert answer.status_code == 200, answer.json()
        state = answer.json()
    assert state["version"] == PLACEMENT_PLIES and state["side_to_move"] == "b"
    position = engine.Position.from_string(state["position"])
    assert len(position.black_cells) == len(position.white_cells) == 14
    assert state["pushed_off"] == {"black": 0, "white": 0}
    assert {m["kind"] for m in state["legal_moves"]} <= {"inline", "broadside"}

    late = move(black, game_id, "@i9", PLACEMENT_PLIES)
    assert late.status_code == 422 and "placement phase is over" in late.json()["detail"]
    assert Game.objects.get(pk=game_id).ply == PLACEMENT_PLIES
    first = state["legal_moves"][0]["notation"]
    assert move(black, game_id, first, PLACEMENT_PLIES).status_code == 200

    game = Game.objects.get(pk=game_id)
    notations = records.notations_of(game)
    assert notations[0] == "@e5" and notations[-1] == first and len(notations) == 29
    replayed = records.engine_game_of(game)
    assert replayed.position.to_string() == game.position and not replayed.in_placement
    headers, read = engine.read_record(records.game_record(game))
    assert headers["Start"] == "placement" and read.notations == tuple(notations)
    assert read.position.to_string() == game.position


def test_a_placement_game_ended_in_its_phase_counts_no_marbles_pushed_off(api, players):
    game_id, black, white = accepted(api, players, start="placement")
    for ply, (client, cell) in enumerate([(black, "e5"), (white, "d4"), (black, "f6")]):
        assert move(client, game_id, f"@{cell}", ply).status_code == 200
    state = white.post(f"/api/v1/games/{game_id}/resign/").json()
    assert (state["status"], state["result"]) == ("finished", "1-0")
    assert state["pushed_off"] == {"black": 0, "white": 0} and state["legal_moves"] == []


def test_the_replay_of_a_placement_game_counts_no_marbles_lost_while_placing(api, players):
    from archive.selectors import replay_data

    game_id, black, white = accepted(api, players, start="placement")
    for ply, (client, cell) in enumerate([(black, "e5"), (white, "d4"), (black, "f6")]):
        assert move(client, game_id, f"@{cell}", ply).status_code == 200
    frames = replay_data(Game.objects.get(pk=game_id))["frames"]
    assert [(f["black_lost"], f["white_lost"]) for f in frames] == [(0, 0)] * 4
