"""Game records as people publish them: ``1.a1b2 i5h5 2. ...`` or ``1. a1b2``, a bare move list,
upper case, comments in braces, headers missing. :func:`read_published_record` fills the missing
headers with defaults and says which it filled; the record format itself, its reading and its
writing are :mod:`games.engine.record`'s.
"""

from __future__ import annotations

import re

from core.messages import Term, Text, gettext_noop
from games.engine.errors import EngineError, RecordError
from games.engine.game import DRAW, Game, GameSettings
from games.engine.position import BLACK, COLOUR_NAMES, WHITE, Position, resolve_start
from games.engine.record import (
    REQUIRED_TAGS,
    ROSTER_DEFAULTS,
    SETTING_TAGS,
    UNFINISHED,
    UNTERMINATED,
    _check_result,
    _game_tags,
    _settings_from_headers,
    _unescape,
)

#: The start a published record without a Start header (and without a caller's start) gets.
DEFAULT_START = "standard"
#: Result tokens as people write them -> the result.
PUBLISHED_RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    UNFINISHED: UNFINISHED,
}
#: Start names as people write them, besides our own.
START_ALIASES = {"belgian daisy": "belgian", "german daisy": "german", "classic": "standard"}

_PUBLISHED_HEADER = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
#: A move number, maybe with its move attached: ``12.``, ``12...``, ``12…``, ``12.a1b2``.
_PUBLISHED_NUMBER = re.compile(r"(\d+)(\.\.\.|…|\.)(.*)")
_COMMENT = re.compile(r"\{[^{}]*\}")  # comments do not nest
#: No move is longer than this (``c3c5d4``, ``@e5``, with a few marks after it).
LONGEST_MOVE = 12
_ANNOTATION = re.compile(r"[!?]+$")
_KNOWN_TAGS = {tag.lower(): tag for tag in REQUIRED_TAGS + SETTING_TAGS}


class PlyError(RecordError):
    """A record problem at one half-move: ``ply`` is its 1-based number in the game."""

    def __init__(self, message: str, code: str, ply: int, **details: object) -> None:
        super().__init__(message, code, **details)
        self.ply = ply


def read_published_record(
    text: str, start: str | None = None
) -> tuple[dict[str, str], Game, list[str]]:
    """Read a record in any form people publish; returns (headers, the game, filled tags).

    Accepted on top of :func:`read_record`'s format: no header block or only some headers (tag
    names in any case, blank lines around them), move numbers written ``1.a1b2``, ``1. a1b2``,
    ``1...i5h5`` or not at all (a bare move list), moves in any case with ``!``/``?`` marks,
    comments in braces, ``½-½``, and no result token.  Move numbers, where given, must be right.
    ``@e5`` tokens are placements, passed to the game like any move.

    A required tag that is missing (or blank) is filled: ``Start`` with ``start`` (a start name
    or a position string; ``standard`` without one), ``MarblesToWin`` with 6, ``Result`` with
    the result token or else the game's own end (``*`` if none), ``Termination`` with the rules'
    ending or else ``resignation`` for a win, ``agreement`` for a draw, ``unterminated`` for
    ``*``, and the roster tags with ``?``, ``????.??.??`` or ``-``.  ``filled`` names the
    required tags the text did not give (a result token gives ``Result``), in the order of
    :data:`REQUIRED_TAGS`.  A ``start`` that disagrees with the record's own Start
    header is refused.  The headers returned are ready for :func:`write_record`: the tags the game
    decides (Start, MarblesToWin, Result, ...) are written as the game has them.

    Raises :class:`RecordError` naming the problem; a problem at a move is a :class:`PlyError`
    naming the ply (``ply 4 (move 2, White) a1a1: ...``) and carrying it as ``ply``.
    """
    if not isinstance(text, str):
        raise RecordError(gettext_noop("a record must be text"), "bad_record")
    lines = text.lstrip("\ufeff").splitlines()
    headers, body_start = _parse_published_headers(lines)
    tokens = _published_tokens("\n".join(lines[body_start:]))
    result_token = PUBLISHED_RESULTS.get(tokens[-1]) if tokens else None
    if result_token is not None:
        tokens.pop()
    if not headers and not tokens and result_token is None:
        raise RecordError(
            gettext_noop("the record is empty: give the moves, e.g. 1. a1b2 i5h5"), "empty_record"
        )
    filled = _fill_start(headers, start)
    if "MarblesToWin" not in headers:
        headers["MarblesToWin"] = str(GameSettings().marbles_to_win)
        filled.append("MarblesToWin")
    game = Game(settings=_settings_from_headers(headers))
    _replay_published(game, tokens)
    filled += _fill_result(game, headers, result_token)
    _check_result(game, headers, headers["Result"])
    for tag, default in ROSTER_DEFAULTS.items():
        if tag not in headers:
            headers[tag] = default
            filled.append(tag)
    for tag, value in _game_tags(game).items():
        if tag in headers:
            headers[tag] = value
    ordered = {tag: headers.pop(tag) for tag in REQUIRED_TAGS}
    ordered.update(headers)
    return ordered, game, [tag for tag in REQUIRED_TAGS if tag in filled]


def _parse_published_headers(lines: list[str]) -> tuple[dict[str, str], int]:
    """The leading ``[Tag "value"]`` lines (blank lines among them allowed); known tags under
    their own spelling, blank values left out (they count as missing)."""
    headers: dict[str, str] = {}
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        if line and not line.startswith("["):
            break
        index += 1
        if not line:
            continue
        match = _PUBLISHED_HEADER.fullmatch(line)
        if match is None:
            raise RecordError(
                gettext_noop('line %(line)s: malformed header %(text)r, expected [Tag "value"]'),
                "bad_header",
                line=index,
                text=line[:80],
            )
        tag = _KNOWN_TAGS.get(match.group(1).lower(), match.group(1))
        if tag in headers:
            raise RecordError(
                gettext_noop("line %(line)s: header %(tag)s appears twice"),
                "bad_header",
                line=index,
                tag=tag,
            )
        value = _unescape(match.group(2)).strip()
        if value:
            headers[tag] = value
    return headers, index


def _published_tokens(movetext: str) -> list[str]:
    """The movetext's tokens: comments dropped, ``@ e5`` joined, ``12.a1b2`` kept whole."""
    movetext = _COMMENT.sub(" ", movetext)
    if "{" in movetext or "}" in movetext:
        raise RecordError(
            gettext_noop("a comment in braces is not closed, not opened, or holds another"),
            "bad_movetext",
        )
    return re.sub(r"@\s+", "@", movetext).split()


def _fill_start(headers: dict[str, str], start: str | None) -> list[str]:
    """Put the start in ``headers``: the record's own, else ``start``, else the default."""
    given = _start_given(start) if start else None
    if "Start" in headers:
        own = START_ALIASES.get(headers["Start"].lower(), headers["Start"])
        headers["Start"] = own
        try:
            own_position = resolve_start(own)
        except EngineError:
            return []  # reading the settings names the problem
        if given is not None and own_position != given:
            raise RecordError(
                gettext_noop(
                    "the record's Start header %(header)r disagrees with the start given "
                    "(%(start)r); leave the start out, or correct the header"
                ),
                "start_mismatch",
                header=own,
                start=start,
            )
        return []
    headers["Start"] = START_ALIASES.get(start.strip().lower(), start) if start else DEFAULT_START
    return ["Start"]


def _start_given(start: str) -> Position:
    try:
        return resolve_start(START_ALIASES.get(start.strip().lower(), start))
    except EngineError as error:
        raise RecordError(
            gettext_noop("start %(start)r: %(error)s"), "bad_start", start=start, error=error
        ) from None


def _fill_result(game: Game, headers: dict[str, str], result_token: str | None) -> list[str]:
    """Put the result and the termination in ``headers``; the tags filled."""
    filled = []
    if "Result" in headers:
        headers["Result"] = PUBLISHED_RESULTS.get(headers["Result"], headers["Result"])
        if result_token is not None and headers["Result"] != result_token:
            raise RecordError(
                gettext_noop(
                    "the Result header %(header)r disagrees with the result token %(token)r"
                ),
                "result_mismatch",
                header=headers["Result"],
                token=result_token,
            )
    elif result_token is not None:
        headers["Result"] = result_token
    else:
        headers["Result"] = game.result or UNFINISHED
        filled.append("Result")
    if "Termination" not in headers:
        if game.is_over:
            headers["Termination"] = game.termination or UNTERMINATED
        elif headers["Result"] == UNFINISHED:
            headers["Termination"] = UNTERMINATED
        else:
            headers["Termination"] = "agreement" if headers["Result"] == DRAW else "resignation"
        filled.append("Termination")
    return filled


def _replay_published(game: Game, tokens: list[str]) -> None:
    move_number = 1
    waiting: str | None = None  # a move number read, its move not yet
    for token in tokens:
        ply = game.ply + 1
        colour = game.side_to_move
        label = Text(
            gettext_noop("ply %(ply)s (move %(number)s, %(colour)s)"),
            ply=ply,
            number=move_number,
            colour=Term(COLOUR_NAMES[colour]),
        )
        if token in PUBLISHED_RESULTS:
            raise PlyError(
                gettext_noop("result token %(token)r before the end of the moves"),
                "bad_movetext",
                ply,
                subject=label,
                token=token,
            )
        numbered = _PUBLISHED_NUMBER.fullmatch(token)
        if numbered:
            if waiting is not None:
                raise PlyError(
                    gettext_noop("move number %(token)r without a move"),
                    "bad_move_number",
                    ply,
                    subject=label,
                    token=waiting,
                )
            number, dots, token = numbered.groups()
            expected = f"{move_number}." if colour == BLACK else f"{move_number}..."
            given = f"{number.lstrip('0')[:20] or '0'}{'.' if dots == '.' else '...'}"
            if given != expected:
                raise PlyError(
                    gettext_noop("expected move number %(expected)s, found %(given)s"),
                    "bad_move_number",
                    ply,
                    subject=label,
                    expected=expected,
                    given=given,
                )
            if not token:
                waiting = given
                continue
        waiting = None
        move = _ANNOTATION.sub("", token)
        if len(move) > LONGEST_MOVE:
            raise PlyError(
                gettext_noop("not a move"),
                "illegal_move",
                ply,
                subject=Text("%(label)s %(move)s…", label=label, move=move[:LONGEST_MOVE]),
            )
        if game.is_over:
            raise PlyError(
                gettext_noop("the game was already over (%(result)s, %(termination)s)"),
                "move_after_end",
                ply,
                subject=Text("%(label)s %(move)s", label=label, move=move.lower()),
                result=game.result,
                termination=game.termination,
            )
        try:
            game.play(move)
        except EngineError as error:
            raise PlyError(
                "%(error)s", "illegal_move", ply, subject=label, joined=" ", error=error
            ) from None
        if colour == WHITE:
            move_number += 1
    if waiting is not None:
        raise PlyError(
            gettext_noop("move number %(token)r without a move"),
            "bad_move_number",
            game.ply + 1,
            subject=Text(gettext_noop("ply %(ply)s"), ply=game.ply + 1),
            token=waiting,
        )
