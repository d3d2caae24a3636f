"""The tournament API: lifecycle, reads, exports and error paths."""

import pytest

from tournaments.models import Board, Tournament

pytestmark = pytest.mark.django_db


def test_director_runs_a_round_robin_through_the_api(api, club_with_members):
    club, owner, players = club_with_members
    director = api(owner)
    created = director.post(
        "/api/v1/tournaments/",
        {
            "club_slug": club.slug,
            "name": "API Round Robin",
            "format": "round_robin",
            "play_mode": "otb",
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    base = f"/api/v1/tournaments/{created.json()['slug']}/"
    for player in players[:4]:
        assert api(player).post(f"{base}register/").status_code == 201
    assert api(players[0]).post(f"{base}register/").json()["error"] == "already_registered"
    assert director.post(f"{base}start/").json() == {"round": 1, "status": "paired"}
    for number in (1, 2, 3):
        if number > 1:
            assert director.post(f"{base}pair-next/").status_code == 201
        assert (
            director.post(f"{base}start-round/", {"round": number}, format="json").json()["status"]
            == "started"
        )
        boards = api().get(f"{base}rounds/{number}/").json()["boards"]
        for board in boards:
            if board["white"]:
                response = director.post(
                    f"{base}result/",
                    {"board": board["id"], "result": "1-0", "black_marbles": 6, "white_marbles": 1},
                    format="json",
                )
                assert response.status_code == 200, response.json()
    assert Tournament.objects.get(slug=created.json()["slug"]).status == "finished"
    standings = api().get(f"{base}standings/").json()
    assert len(standings) == 4 and standings[0]["rank"] == 1
    assert "tiebreak_values" in standings[0]
    assert len(api().get(f"{base}crosstable/").json()) == 4
    exported = api().get(f"{base}export/trf")
    assert exported.content.decode().startswith("012")
    assert exported["Content-Disposition"].startswith('attachment; filename="')
    assert exported["Content-Disposition"].endswith('.trf"')


def test_errors(api, club_with_members, make_tournament):
    club, owner, players = club_with_members
    tournament = make_tournament(register=4)
    base = f"/api/v1/tournaments/{tournament.slug}/"
    assert api().get("/api/v1/tournaments/nope/").status_code == 404
    player = api(players[0])
    assert player.post(f"{base}start/").json()["error"] == "permission_denied"
    assert player.patch(base, {"rounds": 9}, format="json").status_code == 403
    bad = api(owner).post(f"{base}result/", {"result": "1-0"}, format="json")
    assert bad.status_code == 400 and "board" in bad.json()["detail"]
    missing = api(owner).post(f"{base}result/", {"board": 99999, "result": "1-0"}, format="json")
    assert missing.status_code == 404
    # the input is a board's id, and the error says so (issue 25: "has no board 2")
    assert "no board with the id 99999" in missing.json()["detail"]
    assert "not its number" in missing.json()["detail"]
    tiebreaks = api(owner).patch(base, {"tiebreaks": ["nonsense"]}, format="json")
    assert tiebreaks.status_code == 400 and "nonsense" in tiebreaks.json()["detail"]
    for shape in (None, "buchholz", {"buchholz": 1}):  # not a list of codes: a 400, not a 500
        malformed = api(owner).patch(base, {"tiebreaks": shape}, format="json")
        assert malformed.status_code == 400 and "tiebreaks" in malformed.json()["fields"]
    as_form = api(owner).patch(base, {"tiebreaks": "null"}, format="multipart")
    assert as_form.status_code == 400 and "null" in as_form.json()["detail"]
    not_member = api(owner).post(
        "/api/v1/tournaments/", {"club_slug": club.slug, "name": "x"}, format="json"
    )
    assert not_member.status_code == 400  # name too short
    assert (
        api(players[1])
        .post(
            "/api/v1/tournaments/", {"club_slug": club.slug, "name": "Player's Cup"}, format="json"
        )
        .status_code
        == 403
    )
    assert api().get(f"{base}export/nope").status_code == 404
    assert not Board.objects.exists()
