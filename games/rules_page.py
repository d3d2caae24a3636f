"""The rules page (``/rules/``, ``/rules/<lang>/``): the rules of Abalone in the reader's language.

The long text lives in one template per language, ``templates/rules/body_<lang>.html``, written
from the published rule books' own terms in that language (``docs/rules-page.md``); each fills
the blocks of the layout ``templates/rules/rules.html``, whose headings are translated with
Django's i18n. The language is the one named in the address (``/rules/de/``, or ``?lang=de``),
else the request's active language (account, cookie, Accept-Language), else English.

The diagrams are positions defined once, here, and drawn in the browser by the site's board
(``static/js/rules.js`` with ``static/js/board.js``). What a diagram shows of a move (the marbles
that move, the ones pushed, the arrow, the position after it) is worked out by the rules engine,
so a diagram cannot show a push the engine would refuse, and a refused push (a pac, a blocked
push) must be one the engine refuses: ``tests/site/test_rules_page.py`` checks both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from games import engine
from games.engine.board import direction_between, step
from games.engine.multi import MultiPosition, start_of
from games.engine.multi_game import MultiGame

#: The languages the rules are written in: one ``templates/rules/body_<code>.html`` each, named in
#: its own language for the page's list of languages.
RULES_LANGUAGES = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "nl": "Nederlands",
    "es": "Español",
    "uk": "Українська",
    "hu": "Magyar",
}
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class Diagram:
    """One board of the page: a position, and optionally a move it shows.

    - ``position``: a position string; two players (``b|<black>|<white>``), or three or four
      (``b|<black>|<white>|<red>[|<green>]``, ``docs/rules-multiplayer.md``).
    - ``move``: a legal move of the side to move, drawn as an arrow, its marbles ringed; the
      reader can play it and see the position after it.
    - ``refused``: an in-line move the rules refuse (a pac, a blocked push), drawn as a barred
      arrow along the marbles it would have moved.
    """

    key: str
    position: str
    move: str = ""
    refused: str = ""

    @property
    def players(self) -> int:
        return self.position.count("|")

    @cached_property
    def _played(self) -> tuple[engine.Move, engine.Position] | None:
        if not self.move:
            return None
        before = engine.Position.from_string(self.position)
        move = engine.parse_move(before, self.move)
        after, _outcome = engine.apply_move(before, move)
        return move, after

    @property
    def after(self) -> str:
        """The position once ``move`` is played ("" without a move)."""
        return self._played[1].to_string() if self._played else ""

    @property
    def group(self) -> tuple[str, ...]:
        """The mover's marbles the move (or the refused move) takes, trailing first."""
        if self._played:
            return self._played[0].marbles
        return self._refused_line[0]

    @property
    def pushed(self) -> tuple[str, ...]:
        """The opponent's marbles the move pushes (or would push), nearest first."""
        if self._played:
            return self._played[0].pushed
        return self._refused_line[1]

    @property
    def blocker(self) -> str:
        """For a refused push, the marble behind the opponent's column that blocks it, if any."""
        if not self.refused:
            return ""
        group, pushed = self._refused_line
        behind = step(pushed[-1], self._refused_direction) if pushed else None
        position = engine.Position.from_string(self.position)
        return behind if behind and position.occupant(behind) else ""

    @property
    def destinations(self) -> tuple[str, ...]:
        """Where the moved and pushed marbles land (a marble pushed off lands nowhere)."""
        if not self._played:
            return ()
        move = self._played[0]
        landed = [step(cell, move.direction) for cell in move.pushed]
        return (*move.destinations, *(cell for cell in landed if cell))

    @property
    def arrows(self) -> str:
        """The arrows to draw, for ``rules.js``: ``<from cell> <direction> <steps>``, separated
        by ``;``. An in-line move: one arrow from its trailing marble to where the leading marble
        (or the last pushed one) goes, off the board for a push-off; a broadside: one short arrow
        per marble."""
        if self._played:
            move = self._played[0]
            if move.kind == engine.BROADSIDE:
                return ";".join(f"{cell} {move.direction} 1" for cell in move.marbles)
            return f"{move.marbles[0]} {move.direction} {len(move.marbles) + len(move.pushed)}"
        if self.refused:
            group, pushed = self._refused_line
            return f"{group[0]} {self._refused_direction} {len(group) + len(pushed)}"
        return ""

    @property
    def _refused_direction(self) -> str:
        direction = direction_between(self.refused[:2], self.refused[2:4])
        if direction is None:
            raise ValueError(f"{self.refused}: not an in-line move")
        return direction

    @cached_property
    def _refused_line(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The runs of the mover's and the opponent's marbles along the refused move's line."""
        if not self.refused:
            return (), ()
        position = engine.Position.from_string(self.position)
        own = position.side_to_move
        direction = self._refused_direction
        runs: list[list[str]] = [[], []]
        cell: str | None = self.refused[:2]
        for index, colour in enumerate((own, engine.opponent(own))):
            while cell and position.occupant(cell) == colour:
                runs[index].append(cell)
                cell = step(cell, direction)
        return tuple(runs[0]), tuple(runs[1])

    def parsed(self) -> engine.Position | MultiPosition:
        """The position, parsed by the engine (two players) or the multi-player engine."""
        if self.players == 2:
            return engine.Position.from_string(self.position)
        return MultiPosition.from_string(self.position)


def _with(black: str, white: str) -> str:
    """A two-player position string, Black to move, from space-separated cell lists, in the
    engine's canonical form (cells in (row, digit) order)."""
    text = f"b|{','.join(black.split())}|{','.join(white.split())}"
    return engine.Position.from_string(text).to_string()


# The marbles of a diagram that do not take part in what it shows: a game's worth of them on
# each side (at least 9, so no side has lost the 6 that end a game), in the two far corners.
_BLACK_AROUND = "a1 a2 a3 b1 b2 b3 b4 c1 c2"
_WHITE_AROUND = "g8 g9 h6 h7 h8 h9 i7 i8 i9"

DIAGRAMS: dict[str, Diagram] = {
    diagram.key: diagram
    for diagram in (
        Diagram("standard", engine.start_position("standard").to_string()),
        Diagram("belgian", engine.start_position("belgian").to_string()),
        Diagram("german", engine.start_position("german").to_string()),
        Diagram("inline", _with(f"{_BLACK_AROUND} e3 e4 e5", _WHITE_AROUND), move="e3e4"),
        Diagram("broadside", _with(f"{_BLACK_AROUND} d4 d5 d6", _WHITE_AROUND), move="d4d6e4"),
        Diagram("sumito_2v1", _with(f"{_BLACK_AROUND} e3 e4", f"{_WHITE_AROUND} e5"), move="e3e4"),
        Diagram(
            "sumito_3v1", _with(f"{_BLACK_AROUND} e2 e3 e4", f"{_WHITE_AROUND} e5"), move="e2e3"
        ),
        Diagram(
            "sumito_3v2",
            _with(f"{_BLACK_AROUND} e2 e3 e4", f"{_WHITE_AROUND} e5 e6"),
            move="e2e3",
        ),
        Diagram(
            "pac",
            _with(f"{_BLACK_AROUND} e2 e3 e4", f"{_WHITE_AROUND} e5 e6 e7"),
            refused="e2e3",
        ),
        Diagram(
            "blocked",
            _with(f"{_BLACK_AROUND} e2 e3 e4 e7", f"{_WHITE_AROUND} e5 e6"),
            refused="e2e3",
        ),
        Diagram("push_off", _with(f"{_BLACK_AROUND} c6 d6", f"{_WHITE_AROUND} b6"), move="d6c6"),
        Diagram("three", start_of(3).to_string()),
        Diagram("four", start_of(4).to_string()),
    )
}


def rules_language(request, lang: str | None = None) -> str:
    """The language to show the rules in: the address's (``/rules/de/``, ``?lang=de``; one the
    rules are not written in is ignored), else the request's, else English."""
    for asked in (lang, request.GET.get("lang"), translation.get_language()):
        code = (asked or "").lower().replace("_", "-").split("-")[0]
        if code in RULES_LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def rules_page(request, lang: str | None = None):
    """The rules in one language; ``lang`` from the address must be one of them (else 404)."""
    if lang is not None and lang not in RULES_LANGUAGES:
        raise Http404(_("No rules in that language."))
    language = rules_language(request, lang)
    context = {
        "rules_language": language,
        "rules_languages": RULES_LANGUAGES,
        "diagrams": DIAGRAMS,
        "first_move_seconds": settings.GAME_FIRST_MOVE_SECONDS,
        "move_cap": engine.GameSettings().max_plies,
        "multi_move_cap": MultiGame().max_plies,
    }
    # The whole page (the headings too) in the language of its text, also when the address
    # chose a language other than the visitor's.
    with translation.override(language):
        return render(request, f"rules/body_{language}.html", context)
