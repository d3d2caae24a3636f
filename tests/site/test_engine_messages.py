"""The rules engine's messages in the reader's language: its errors are English templates
(games.engine.errors) that the site's catalogues translate; the API, the records' import, the
game socket and the 413 answer give them in the client's language."""

from __future__ import annotations

import ast
import asyncio
import html
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from core.errors import engine_text
from core.messages import Term, Text
from games import engine
from games.engine.errors import EngineError, IllegalMove
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.site.test_i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
#: The pure engines whose errors are templates: the rules and the pairing (with its TRF files).
ENGINES = (ROOT / "games" / "engine", ROOT / "tournaments" / "pairing")
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def marked_templates() -> set[str]:
    """Every literal the engine marks with ``gettext_noop``, read from its source."""
    found = set()
    for path in (path for folder in ENGINES for path in folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_the_engine_marks_its_messages():
    templates = marked_templates()
    assert len(templates) > 60
    assert "%(size)s against %(pushed)s is a pac, no push" in templates
    assert "a 240 record is: kind, round, players" in templates  # the TRF reader's


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_message_is_in_the_catalogue_translated(language):
    entries = {e["msgid"]: e for e in catalogue(language, "django")}
    missing = sorted(marked_templates() - set(entries))
    assert missing == [], f"run makemessages: {missing[:5]}"
    untranslated = [t for t in marked_templates() if not entries[t]["msgstr"][0]]
    assert untranslated == []


def test_a_message_renders_its_template_terms_subject_and_inner_error_through_translate():
    words = {
        "%(size)s against %(pushed)s is a pac, no push": "%(size)s gegen %(pushed)s ist ein Patt",
        "ply %(ply)s": "Halbzug %(ply)s",
        "White": "Weiß",
        "%(colour)s has %(count)s marbles": "%(colour)s hat %(count)s Kugeln",
    }
    translate = lambda text: words.get(text, text)  # noqa: E731
    inner = IllegalMove(
        "%(size)s against %(pushed)s is a pac, no push", "pac", subject="c3c5", size=2, pushed=2
    )
    assert str(inner) == "c3c5: 2 against 2 is a pac, no push"  # the English, unchanged
    assert inner.render(translate) == "c3c5: 2 gegen 2 ist ein Patt"
    outer = EngineError(
        "%(error)s", "illegal", subject=Text("ply %(ply)s", ply=7), joined=" ", error=inner
    )
    assert str(outer) == "ply 7 c3c5: 2 against 2 is a pac, no push"
    assert outer.render(translate) == "Halbzug 7 c3c5: 2 gegen 2 ist ein Patt"
    counted = EngineError("%(colour)s has %(count)s marbles", colour=Term("White"), count=15)
    assert counted.render(translate) == "Weiß hat 15 Kugeln"


def test_a_broken_translation_falls_back_to_the_english():
    error = EngineError("%(cell)s is not a cell", "not_a_cell", cell="j1")
    assert error.render(lambda text: "%(zelle)s ist kein Feld") == "j1 is not a cell"


@pytest.mark.parametrize(
    "text, code",
    [
        ("a1a1", "not_adjacent"),
        ("e5e6", "no_marble"),
        ("zz99", "syntax"),
        ("a1", "syntax"),
        ("a5b6", "opponent_marble"),
    ],
)
def test_an_illegal_move_reads_in_every_language(text, code):
    position = engine.start_position("belgian")
    with pytest.raises(engine.IllegalMove) as raised:
        engine.parse_move(position, text)
    assert raised.value.code == code
    english = str(raised.value)
    for language in LANGUAGES:
        with translation.override(language):
            shown = engine_text(raised.value)
            assert shown != english, (language, shown)
            assert shown.startswith(english.split(":")[0] + ":")  # the move as given, first
            assert gettext(raised.value.template) != raised.value.template


@pytest.mark.django_db
def test_the_api_refuses_an_illegal_move_in_the_clients_language(api, make_player):
    from django.utils import timezone

    from games import services
    from games.options import GameOptions

    ann, bob = make_player("ann"), make_player("bob")
    game = services.game_create(
        black=ann, white=bob, options=GameOptions(600, 0, 6, "standard", False), now=timezone.now()
    )
    url = f"/api/v1/games/{game.pk}/moves/"
    english = api(ann).post(url, {"move": "e5e6", "ply": 0}, format="json")
    german = api(ann).post(
        url, {"move": "e5e6", "ply": 0}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert english.status_code == german.status_code == 422
    assert english.json()["error"] == german.json()["error"] == "illegal_move"
    assert english.json()["detail"] == "e5e6: e5 holds no marble"
    with translation.override("de"):
        expected = "e5e6: " + gettext("%(cell)s holds no marble") % {"cell": "e5"}
    assert german.json()["detail"] == expected != english.json()["detail"]
    game.refresh_from_db()
    assert game.ply == 0


@pytest.mark.django_db
def test_a_record_import_names_the_ply_in_the_clients_language(api, make_player):
    ann = make_player("ann")
    answer = api(ann).post(
        "/api/v1/archive/import/",
        {"record": "1. a1b2 i5h5 2. a1a1", "start": "standard"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    with translation.override("fr"):
        ply = gettext("ply %(ply)s (move %(number)s, %(colour)s)") % {
            "ply": 3,
            "number": 2,
            "colour": gettext("Black"),
        }
    assert ply in detail and "ply 3" not in detail, detail


def test_the_413_answer_is_in_the_clients_language():
    from core.wsgi_over_asgi import WsgiOverAsgi

    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    def never(environ, start_response):
        raise AssertionError("not for a body over the limit")

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/clubs/",
        "query_string": b"",
        "headers": [(b"content-length", b"5000"), (b"cookie", b"django_language=uk")],
        "http_version": "1.1",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("10.1.2.3", 5555),
    }
    asyncio.run(WsgiOverAsgi(never, threads=1, max_body=1000)(scope, receive, send))
    detail = json.loads(sent[1]["body"])["detail"]
    msgid = "The request body is %(size)s bytes; at most %(limit)s bytes are accepted."
    with translation.override("uk"):
        translated = gettext(msgid)
    assert translated != msgid and detail.startswith(translated.split("%")[0])
    assert "5" in detail and "1" in detail and "request body" not in detail


@pytest.mark.django_db(transaction=True)
def test_the_game_socket_refuses_in_the_players_language(make_player, asgi_live_server):  # noqa: F811
    from django.utils import timezone
    from websockets.asyncio.client import connect

    from accounts.services import user_language_set
    from games import services
    from games.options import GameOptions
    from tests.support import session_cookie

    ann, bob = make_player("ann"), make_player("bob")
    user_language_set(user=ann, language="hu")  # the account's choice beats the header
    game = services.game_create(
        black=ann, white=bob, options=GameOptions(600, 0, 6, "standard", False), now=timezone.now()
    )
    base = asgi_live_server.replace("http://", "ws://")
    headers = {"Cookie": session_cookie(ann), "Accept-Language": "de"}

    async def run():
        async with connect(
            f"{base}/ws/games/{game.pk}/", origin=asgi_live_server, additional_headers=headers
        ) as socket:
            answers = []
            for message in (
                {"type": "move", "move": "e5e6", "ply": 0},
                {"type": "move", "move": "e5e6"},
            ):
                await socket.send(json.dumps(message))
                while True:
                    answer = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if answer["type"] == "error":
                        answers.append(answer)
                        break
            return answers

    illegal, malformed = asyncio.run(run())
    with translation.override("hu"):
        expected = "e5e6: " + gettext("%(cell)s holds no marble") % {"cell": "e5"}
        needs = gettext("A move needs 'move' (text) and 'ply' (a number).")
    assert (illegal["error"], illegal["detail"]) == ("illegal_move", expected)
    assert (malformed["error"], malformed["detail"]) == ("malformed", needs)
    assert needs != "A move needs 'move' (text) and 'ply' (a number)."


@pytest.mark.django_db
def test_a_trf_file_that_cannot_be_read_is_refused_in_the_directors_language(client, make_player):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from clubs import services as club_services
    from tournaments.models import Tournament

    owner = make_player("owner")
    club = club_services.club_create(owner=owner, name="Leuven")
    client.force_login(owner)
    url = reverse("tournament-import", args=[club.slug])
    text = "012 Broken\n001    1      Alpha, Ann                        1800\n240 H\n"
    upload = SimpleUploadedFile("event.trf", text.encode(), content_type="text/plain")
    page = client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE="nl")
    assert page.status_code == 422
    with translation.override("nl"):
        expected = gettext("a 240 record is: kind, round, players")
        line = gettext("line %(line)s") % {"line": 3}
    assert expected != "a 240 record is: kind, round, players"
    assert f"{line}: {expected}" in html.unescape(page.content.decode())
    assert not Tournament.objects.exists()
