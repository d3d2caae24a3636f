"""Every main page in every language, as a browser shows it (issue 23): after the page's scripts
have run, its text holds no sentence of our catalogues left in English (templates, Python and
scripts alike: forms, choices, flash messages, what the scripts write), and the browser logs no
console error. The server-side walk (tests/site/test_i18n.py) reads only what the templates
print; this one reads what the reader sees.

A message counts when it has two words or more; one with placeholders is looked for by its
longest literal part (three words or more), which the translation does not keep. Usernames,
the pairing engine's notes (marked ``lang="en"``) and the audit trail stay as written.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from games.computer import computer_user
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.browser.site_pages import build_site, log_in_as_viewer, visit
from tests.site.test_i18n import catalogue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")

# The text a reader sees, leaving out what is marked as English on purpose.
VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('[lang="en"], script, style, template, noscript').forEach((e) => e.remove());
  return copy.innerText.replace(/\\s+/g, " ");
}"""


def literal_probe(message: str) -> str | None:
    """What to look for of ``message``: itself when it has no placeholder, else its longest
    literal part, if that has three words; None when there is nothing telling to look for."""
    if not PLACEHOLDER.search(message):
        return message if len(message.split()) >= 2 and "<" not in message else None
    parts = sorted((p.strip(" .,:;!?·()") for p in PLACEHOLDER.split(message)), key=len)
    longest = parts[-1] if parts else ""
    return longest if len(longest.split()) >= 3 and "<" not in longest else None


def probes(language: str) -> list[tuple[str, str]]:
    """(English, translated) of every message worth looking for, in both catalogues."""
    found = {}
    for domain in ("django", "djangojs"):
        for entry in catalogue(language, domain):
            for english, translated in zip(
                [entry["msgid"], entry["msgid_plural"] or entry["msgid"]],
                [entry["msgstr"][0], entry["msgstr"][-1]],
                strict=True,
            ):
                probe = literal_probe(english)
                if probe and probe not in translated and english != translated:
                    found[probe] = translated
    return sorted(found.items())


def english_left(text: str, language_probes) -> list[str]:
    """The probes found in English in ``text``, once the language's own translations are taken
    out of it (Dutch says "Log in" too: inside "Log in om mee te doen" it is Dutch)."""
    for translated in sorted({t for _e, t in language_probes if len(t) > 3}, key=len, reverse=True):
        text = text.replace(translated, " ")
    return [
        english
        for english, _translated in language_probes
        if re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text)
    ]


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def test_every_main_page_in_every_language_leaves_no_english_and_no_console_error(
    open_page, make_player
):
    site = build_site(make_player)
    outside_the_event_loop(computer_user, level=3)  # the computer page names its levels
    paths = [
        *site.paths,
        "/play/computer/",
        "/analysis/",
        f"/analysis/?game={site.finished_game}&ply=1&moves=",  # a game on the board
        "/archive/imported/",
        "/notifications/settings/",
    ]
    found: dict[str, list[str]] = {}
    errors: list[str] = []
    for language in LANGUAGES:
        language_probes = probes(language)
        visitor, viewer = open_page(), open_page()
        for page in (visitor, viewer):
            page.on(
                "console",
                lambda message, language=language: (
                    errors.append(f"{language} {message.location.get('url')}: {message.text}")
                    if message.type == "error"
                    else None
                ),
            )
            visit(page, "/")  # the site's address, for its cookie
            page.context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": page.url}]
            )
        log_in_as_viewer(viewer)
        pages = [(visitor, path) for path in (*site.anonymous, "/", "/rules/")]
        pages += [(viewer, path) for path in paths]
        for page, path in pages:
            visit(page, path)
            assert page.evaluate("document.documentElement.lang") == language, (language, path)
            page.wait_for_timeout(300)  # what the scripts write after the first paint
            left = english_left(page.evaluate(VISIBLE_TEXT), language_probes)
            if left:
                found[f"{language} {path}"] = left
    assert found == {}, f"English left on the pages: {found}"
    assert errors == []
    assert open_page.problems == []


def test_the_probe_finds_english_and_passes_translations():
    """The check itself: a sentence left in English is found, its translation is not, and a
    message with placeholders is looked for by its literal part."""
    assert literal_probe("Mark all read") == "Mark all read"
    assert literal_probe("Round %(number)s is paired.") is None  # too little literal text
    assert literal_probe("%(name)s asks to join the club today") == "asks to join the club today"
    probes_ = [("Mark all read", "Alles als gelesen markieren"), ("Log in", "Inloggen")]
    assert english_left("Notifications Mark all read", probes_) == ["Mark all read"]
    assert english_left("Benachrichtigungen Alles als gelesen markieren", probes_) == []
    dutch = [("Log in", "Inloggen"), ("Log in to join", "Log in om mee te doen")]
    assert english_left("Log in om mee te doen", dutch) == []  # Dutch, not English
    assert english_left("Inloggen · Log in", dutch) == ["Log in"]
