"""The rules page: the rules of Abalone in each of the site's seven languages, chosen by the
address, the cookie or Accept-Language, with every diagram a position the engine accepts and a
move (or a refused move) the engine agrees with (games/rules_page.py, docs/rules-page.md)."""

from html.parser import HTMLParser

import pytest

from games import engine
from games.engine.multi import MultiPosition
from games.options import custom_start
from games.rules_page import DIAGRAMS, RULES_LANGUAGES

pytestmark = pytest.mark.django_db

# Terms of each language's rule books (../shared/rulebooks/) that its page must use, lower case.
RULE_BOOK_TERMS = {
    "en": ["marble", "sumito", "pac", "in-line", "broadside", "pushed off"],
    "de": ["kugel", "sumito", "patt", "hinausgeschoben", "spielbrett", "bewegung zur seite"],
    "fr": ["bille", "sumito", "pac", "éjecte", "plateau", "déplacement en ligne"],
    "nl": ["knikker", "sumito", "pac", "vakje", "van het bord", "tijdslimiet"],
    "es": ["bola", "sumito", "pac", "expulsa", "tablero", "superioridad numérica"],
    "uk": ["кульк", "суміто", "чарунк", "витісн", "ігрове поле", "кількісну перевагу"],
    "hu": ["golyó", "sumito", "pac", "kilök", "egyvonalú tolás", "oldaltolás"],
}
# Words that only the English page may hold: a body left in English would show them.
ENGLISH_ONLY = ["marble", "the board", "pushed off", "opponent"]


class RulesPage(HTMLParser):
    """What a test needs of the page: the article's language, its text, the diagrams' data."""

    def __init__(self, html: str):
        super().__init__()
        self.language = None
        self.boards: list[dict[str, str]] = []
        self.text_parts: list[str] = []
        self._in_article = 0
        self._skip = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "article" and "rules" in (attributes.get("class") or "").split():
            self.language = attributes.get("lang")
            self._in_article = 1
        elif self._in_article and tag == "article":
            self._in_article += 1
        if tag in ("noscript", "script", "style"):
            self._skip += 1
        if "rules-board" in (attributes.get("class") or "").split():
            self.boards.append({k: v for k, v in attributes.items() if k.startswith("data-")})

    def handle_endtag(self, tag):
        if tag == "article" and self._in_article:
            self._in_article -= 1
        if tag in ("noscript", "script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if self._in_article and not self._skip:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split()).lower()


def rules_page(client, url: str, **headers) -> RulesPage:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return RulesPage(response.content.decode())


def assert_in_language(page: RulesPage, language: str) -> None:
    assert page.language == language
    for term in RULE_BOOK_TERMS[language]:
        assert term in page.text, f"{language}: {term!r} missing"
    if language != "en":
        for word in ENGLISH_ONLY:
            assert word not in page.text, (
                f"{language}: English {word!r} on the page (a string of templates/rules/rules.html "
                f"without a translation in locale/{language}/LC_MESSAGES/django.po?)"
            )
    assert sorted(board["data-diagram"] for board in page.boards) == sorted(DIAGRAMS)


@pytest.mark.parametrize("language", sorted(RULES_LANGUAGES))
def test_the_rules_answer_in_the_language_of_accept_language(client, language):
    page = rules_page(client, "/rules/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert_in_language(page, language)


@pytest.mark.parametrize("language", sorted(RULES_LANGUAGES))
def test_the_address_chooses_the_language_over_the_visitors(client, language):
    other = "hu" if language != "hu" else "de"
    assert_in_language(
        rules_page(client, f"/rules/?lang={language}", HTTP_ACCEPT_LANGUAGE=other), language
    )
    assert_in_language(
        rules_page(client, f"/rules/{language}/", HTTP_ACCEPT_LANGUAGE=other), language
    )


def test_the_language_cookie_chooses_the_rules_and_english_is_the_fallback(client):
    assert_in_language(rules_page(client, "/rules/"), "en")
    assert_in_language(rules_page(client, "/rules/", HTTP_ACCEPT_LANGUAGE="ja, pt-BR"), "en")
    assert_in_language(rules_page(client, "/rules/?lang=xx", HTTP_ACCEPT_LANGUAGE="fr"), "fr")
    assert_in_language(rules_page(client, "/rules/", HTTP_ACCEPT_LANGUAGE="de-AT"), "de")
    client.cookies["django_language"] = "nl"
    assert_in_language(rules_page(client, "/rules/", HTTP_ACCEPT_LANGUAGE="es"), "nl")


def test_a_language_without_rules_is_not_found(client):
    assert client.get("/rules/xx/").status_code == 404
    assert client.get("/rules/english/").status_code == 404


def test_every_page_links_the_rules_in_every_language(client):
    html = client.get("/rules/uk/").content.decode()
    for code in RULES_LANGUAGES:
        assert f'href="/rules/{code}/"' in html
    assert 'href="/rules/uk/" lang="uk" hreflang="uk" aria-current="page"' in html


def test_the_site_navigation_links_the_rules(client):
    assert 'href="/rules/"' in client.get("/").content.decode()


# --- the diagrams ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(DIAGRAMS))
def test_every_diagram_is_a_position_a_game_could_start_from(key):
    """Two players: the site's own check of a custom start (parses, no side has lost the six
    marbles that end a game, the side to move can move). Three and four players: the
    multi-player engine parses it and the player to move can move."""
    diagram = DIAGRAMS[key]
    if diagram.players == 2:
        position = custom_start(diagram.position, marbles_to_win=6)
        assert position.to_string() == diagram.position
    else:
        position = MultiPosition.from_string(diagram.position)
        assert position.legal_moves()
        assert position.to_string() == diagram.position


def test_the_start_diagrams_are_the_engines_starts():
    for name in ("standard", "belgian", "german"):
        assert DIAGRAMS[name].position == engine.start_position(name).to_string()
    assert MultiPosition.from_string(DIAGRAMS["three"].position).players == 3
    assert MultiPosition.from_string(DIAGRAMS["four"].position).players == 4


@pytest.mark.parametrize(
    ("key", "kind", "movers", "pushed", "off"),
    [
        ("inline", engine.INLINE, 3, 0, False),
        ("broadside", engine.BROADSIDE, 3, 0, False),
        ("sumito_2v1", engine.INLINE, 2, 1, False),
        ("sumito_3v1", engine.INLINE, 3, 1, False),
        ("sumito_3v2", engine.INLINE, 3, 2, False),
        ("push_off", engine.INLINE, 2, 1, True),
    ],
)
def test_each_move_diagram_shows_the_move_its_caption_names(key, kind, movers, pushed, off):
    diagram = DIAGRAMS[key]
    before = engine.Position.from_string(diagram.position)
    move = engine.parse_move(before, diagram.move)
    assert move in engine.legal_moves(before)
    assert (move.kind, move.group_size, len(move.pushed)) == (kind, movers, pushed)
    assert (move.pushed_off is not None) == off
    after, outcome = engine.apply_move(before, move)
    assert diagram.after == after.to_string()
    assert diagram.group == move.marbles and diagram.pushed == move.pushed
    lost = after.pushed_off(engine.WHITE) - before.pushed_off(engine.WHITE)
    assert lost == (1 if off else 0) and outcome.is_push_off == off


@pytest.mark.parametrize(("key", "reason"), [("pac", "pac"), ("blocked", "blocked")])
def test_each_refused_push_is_one_the_engine_refuses(key, reason):
    diagram = DIAGRAMS[key]
    before = engine.Position.from_string(diagram.position)
    with pytest.raises(engine.IllegalMove) as refused:
        engine.parse_move(before, diagram.refused)
    assert refused.value.code == reason
    assert diagram.refused not in {move.notation for move in engine.legal_moves(before)}
    # The line it draws: three black marbles against the white column they cannot push.
    assert [before.occupant(cell) for cell in diagram.group] == [engine.BLACK] * 3
    assert {before.occupant(cell) for cell in diagram.pushed} == {engine.WHITE}
    if reason == "blocked":
        assert before.occupant(diagram.blocker) == engine.BLACK
    else:
        assert len(diagram.pushed) == 3 and diagram.blocker == ""


@pytest.mark.parametrize("language", sorted(RULES_LANGUAGES))
def test_the_page_draws_the_diagrams_as_defined(client, language):
    """What the page hands the browser is the diagram's own data, in every language."""
    page = rules_page(client, f"/rules/{language}/")
    for board in page.boards:
        diagram = DIAGRAMS[board["data-diagram"]]
        assert board["data-position"] == diagram.position
        assert board.get("data-move", "") == diagram.move
        assert board.get("data-after", "") == diagram.after
        assert board.get("data-refused", "") == diagram.refused
        assert board.get("data-arrows", "") == diagram.arrows
        assert board.get("data-group", "") == ",".join(diagram.group)
