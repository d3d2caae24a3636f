import pytest

from accounts.services import api_token_create

pytestmark = pytest.mark.django_db


def test_me_requires_authentication(api):
    response = api().get("/api/v1/me/")
    assert response.status_code in (401, 403)
    assert response.json()["error"] == "not_authenticated"


def test_me_and_profile_patch(api, make_player):
    user = make_player("alice")
    client = api(user)
    assert client.get("/api/v1/me/").json()["email"] == "alice@example.org"
    response = client.patch("/api/v1/me/", {"display_name": "Al", "country": "NL"}, format="json")
    assert response.status_code == 200
    assert response.json()["display_name"] == "Al"
    assert response.json()["country"] == "NL"


def test_profile_patch_with_bad_country_is_400_and_changes_nothing(api, make_player):
    user = make_player("alice", display_name="Keep")
    response = api(user).patch(
        "/api/v1/me/", {"display_name": "Changed", "country": "ZZ"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert "country" in response.json()["detail"]
    user.refresh_from_db()
    assert user.display_name == "Keep"


def test_player_lookup_and_search(api, make_player):
    make_player("alice", display_name="Alice Marchand")
    make_player("bruno")
    assert api().get("/api/v1/players/ALICE/").json()["username"] == "alice"
    results = api().get("/api/v1/players/", {"search": "marc"}).json()["results"]
    assert [p["username"] for p in results] == ["alice"]
    missing = api().get("/api/v1/players/nobody/")
    assert missing.status_code == 404
    assert missing.json()["error"] == "not_found"


def test_tokens_api_create_list_revoke(api, make_player):
    user = make_player("alice")
    client = api(user)
    created = client.post("/api/v1/me/tokens/", {"name": "ci"}, format="json")
    assert created.status_code == 201
    key = created.json()["key"]
    listed = client.get("/api/v1/me/tokens/").json()
    assert [t["name"] for t in listed] == ["ci"] and "key" not in listed[0]
    from rest_framework.test import APIClient

    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert script.get("/api/v1/me/").status_code == 200
    assert client.delete(f"/api/v1/me/tokens/{created.json()['id']}/").status_code == 204
    assert script.get("/api/v1/me/").status_code == 401


def test_revoking_unknown_token_is_404(api, make_player):
    other_token, _ = api_token_create(user=make_player("bruno"), name="x")
    response = api(make_player("alice")).delete(f"/api/v1/me/tokens/{other_token.id}/")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_malformed_authorization_header_is_401(api, db):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token")
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert "Malformed" in response.json()["detail"]
