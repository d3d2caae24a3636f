"""The clubs API: every endpoint, every permission (403, nothing changes), error shapes."""

import pytest

from clubs.models import Club, Membership

from .conftest import club_state

pytestmark = pytest.mark.django_db

BASE = "/api/v1/clubs/daisy-club"


def test_list_search_and_detail(api, club_world):
    listed = api().get("/api/v1/clubs/", {"search": "daisy"}).json()
    assert listed["count"] == 1
    assert listed["results"][0]["member_count"] == 5
    assert api().get("/api/v1/clubs/", {"search": "chess"}).json()["count"] == 0
    detail = api().get(f"{BASE}/").json()
    assert detail["name"] == "Daisy Club" and detail["admission"] == "request"


def test_create_requires_login(api, db):
    response = api().post("/api/v1/clubs/", {"name": "X Club"}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["error"] == "not_authenticated"
    assert not Club.objects.exists()


def test_create_and_become_owner(api, make_player):
    alice = make_player("alice")
    response = api(alice).post(
        "/api/v1/clubs/", {"name": "Ghent Marbles", "admission": "request"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["slug"] == "ghent-marbles"
    assert Membership.objects.get(club__slug="ghent-marbles").role == "owner"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": "Ok Club", "admission": "maybe"}, "admission"),
        ({"name": "z" * 81}, "name"),
    ],
)
def test_create_with_bad_input_is_400_naming_the_field(api, make_player, body, field):
    response = api(make_player()).post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert field in response.json()["detail"]
    assert not Club.objects.exists()


def test_malformed_json_is_400(api, make_player):
    response = api(make_player()).post(
        "/api/v1/clubs/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "malformed"


def test_duplicate_name_is_409(api, club_world):
    response = api(club_world["outsider"]).post(
        "/api/v1/clubs/", {"name": "daisy club"}, format="json"
    )
    assert response.status_code == 409
    assert response.json() == {
        "error": "name_taken",
        "detail": "A club named 'daisy club' already exists.",
    }


def test_unknown_club_is_404(api, make_player):
    response = api(make_player()).post("/api/v1/clubs/nope/join/", {}, format="json")
    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "detail": "There is no club 'nope'."}


def test_join_request_approve_flow(api, club_world):
    w = club_world
    newcomer = w["outsider"]
    response = api(newcomer).post(f"{BASE}/join/", {"message": "let me in"}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "requested"
    request_id = response.json()["request"]["id"]
    assert api(newcomer).post(f"{BASE}/join/", {}, format="json").status_code == 409
    pending = api(w["admin"]).get(f"{BASE}/requests/").json()
    assert {r["player"]["username"] for r in pending} == {"applicant", "outsider"}
    approved = api(w["admin"]).post(f"{BASE}/requests/{request_id}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert api(w["admin"]).post(f"{BASE}/requests/{request_id}/approve/").status_code == 409
    members = api().get(f"{BASE}/members/").json()["results"]
    assert ("outsider", "member") in {(m["player"]["username"], m["role"]) for m in members}
    assert members[0]["role"] == "owner"


def test_join_open_club_and_leave(api, make_player):
    owner, bob = make_player("owner"), make_player("bob")
    api(owner).post("/api/v1/clubs/", {"name": "Open Club"}, format="json")
    joined = api(bob).post("/api/v1/clubs/open-club/join/", {}, format="json")
    assert joined.json()["status"] == "joined"
    assert api(bob).post("/api/v1/clubs/open-club/leave/").status_code == 204
    again = api(bob).post("/api/v1/clubs/open-club/leave/")
    assert again.status_code == 404 and again.json()["error"] == "not_member"
    owner_leaves = api(owner).post("/api/v1/clubs/open-club/leave/")
    assert owner_leaves.status_code == 409
    assert owner_leaves.json()["error"] == "owner_cannot_leave"


def test_withdraw_request(api, club_world):
    client = api(club_world["applicant"])
    assert client.delete(f"{BASE}/join/").status_code == 204
    assert client.delete(f"{BASE}/join/").status_code == 404


def test_roles_through_api(api, club_world):
    w = club_world
    owner = api(w["owner"])
    assert owner.post(f"{BASE}/members/member/promote/").json()["role"] == "admin"
    assert owner.post(f"{BASE}/members/member/demote/").json()["role"] == "member"
    assert owner.delete(f"{BASE}/members/member2/").status_code == 204
    missing = owner.delete(f"{BASE}/members/ghost/")
    assert missing.status_code == 404 and "ghost" in missing.json()["detail"]
    transferred = owner.post(f"{BASE}/transfer/", {"username": "admin1"}, format="json")
    assert transferred.json()["role"] == "owner"
    assert owner.delete(f"{BASE}/").json()["error"] == "permission_denied"
    assert api(w["admin"]).delete(f"{BASE}/").status_code == 204


def test_transfer_without_username_is_400(api, club_world):
    response = api(club_world["owner"]).post(f"{BASE}/transfer/", {}, format="json")
    assert response.status_code == 400 and "username" in response.json()["detail"]


# (method, path, body, roles that must get 403)
FORBIDDEN_CALLS = [
    ("patch", f"{BASE}/", {"description": "hijacked"}, ["member", "outsider", "applicant"]),
    ("delete", f"{BASE}/", None, ["admin", "member", "outsider"]),
    ("post", f"{BASE}/transfer/", {"username": "member"}, ["admin", "member", "outsider"]),
    ("post", f"{BASE}/members/admin2/demote/", None, ["admin", "member", "outsider"]),
    ("post", f"{BASE}/members/member2/promote/", None, ["member", "outsider"]),
    ("delete", f"{BASE}/members/member2/", None, ["member", "outsider"]),
    ("delete", f"{BASE}/members/admin2/", None, ["admin", "member"]),
    ("delete", f"{BASE}/members/owner/", None, ["admin"]),
    ("get", f"{BASE}/requests/", None, ["member", "outsider", "applicant"]),
    ("post", f"{BASE}/requests/{{request}}/approve/", None, ["member", "outsider", "applicant"]),
    ("post", f"{BASE}/requests/{{request}}/decline/", None, ["member", "outsider"]),
]
CASES = [(m, p, b, who) for (m, p, b, roles) in FORBIDDEN_CALLS for who in roles]


@pytest.mark.parametrize(("method", "path", "body", "who"), CASES)
def test_forbidden_calls_are_403_and_change_nothing(api, club_world, method, path, body, who):
    path = path.replace("{request}", str(club_world["request"].pk))
    before = club_state(club_world["club"])
    response = getattr(api(club_world[who]), method)(path, body, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["error"] == "permission_denied"
    assert response.json()["detail"]
    assert club_state(club_world["club"]) == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("patch", f"{BASE}/"),
        ("delete", f"{BASE}/"),
        ("post", f"{BASE}/join/"),
        ("post", f"{BASE}/leave/"),
        ("get", f"{BASE}/requests/"),
        ("delete", f"{BASE}/members/member/"),
    ],
)
def test_anonymous_writes_are_refused(api, club_world, method, path):
    before = club_state(club_world["club"])
    response = getattr(api(), method)(path, {}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["error"] == "not_authenticated"
    assert club_state(club_world["club"]) == before
