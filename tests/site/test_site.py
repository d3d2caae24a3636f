import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_page_and_health(client):
    assert "Play Abalone" in client.get("/").content.decode()
    health = client.get("/healthz").json()
    assert health["status"] == "ok" and health["database"] == "ok"
    assert health["redis"] in ("ok", "not used")


@pytest.mark.django_db
def test_unknown_api_path_is_json_404(client):
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert "/api/v1/no-such-thing/" in response.json()["detail"]


@pytest.mark.django_db
def test_unknown_page_is_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


@pytest.mark.django_db
def test_method_not_allowed_has_error_shape(api):
    response = api().put("/api/v1/players/", {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"] == "method_not_allowed"


@pytest.mark.django_db
def test_openapi_schema_lists_the_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in (
        "/api/v1/me/",
        "/api/v1/clubs/",
        "/api/v1/clubs/{slug}/join/",
        "/api/v1/clubs/{slug}/requests/{request_id}/approve/",
    ):
        assert path in schema["paths"], path


@pytest.mark.django_db
def test_api_docs_use_only_assets_served_by_the_site(client):
    page = client.get("/api/docs/").content.decode()
    assert "swagger" in page.lower()
    external = [
        url
        for url in re.findall(r"""(?:src|href)=["']([^"']+)""", page)
        if url.startswith(("http:", "https:", "//"))
    ]
    assert external == []


@pytest.mark.django_db
def test_pages_load_no_external_assets(client):
    page = client.get("/").content.decode()
    urls = re.findall(r"""(?:src|href)=["']([^"']+)""", page)
    assert urls and all(not u.startswith(("http:", "https:", "//")) for u in urls)


@pytest.mark.django_db
def test_admin_registers_every_model():
    from django.apps import apps
    from django.contrib import admin

    ours = [
        m
        for m in apps.get_models()
        if m._meta.app_label
        in {"accounts", "clubs", "games", "tournaments", "ratings", "archive", "notifications"}
    ]
    assert ours
    missing = [m.__name__ for m in ours if not admin.site.is_registered(m)]
    assert missing == []


@pytest.mark.django_db
def test_seed_demo_is_idempotent():
    from django.core.management import call_command

    from accounts.models import User
    from clubs.models import Club, Membership

    call_command("seed_demo", verbosity=0)
    counts = (User.objects.count(), Club.objects.count(), Membership.objects.count())
    call_command("seed_demo", verbosity=0)
    assert counts == (User.objects.count(), Club.objects.count(), Membership.objects.count())
    assert counts[0] >= 30 and counts[1] >= 3


@pytest.mark.django_db
def test_openapi_schema_validates_without_warnings():
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", os.devnull)


@pytest.mark.parametrize(
    "path",
    ["/api/v1/clubs/?search=a%00b", "/api/v1/players/?search=%00", "/api/v1/games/?player=%00"],
)
def test_a_nul_in_the_query_string_is_a_400_on_the_api(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert response.json()["error"] == "malformed" and "NUL" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/players/?q=a%00b", "/clubs/?q=%00", "/archive/?player=%00"])
def test_a_nul_in_the_query_string_is_a_400_page(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert b"NUL character" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/players/", "/api/v1/clubs/", "/api/v1/archive/games/"])
def test_pagination_past_what_the_database_takes_is_not_an_error(client, make_player, path):
    make_player("paged")
    huge = 10**22  # beyond the 64-bit LIMIT and OFFSET of PostgreSQL and SQLite
    first = client.get(path, {"limit": huge, "offset": 0})
    assert first.status_code == 200 and len(first.json()["results"]) <= 200
    past = client.get(path, {"limit": 10, "offset": huge})
    assert past.status_code == 200 and past.json()["results"] == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/players/", "/api/v1/games/", "/api/v1/archive/games/"])
@pytest.mark.parametrize(
    "query", [{"offset": "null"}, {"offset": -5}, {"limit": 0}, {"limit": "ten"}, {"limit": "1e3"}]
)
def test_a_page_number_that_is_not_one_is_a_400_naming_it(client, path, query):
    response = client.get(path, query)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "bad_page" and next(iter(query)) in body["detail"]
