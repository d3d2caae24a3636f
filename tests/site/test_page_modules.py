"""The page scripts are native ES modules tied together by base.html's import map
(docs/page-scripts.md, core/templatetags/page_modules.py).

Rendered through the test client, every main page loads its scripts from /static/ as
``type="module"`` (but the JavaScript catalogue, a classic script), and carries one import map:
valid JSON, in <head> before any module, with the nonce the response's Content-Security-Policy
allows, mapping to static files that exist (their hashed names under the manifest storage). And
no page script hangs anything on the window, nor imports a module by any name but the map's.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from clubs.services import club_create, club_join
from core.templatetags.page_modules import import_map, page_scripts
from games.options import GameOptions
from games.services import game_create, game_move_apply
from multiplayer.services import table_create
from tests.archive.support import archived_game
from tournaments import services as tournament_services

SCRIPTS = Path(settings.BASE_DIR) / "static" / "js"


class Scripts(HTMLParser):
    """The page's <script> elements in document order: (attributes, text, inside <head>)."""

    def __init__(self):
        super().__init__()
        self.found: list[dict] = []
        self.in_head = False
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "head":
            self.in_head = True
        elif tag == "script":
            self._open = {"attrs": dict(attrs), "text": "", "in_head": self.in_head}

    def handle_endtag(self, tag):
        if tag == "head":
            self.in_head = False
        elif tag == "script" and self._open is not None:
            self.found.append(self._open)
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def scripts_of(html: str) -> list[dict]:
    parser = Scripts()
    parser.feed(html)
    return parser.found


def script_nonces(response) -> set[str]:
    """The nonces the response's policy allows in script-src."""
    policy = response["Content-Security-Policy"]
    script_src = next(p.split()[1:] for p in policy.split(";") if p.split()[:1] == ["script-src"])
    return {s[len("'nonce-") : -1] for s in script_src if s.startswith("'nonce-")}


def check_page(response) -> dict:
    """The checks every page drawn on base.html passes; returns its import map."""
    assert response.status_code == 200
    found = scripts_of(response.content.decode())
    maps = [s for s in found if s["attrs"].get("type") == "importmap"]
    assert len(maps) == 1, "one import map"
    (the_map,) = maps
    assert the_map["in_head"]
    modules = [s for s in found if s["attrs"].get("type") == "module"]
    assert found.index(the_map) < min(found.index(m) for m in modules), "the map comes first"
    assert the_map["attrs"].get("nonce") and script_nonces(response) == {the_map["attrs"]["nonce"]}
    imports = json.loads(the_map["text"])["imports"]

    catalogue = reverse("javascript-catalog")
    for script in found:
        attrs = script["attrs"]
        src = attrs.get("src")
        if src is None:  # inline: only the map and data (json_script), never code
            assert attrs.get("type") in {"importmap", "application/json"}, attrs
        elif src.startswith(settings.STATIC_URL):
            assert attrs.get("type") == "module", src
            # the URL the map gives the same module: loaded once, whoever imports it
            assert src in imports.values(), src
        else:
            assert src.startswith(catalogue) and attrs.get("type") is None, src
    return imports


def options() -> GameOptions:
    return GameOptions(
        base_seconds=600, increment_seconds=5, marbles_to_win=6, start="belgian", rated=True
    )


@pytest.fixture
def pages(db, make_player):
    """The paths of the main pages, with something on each."""
    now = timezone.now()
    ada, bo = make_player("ada"), make_player("bo")
    live = game_create(black=ada, white=bo, options=options(), now=now)
    game_move_apply(game_id=live.pk, player=ada, move="a1b2", expected_ply=0, now=now)
    finished = archived_game(bo, ada)
    table = table_create(creator=bo, players=3, base_seconds=600, now=now)
    club = club_create(owner=ada, name="Module Club")
    club_join(user=bo, club=club)
    tournament = tournament_services.tournament_create(
        club=club, actor=ada, name="Module Swiss", play_mode="otb", rounds=1
    )
    for player in (ada, bo):
        tournament_services.tournament_register(tournament=tournament, user=player, now=now)
    tournament_services.tournament_start(tournament=tournament, actor=ada, now=now)
    slug = tournament.slug
    return ada, [
        "/",
        "/play/",
        "/tables/",
        f"/tables/{table.pk}/",
        f"/games/{live.pk}/",
        "/analysis/",
        f"/archive/games/{finished.pk}/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/standings/",
        f"/tournaments/new/{club.slug}/",
        "/notifications/",
        "/rules/",
        "/clubs/",
    ]


def test_every_page_loads_its_scripts_as_modules_through_one_import_map(client, pages):
    viewer, paths = pages
    client.force_login(viewer)
    seen = set()
    for path in paths:
        response = client.get(path)
        imports = check_page(response)
        for url in imports.values():
            assert finders.find(url.removeprefix(settings.STATIC_URL)), url
        seen.update(
            s["attrs"]["src"]
            for s in scripts_of(response.content.decode())
            if s["attrs"].get("type") == "module"
        )
    client.logout()
    check_page(client.get("/"))
    check_page(client.get("/accounts/login/"))
    # the live pages' own scripts were among those loaded
    for name in ("game/main.js", "table/main.js", "analysis/board.js", "home.js", "notify.js"):
        assert f"{settings.STATIC_URL}js/{name}" in seen, name


def test_two_responses_carry_two_nonces(client, db):
    first, second = client.get("/"), client.get("/")
    assert script_nonces(first) != script_nonces(second)


def test_under_the_manifest_storage_the_map_names_the_hashed_files(client, db, tmp_path):
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
        imports = check_page(client.get("/rules/"))
        assert len(imports) == len(page_scripts())
        for specifier, url in imports.items():
            name = specifier.removeprefix("sumito/").removesuffix(".js")
            assert re.fullmatch(rf"{settings.STATIC_URL}js/{name}\.[0-9a-f]{{12}}\.js", url), url
            assert (tmp_path / url.removeprefix(settings.STATIC_URL)).is_file(), url
    # the settings restored, the map is the plain one again
    assert import_map()["imports"]["sumito/api.js"] == f"{settings.STATIC_URL}js/api.js"


# --- the sources ------------------------------------------------------------------------------

# An assignment to a property of the global object: window.SumitoApi = ..., globalThis.x = ...
GLOBAL_ASSIGNMENT = re.compile(
    r"\b(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]+\])\s*=(?!=)"
)
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)""", re.M
)


def sources() -> list[Path]:
    return sorted(SCRIPTS.rglob("*.js"))


def without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", "", text, flags=re.S)


def test_no_page_script_assigns_to_the_global_object():
    assert sources()
    offenders = [
        f"{path.relative_to(SCRIPTS)}: {match.group(0)}"
        for path in sources()
        for match in GLOBAL_ASSIGNMENT.finditer(without_comments(path.read_text()))
    ]
    assert offenders == []


def test_the_check_catches_a_global():
    assert GLOBAL_ASSIGNMENT.search("window.SumitoApi = { call };")
    assert GLOBAL_ASSIGNMENT.search("globalThis['x'] = 1")
    assert not GLOBAL_ASSIGNMENT.search("if (window.location.hash === '#x') go();")
    assert not GLOBAL_ASSIGNMENT.search("window.localStorage.setItem(key, '1');")


def test_modules_import_each_other_only_through_the_map():
    specifiers = set(import_map()["imports"])
    for path in sources():
        for match in IMPORT.finditer(without_comments(path.read_text())):
            name = match.group(1) or match.group(2)
            assert name in specifiers, f"{path.relative_to(SCRIPTS)} imports {name}"
