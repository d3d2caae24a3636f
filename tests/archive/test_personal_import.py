"""A player imports a published game record into their own archive (POST /api/v1/archive/import/
without a board), lists and replays it; imports are private to their owner."""

from __future__ import annotations

import json
import re

import pytest

from archive.models import ImportedGame
from clubs import services as club_services
from games import engine
from games.engine.record import REQUIRED_TAGS
from games.models import Game
from ratings.models import RatingChange
from tests.archive.support import PUSH_OPENING, notations_for, record_text
from tournaments import services as tournament_services
from tournaments.models import Board, Entrant, Round

IMPORT_API = "/api/v1/archive/import/"
LIST_API = "/api/v1/archive/imported/"


@pytest.fixture
def alice(make_player):
    return make_player("alice")


@pytest.fixture
def bob(make_player):
    return make_player("bob")


def published(notations: list[str], *, space: str = "") -> str:
    """The community's form: ``1.A1B2 I5H5 2.A2B3 ...`` (upper case, no space after the number)."""
    units = []
    for index, notation in enumerate(notations):
        move = notation.upper()
        units.append(f"{index // 2 + 1}.{space}{move}" if index % 2 == 0 else move)
    return " ".join(units)


def replayed(notations: list[str], start: str) -> engine.Game:
    """The game the moves make, played here move by move."""
    game = engine.Game(start)
    for notation in notations:
        game.play(notation)
    return game


def test_a_published_record_is_imported_and_replays_to_the_position_it_reaches(api, alice):
    notations = notations_for(9, PUSH_OPENING, start="belgian")
    expected = replayed(notations, "belgian")
    text = '[Black "Ada Lovelace"]\n[White "Alan Turing"]\n\n' + published(notations)
    response = api(alice).post(IMPORT_API, {"record": text, "start": "belgian"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["plies"] == 9
    assert body["position"] == expected.position.to_string()
    assert body["url"] == f"/archive/imported/{body['id']}/"
    assert body["rated"] is False and body["result"] is None
    imported = ImportedGame.objects.get(pk=body["id"])
    assert (imported.owner, imported.black_name, imported.white_name) == (
        alice,
        "Ada Lovelace",
        "Alan Turing",
    )
    assert imported.start == "belgian"

    detail = api(alice).get(f"{LIST_API}{body['id']}/")
    assert detail.status_code == 200
    game = detail.json()
    assert [move["notation"] for move in game["moves"]] == notations
    assert [frame["position"] for frame in game["frames"]] == [
        position.to_string() for position in expected.positions
    ]
    assert game["frames"][-1]["position"] == body["position"]
    assert game["frames"][2]["black_lost"] == 1  # White's first move pushes a marble off
    assert game["moves"][1]["pushed_off"] is True
    assert [move["mover"] for move in game["moves"][:3]] == ["b", "w", "b"]
    assert game["headers"]["Black"] == "Ada Lovelace"
    assert game["clocks_known"] is False
    # Unrated by nature: no server game, no rating change.
    assert not Game.objects.exists() and not RatingChange.objects.exists()


def test_missing_headers_are_filled_with_defaults_and_named(api, alice):
    notations = notations_for(6, start="standard")
    response = api(alice).post(IMPORT_API, {"record": " ".join(notations)}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["filled_headers"] == list(REQUIRED_TAGS)
    assert "filled in: Event, Round, Date" in body["detail"]
    game = api(alice).get(f"{LIST_API}{body['id']}/").json()
    assert game["headers"]["Start"] == "standard"
    assert game["headers"]["MarblesToWin"] == "6"
    assert game["frames"][0]["position"] == engine.STANDARD_START.to_string()

    text = '[Event "Paris Open"]\n[Start "german"]\n[Result "0-1"]\n\n'
    text += published(notations_for(4, start="german"), space=" ")
    body = api(alice).post(IMPORT_API, {"record": text}, format="json").json()
    assert body["filled_headers"] == [
        "Round",
        "Date",
        "Black",
        "White",
        "MarblesToWin",
        "TimeControl",
        "Termination",
    ]
    assert (body["result"], body["termination"]) == ("0-1", "resignation")


def test_an_illegal_move_is_a_400_naming_the_ply_and_nothing_is_stored(api, alice):
    notations = notations_for(8, start="standard")
    notations[4] = "e5e6"  # ply 5: e5 is empty
    response = api(alice).post(IMPORT_API, {"record": published(notations)}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "illegal_move"
    assert "ply 5 (move 3, Black) e5e6" in body["detail"]
    assert not ImportedGame.objects.exists()


@pytest.mark.parametrize(
    ("record", "start", "code", "fragment"),
    [
        ("1. a1b2 3. i5h5", None, "bad_move_number", "ply 2"),
        ('[Start "german"]\n1. a1b2', "belgian", "start_mismatch", "'german'"),
        ("1. a1b2 {never closed", None, "bad_movetext", "comment"),
        ("1. a1b2", "b|a1,a1|i9", "bad_start", "a1"),
        ('[MarblesToWin "9"]\n1. a1b2', None, "bad_header", "marbles_to_win"),
    ],
)
def test_a_record_that_does_not_read_is_a_400_naming_the_problem(
    api, alice, record, start, code, fragment
):
    body = {"record": record} | ({"start": start} if start else {})
    response = api(alice).post(IMPORT_API, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == code
    assert fragment in response.json()["detail"]
    assert not ImportedGame.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"record": "   "}, "record"),
        ({"record": "a1b2", "start": "dutch"}, "start"),
        ({"record": "a1b2", "start": " standard"}, "start"),
        ({"record": "a1b2", "start": "B|A1|I9"}, "start"),
        ({"record": "a1b2", "start": 5}, "start"),
        ({"record": "a" * 200_001}, "record"),
        ({"start": "standard"}, "record"),
    ],
)
def test_a_request_outside_the_schema_is_a_400_naming_the_field(api, alice, body, field):
    response = api(alice).post(IMPORT_API, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["detail"].startswith(f"{field}: ")
    assert not ImportedGame.objects.exists()


def test_the_start_may_be_a_position_string(api, alice):
    five_down = "b|a1,a2,c1,c2,c3,c4,c5,e7,e8|e9,g5,h4,h5,h6,i5,i6,i7,i8"
    response = api(alice).post(IMPORT_API, {"record": "e7e8", "start": five_down}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["result"], body["termination"]) == ("1-0", "marbles")
    assert ImportedGame.objects.get().start == "custom"


def test_imports_are_private_to_their_owner(api, client, alice, bob):
    mine = api(alice).post(IMPORT_API, {"record": "a1b2 i5h5"}, format="json").json()["id"]
    theirs = api(bob).post(IMPORT_API, {"record": "a1b2"}, format="json").json()["id"]
    listing = api(alice).get(LIST_API).json()
    assert [row["id"] for row in listing["results"]] == [mine]
    for path in (f"{LIST_API}{theirs}/", f"{LIST_API}{theirs}/record/", f"{LIST_API}999999/"):
        response = api(alice).get(path)
        assert response.status_code == 404, path
        assert response.json()["error"] == "not_found"
    client.force_login(alice)
    assert client.get(f"/archive/imported/{theirs}/").status_code == 404
    assert client.get(f"/archive/imported/{theirs}.txt").status_code == 404
    assert client.get(f"/archive/imported/{mine}/").status_code == 200


def test_anonymous_callers_are_refused(api, client, alice):
    mine = api(alice).post(IMPORT_API, {"record": "a1b2"}, format="json").json()["id"]
    assert api().post(IMPORT_API, {"record": "a1b2"}, format="json").status_code in (401, 403)
    for path in (LIST_API, f"{LIST_API}{mine}/", f"{LIST_API}{mine}/record/"):
        assert api().get(path).status_code in (401, 403), path
    for path in ("/archive/import/", "/archive/imported/", f"/archive/imported/{mine}/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert ImportedGame.objects.count() == 1


def test_the_record_download_is_the_game(api, alice):
    notations = notations_for(7, PUSH_OPENING, start="belgian")
    text = published(notations) + " 0-1"
    imported_id = api(alice).post(IMPORT_API, {"record": text, "start": "belgian"}).json()["id"]
    response = api(alice).get(f"{LIST_API}{imported_id}/record/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response["Content-Disposition"] == (
        f'attachment; filename="sumito-import-{imported_id}.txt"'
    )
    headers, game = engine.read_record(response.content.decode())
    assert list(game.notations) == notations
    assert (game.result, game.termination, headers["Start"]) == ("0-1", "resignation", "belgian")


def test_the_list_pages_newest_first(api, alice):
    ids = [
        api(alice).post(IMPORT_API, {"record": move}, format="json").json()["id"]
        for move in ("a1b2", "a2b3", "a3b4")
    ]
    page = api(alice).get(LIST_API, {"limit": 2}).json()
    assert page["count"] == 3
    assert [row["id"] for row in page["results"]] == ids[::-1][:2]
    assert api(alice).get(LIST_API, {"limit": "x"}).status_code == 400


# --- the director's path, unchanged -------------------------------------------------------------


@pytest.fixture
def otb_board(make_player, alice, bob):
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Hex Club")
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Open", play_mode="otb"
    )
    round_ = Round.objects.create(tournament=tournament, number=1)
    return Board.objects.create(
        round=round_,
        number=1,
        black=Entrant.objects.create(tournament=tournament, user=alice),
        white=Entrant.objects.create(tournament=tournament, user=bob),
    )


def test_with_a_board_the_director_attaches_the_game_as_before(api, otb_board):
    director = otb_board.round.tournament.club.memberships.get(role="owner").user
    text = record_text(notations_for(4), black="alice", white="bob")
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 201, response.content
    otb_board.refresh_from_db()
    assert response.json()["game"]["id"] == otb_board.game_id
    assert not ImportedGame.objects.exists()
    bad = record_text(["i8i7", "a1a1"])
    other = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": bad})
    assert other.status_code in (409, 422)  # the board has its game now
    with_start = {"board": otb_board.pk, "record": text, "start": "belgian"}
    response = api(director).post(IMPORT_API, with_start, format="json")
    assert response.status_code == 400 and response.json()["detail"].startswith("start: ")


# --- pages --------------------------------------------------------------------------------------


def test_the_import_page_names_a_bad_move_and_imports_a_good_record(client, alice):
    client.force_login(alice)
    page = client.get("/archive/import/")
    assert page.status_code == 200
    assert 'name="start"' in page.content.decode()
    assert 'href="/archive/import/"' in client.get("/archive/").content.decode()

    notations = notations_for(6, start="german")
    bad = published([*notations[:3], "a1a1"])
    response = client.post("/archive/import/", {"record": bad, "start": "german"})
    assert response.status_code == 400
    assert "ply 4 (move 2, White) a1a1" in response.content.decode()
    assert not ImportedGame.objects.exists()

    response = client.post(
        "/archive/import/", {"record": published(notations), "start": "german"}, follow=True
    )
    imported = ImportedGame.objects.get()
    assert response.redirect_chain[-1][0] == f"/archive/imported/{imported.pk}/"
    content = response.content.decode()
    assert "Imported into your archive: 6 plies" in content
    data = json.loads(
        re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', content)[1]
    )
    assert data["frames"][-1]["position"] == replayed(notations, "german").position.to_string()
    listing = client.get("/archive/imported/").content.decode()
    assert f'data-imported="{imported.pk}"' in listing
    download = client.get(f"/archive/imported/{imported.pk}.txt")
    assert download["Content-Disposition"].startswith("attachment;")
    assert engine.read_record(download.content.decode())[1].notations == tuple(notations)
