"""The site in its seven languages (docs/languages.md).

The catalogues are complete and up to date with the templates; a request speaks the language
of the account, else of the ``django_language`` cookie, else of Accept-Language, else English;
the main pages leave no sentence of our templates in English; API errors speak it too.
"""

from __future__ import annotations

import ast
import gettext
import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation.template import templatize

from accounts.models import User
from clubs import services as club_services
from games.services import challenge_accept, challenge_create_from_choices
from notifications.services import notification_create
from tournaments import services as tournament_services

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
DOMAINS = ("django", "djangojs")


# --- the catalogues ---------------------------------------------------------------------------


def _po_string(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr forms and flags (a small
    reader: the suite needs no gettext library)."""
    entries, entry, field = [], None, None

    def finish():
        if entry is not None and "msgid" in entry:
            entries.append(
                {
                    "msgctxt": _po_string(entry.get("msgctxt", [])) or None,
                    "msgid": _po_string(entry["msgid"]),
                    "msgid_plural": _po_string(entry.get("msgid_plural", [])) or None,
                    "msgstr": [
                        _po_string(lines)
                        for name, lines in sorted(entry.items())
                        if name.startswith("msgstr")
                    ],
                    "flags": entry.get("flags", set()),
                    "obsolete": entry.get("obsolete", False),
                }
            )

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            finish()
            entry, field = None, None
            continue
        if entry is None:
            entry = {}
        if line.startswith("#~"):
            entry["obsolete"] = True
            continue
        if line.startswith("#,"):
            entry.setdefault("flags", set()).update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if match:
            field = match.group(1)
            entry[field] = [match.group(2)]
        elif line.startswith('"') and field:
            entry[field].append(line)
    return entries


def catalogue(language: str, domain: str) -> list[dict]:
    path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run makemessages (docs/languages.md)"
    return [e for e in po_entries(path) if e["msgid"] and not e["obsolete"]]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_and_none_is_fuzzy(language, domain):
    untranslated = [
        e["msgid"]
        for e in catalogue(language, domain)
        if not e["msgstr"] or not all(form.strip() for form in e["msgstr"])
    ]
    fuzzy = [e["msgid"] for e in catalogue(language, domain) if "fuzzy" in e["flags"]]
    assert not untranslated, f"{language}/{domain}: {len(untranslated)} untranslated"
    assert not fuzzy, f"{language}/{domain}: fuzzy entries {fuzzy[:5]}"


_CALL = re.compile(r"\b(n?p?gettext)\(")


def template_messages() -> set[tuple[str | None, str]]:
    """(context, msgid) of every string the templates mark for translation, as makemessages
    reads them (Django's own ``templatize``)."""
    found = set()
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
        for match in _CALL.finditer(text):
            depth, end = 0, match.end() - 1
            for end in range(match.end() - 1, len(text)):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            call = ast.parse(text[match.start() : end + 1], mode="eval").body
            strings = [a.value for a in call.args if isinstance(a, ast.Constant)]
            name = match.group(1)
            if name.startswith("np") or name.startswith("p"):
                context, messages = strings[0], strings[1:]
            else:
                context, messages = None, strings
            found.update((context, message) for message in messages[:2])
    return found


def test_the_catalogues_are_up_to_date_with_the_templates():
    wanted = template_messages()
    assert len(wanted) > 300, "the templates should mark their text for translation"
    for language in LANGUAGES:
        have = set()
        for e in catalogue(language, "django"):
            have.add((e["msgctxt"], e["msgid"]))
            if e["msgid_plural"]:
                have.add((e["msgctxt"], e["msgid_plural"]))
        missing = sorted(wanted - have, key=str)
        assert not missing, (
            f"{language}: {len(missing)} template strings are not in the catalogue, e.g. "
            f"{missing[:3]}: run makemessages and translate them (docs/languages.md)"
        )


def test_the_compiled_catalogues_match_the_translations():
    """The .mo files the site reads hold what the .po files say (compilemessages was run)."""
    for language in LANGUAGES:
        for domain in DOMAINS:
            mo = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
            assert mo.exists(), f"{mo} is missing: run compilemessages (docs/languages.md)"
            with mo.open("rb") as handle:
                compiled = gettext.GNUTranslations(handle)._catalog
            for e in catalogue(language, domain):
                key = f"{e['msgctxt']}\x04{e['msgid']}" if e["msgctxt"] else e["msgid"]
                if e["msgid_plural"]:
                    assert compiled.get((key, 0)) == e["msgstr"][0], (language, domain, key)
                else:
                    assert compiled.get(key) == e["msgstr"][0], (language, domain, key)


# --- choosing the language --------------------------------------------------------------------


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_answers_in_the_accept_language(client, language):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert response.status_code == 200
    assert html_lang(response) == language
    assert response["Content-Language"] == language
    with translation.override(language):
        tagline = translation.gettext("Abalone clubs, tournaments and rated play")
        play = translation.gettext("Play Abalone. Run your club.")
    text = html.unescape(response.content.decode())
    assert tagline in text and play in text
    assert "Play Abalone. Run your club." not in text


@pytest.mark.django_db
def test_without_accept_language_the_site_speaks_english(client):
    response = client.get("/")
    assert html_lang(response) == "en"
    assert "Play Abalone. Run your club." in response.content.decode()


@pytest.mark.django_db
def test_the_switcher_sets_the_cookie(client):
    response = client.post("/i18n/setlang/", {"language": "hu", "next": "/clubs/"})
    assert response.status_code == 302 and response["Location"] == "/clubs/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hu"
    # the cookie wins over Accept-Language
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "hu"


@pytest.mark.django_db
def test_the_switcher_keeps_the_choice_on_the_account(client, make_player):
    player = make_player()
    client.force_login(player)
    client.post("/i18n/setlang/", {"language": "uk", "next": "/"})
    player.refresh_from_db()
    assert player.language == "uk"
    # a language the site does not speak changes nothing
    client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    player.refresh_from_db()
    assert player.language == "uk"


@pytest.mark.django_db
def test_the_account_language_wins_over_cookie_and_accept_language(client, make_player):
    player = make_player(language="fr")
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="nl")
    assert html_lang(response) == "fr"
    with translation.override("fr"):
        assert translation.gettext("Your games") in html.unescape(response.content.decode())
    # logged out, the cookie speaks again
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="nl")) == "de"


@pytest.mark.django_db
def test_the_profile_sets_and_clears_the_language(client, make_player):
    player = make_player()
    client.force_login(player)
    form = {"display_name": "", "country": "", "bio": "", "language": "es"}
    assert client.post("/accounts/profile/", form).status_code == 302
    player.refresh_from_db()
    assert player.language == "es"
    assert html_lang(client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="de")) == "es"
    client.post("/accounts/profile/", form | {"language": ""})
    player.refresh_from_db()
    assert player.language == ""
    assert html_lang(client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="de")) == "de"


# --- the API ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_api_error_detail_speaks_german_and_its_code_stays_english(client):
    response = client.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "not_found"
    with translation.override("de"):
        expected = translation.gettext("There is no game %(game_id)s.") % {"game_id": 999999}
    assert body["detail"] == expected
    assert expected != "There is no game 999999."


@pytest.mark.django_db
def test_an_api_error_of_a_token_user_speaks_the_account_language(api, make_player):
    from accounts.services import api_token_create

    player = make_player(language="hu")
    _token, key = api_token_create(user=player, name="bot")
    client = api()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/games/999999/")
    with translation.override("hu"):
        expected = translation.gettext("There is no game %(game_id)s.") % {"game_id": 999999}
    assert response.json()["detail"] == expected


@pytest.mark.django_db
def test_the_javascript_catalogue_is_served_as_a_script(client):
    response = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    with translation.override("de"):
        expected = translation.gettext("Your turn")
    assert expected in response.content.decode()


# --- the main pages, walked in every language --------------------------------------------------


@pytest.fixture
def site(db, make_player):
    """A little of everything the main pages show: a club, a Swiss with a played round, a game
    in progress, a notification."""
    now = timezone.now()
    owner = make_player("ilona")
    players = [make_player(name) for name in ("bruno", "chiara", "dmytro", "eva")]
    club = club_services.club_create(owner=owner, name="Hexagon Club")
    for player in players:
        club_services.club_join(user=player, club=club)
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Autumn Swiss", format="swiss", rounds=3, play_mode="otb"
    )
    for player in players:
        tournament_services.tournament_register(tournament=tournament, user=player, now=now)
    round_ = tournament_services.tournament_start(tournament=tournament, actor=owner, now=now)
    round_ = tournament_services.round_start(
        tournament_id=tournament.pk, number=round_.number, actor=owner, now=now
    )
    for board in round_.boards.filter(white__isnull=False):
        tournament_services.board_result_set(board=board, actor=owner, result="1-0", now=now)
    challenge = challenge_create_from_choices(
        challenger=owner,
        choices={"opponent": "bruno", "preset": "rapid-10+0", "colour": "black"},
        now=now,
    )
    game = challenge_accept(challenge_id=challenge.pk, user=players[0], now=now)
    notification_create(
        user=owner,
        kind="club_join_decided",
        key="walk",
        data={"club": club.name, "approved": True},
        now=now - timedelta(minutes=1),
    )
    return {"owner": owner, "club": club, "tournament": tournament, "game": game}


def visible_text(response) -> str:
    page = response.content.decode()
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S)
    # Text the pages mark as English (the pairing engine's notes, which stay English).
    page = re.sub(r'<(\w+)\b[^>]*\blang="en"[^>]*>.*?</\1>', " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def english_sentences() -> list[tuple[str | None, str]]:
    """The template messages of two words or more that hold no placeholder or markup: any of
    them left in English on a page is a string nobody translated."""
    return sorted(
        (context, message)
        for context, message in template_messages()
        if len(message.split()) >= 2 and "%(" not in message and "<" not in message
    )


def untranslated_on(text: str, language: str, sentences) -> list[str]:
    left = []
    with translation.override(language):
        for context, message in sentences:
            translated = (
                translation.pgettext(context, message) if context else translation.gettext(message)
            )
            if translated != message and re.search(rf"(?<!\w){re.escape(message)}(?!\w)", text):
                left.append(message)
    return left


@pytest.mark.django_db
def test_the_main_pages_leave_no_english_in_any_language(client, site):
    tournament, club, game = site["tournament"], site["club"], site["game"]
    public = ["/accounts/login/", "/accounts/signup/"]
    member = [
        "/",
        "/play/",
        "/tables/",
        "/archive/",
        f"/games/{game.pk}/",
        "/clubs/",
        f"/clubs/{club.slug}/",
        "/tournaments/",
        f"/tournaments/{tournament.slug}/",
        f"/tournaments/{tournament.slug}/standings/",
        f"/tournaments/{tournament.slug}/rounds/1/",
        "/players/ilona/",
        "/notifications/",
        "/ratings/",
        "/rules/",
    ]
    sentences = english_sentences()
    found = {}
    for language in LANGUAGES:
        client.logout()
        pages = [(path, client.get(path, HTTP_ACCEPT_LANGUAGE=language)) for path in public]
        client.force_login(site["owner"])
        pages += [(path, client.get(path, HTTP_ACCEPT_LANGUAGE=language)) for path in member]
        for path, response in pages:
            assert response.status_code == 200, (language, path, response.status_code)
            assert html_lang(response) == language, (language, path)
            left = untranslated_on(visible_text(response), language, sentences)
            if left:
                found[(language, path)] = left
    assert not found, f"English left on the pages: {found}"


@pytest.mark.django_db
def test_a_notification_is_read_in_the_reader_language(client, site):
    client.force_login(site["owner"])
    response = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="nl")
    with translation.override("nl"):
        expected = translation.gettext("Your request to join %(club)s was accepted.") % {
            "club": "Hexagon Club"
        }
    assert expected in html.unescape(response.content.decode())


def test_every_language_has_a_name_of_its_own():
    names = dict(settings.LANGUAGES)
    assert list(names) == ["en", "de", "fr", "nl", "es", "uk", "hu"]
    assert names["de"] == "Deutsch" and names["uk"] == "Українська" and names["hu"] == "Magyar"
    assert User._meta.get_field("language").blank
