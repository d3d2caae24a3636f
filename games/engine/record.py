"""Game records: a PGN-like text format (specified in ``docs/game-records.md``).

:func:`write_record` turns a :class:`Game` plus roster headers into text; :func:`read_record`
replays such a text move by move and raises :class:`RecordError` naming the first problem
(``move 12 (White) e5e6: 3 against 3 is a pac, no push``).  ``read_record(write_record(g, h))``
gives back the same moves, settings, result and termination.

:func:`read_published_record` reads the forms people publish too (``1.a1b2 i5h5 2. ...``, a bare
move list, upper case, comments in braces, headers missing): it fills the missing headers with
defaults and says which it filled.
"""

from __future__ import annotations

import re

from games.engine.errors import EngineError, RecordError
from games.engine.game import (
    DRAW,
    EXTERNAL_TERMINATIONS,
    RESULTS,
    Game,
    GameSettings,
)
from games.engine.position import BLACK, COLOUR_NAMES, WHITE, Position, resolve_start

#: Tags every record has, in the order they are written.
REQUIRED_TAGS = (
    "Event",
    "Round",
    "Date",
    "Black",
    "White",
    "Start",
    "MarblesToWin",
    "TimeControl",
    "Result",
    "Termination",
)
#: Setting tags written after the required ones; on reading, a missing one takes its default.
SETTING_TAGS = ("ThreefoldRepetition", "MaxPlies", "MaxPliesResult")
#: Tags whose value comes from the game itself (a caller's value must agree with it).
GAME_TAGS = ("Start", "MarblesToWin", "Result", "Termination") + SETTING_TAGS
ROSTER_DEFAULTS = {
    "Event": "?",
    "Round": "?",
    "Date": "????.??.??",
    "Black": "?",
    "White": "?",
    "TimeControl": "-",
}
UNFINISHED = "*"
UNTERMINATED = "unterminated"
LINE_WIDTH = 80

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_HEADER_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
_MOVE_NUMBER = re.compile(r"(\d+)(\.|\.\.\.)")


def _game_tags(game: Game) -> dict[str, str]:
    settings = game.settings
    return {
        "Start": settings.start,
        "MarblesToWin": str(settings.marbles_to_win),
        "Result": game.result or UNFINISHED,
        "Termination": game.termination or UNTERMINATED,
        "ThreefoldRepetition": "on" if settings.threefold_repetition else "off",
        "MaxPlies": str(settings.max_plies),
        "MaxPliesResult": settings.max_plies_result,
    }


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _movetext_units(game: Game) -> list[str]:
    """Movetext pieces that are never split across lines: ``"1. a1b2"``, ``"i5h5"``, result."""
    units: list[str] = []
    move_number = 1
    colour = game.start_position.side_to_move
    for index, move in enumerate(game.moves):
        if colour == BLACK:
            units.append(f"{move_number}. {move.notation}")
        elif index == 0:
            units.append(f"{move_number}... {move.notation}")
        else:
            units.append(move.notation)
        if colour == WHITE:
            move_number += 1
        colour = WHITE if colour == BLACK else BLACK
    units.append(game.result or UNFINISHED)
    return units


def _wrap(units: list[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > LINE_WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return lines


def write_record(game: Game, headers: dict[str, str] | None = None) -> str:
    """The record of ``game`` as text, ending with a newline.

    ``headers`` supplies the roster tags (Event, Round, Date, Black, White, TimeControl; missing
    ones are written as ``?``, ``????.??.??`` or ``-``) and any extra tags, written after the
    standard ones in the given order.  Start, MarblesToWin, Result, Termination and the setting
    tags are taken from the game; a value given for them in ``headers`` must agree with the game,
    else :class:`RecordError`.  Tag names are letters, digits and ``_``; values are one line.
    """
    headers = dict(headers or {})
    game_tags = _game_tags(game)
    for tag, value in headers.items():
        if not isinstance(tag, str) or not _TAG_NAME.fullmatch(tag):
            raise RecordError(f"{tag!r} is not a valid tag name", "bad_header")
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise RecordError(f"header {tag}: the value must be one line of text", "bad_header")
        if tag in game_tags and not _same_game_tag(game, tag, value, game_tags[tag]):
            raise RecordError(
                f"header {tag} {value!r} disagrees with the game ({game_tags[tag]!r})",
                "header_mismatch",
            )
    ordered: dict[str, str] = {}
    for tag in REQUIRED_TAGS + SETTING_TAGS:
        ordered[tag] = game_tags.get(tag) or headers.get(tag) or ROSTER_DEFAULTS[tag]
    for tag, value in headers.items():
        ordered.setdefault(tag, value)
    lines = [f'[{tag} "{_escape(value)}"]' for tag, value in ordered.items()]
    lines.append("")
    lines.extend(_wrap(_movetext_units(game)))
    return "\n".join(lines) + "\n"


def _same_game_tag(game: Game, tag: str, value: str, expected: str) -> bool:
    if tag == "Start":
        try:
            return GameSettings(start=value).start_position == game.start_position
        except EngineError:
            return False
    return value.strip().lower() == expected.lower()


def _parse_headers(lines: list[str]) -> tuple[dict[str, str], int]:
    headers: dict[str, str] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].strip():
        line = lines[index].strip()
        if not line.startswith("["):
            break
        match = _HEADER_LINE.fullmatch(line)
        if match is None:
            raise RecordError(
                f'line {index + 1}: malformed header {line!r}, expected [Tag "value"]',
                "bad_header",
            )
        tag, value = match.group(1), _unescape(match.group(2))
        if tag in headers:
            raise RecordError(f"line {index + 1}: header {tag} appears twice", "bad_header")
        headers[tag] = value
        index += 1
    missing = [tag for tag in REQUIRED_TAGS if tag not in headers]
    if missing:
        raise RecordError(f"missing header(s): {', '.join(missing)}", "missing_header")
    return headers, index


def _settings_from_headers(headers: dict[str, str]) -> GameSettings:
    def whole_number(tag: str, default: str) -> int:
        text = headers.get(tag, default).strip()
        if not (text.isascii() and text.isdigit()):
            raise RecordError(f"header {tag}: {text[:40]!r} is not a whole number", "bad_header")
        if len(text.lstrip("0")) > 9:  # int() refuses a few thousand digits; no setting needs 10
            raise RecordError(f"header {tag}: {text[:40]} is too large", "bad_header")
        return int(text)

    repetition = headers.get("ThreefoldRepetition", "on").strip().lower()
    if repetition not in ("on", "off"):
        raise RecordError(
            f"header ThreefoldRepetition: {repetition!r} must be on or off", "bad_header"
        )
    try:
        return GameSettings(
            start=headers["Start"],
            marbles_to_win=whole_number("MarblesToWin", "6"),
            threefold_repetition=repetition == "on",
            max_plies=whole_number("MaxPlies", "400"),
            max_plies_result=headers.get("MaxPliesResult", "draw").strip().lower(),
        )
    except RecordError:
        raise
    except EngineError as error:
        raise RecordError(f"bad settings in headers: {error}", "bad_header") from None


def read_record(text: str) -> tuple[dict[str, str], Game]:
    """Parse and replay a record; returns (headers as read, the game).

    Raises :class:`RecordError` for malformed headers or movetext, wrong move numbers, an
    illegal move (naming the first one by number and colour), moves after the game ended, or a
    result that disagrees with the game or the headers.
    """
    if not isinstance(text, str):
        raise RecordError("a record must be text", "bad_record")
    lines = text.splitlines()
    headers, body_start = _parse_headers(lines)
    settings = _settings_from_headers(headers)
    game = Game(settings=settings)
    tokens = " ".join(lines[body_start:]).split()
    if not tokens:
        raise RecordError("the record has no result token (1-0, 0-1, 1/2-1/2 or *)", "no_result")
    *move_tokens, result_token = tokens
    if result_token not in RESULTS + (UNFINISHED,):
        raise RecordError(
            f"the record must end with a result token (1-0, 0-1, 1/2-1/2 or *), "
            f"not {result_token!r}",
            "no_result",
        )
    _replay(game, move_tokens)
    _check_result(game, headers, result_token)
    return headers, game


def _replay(game: Game, tokens: list[str]) -> None:
    move_number = 1
    colour = game.start_position.side_to_move
    need_number = True
    for token in tokens:
        if token in RESULTS + (UNFINISHED,):
            raise RecordError(f"result token {token!r} before the end of the moves", "bad_movetext")
        if need_number:
            expected = f"{move_number}." if colour == BLACK else f"{move_number}..."
            if token != expected:
                raise RecordError(
                    f"expected move number {expected}, found {token!r}", "bad_move_number"
                )
            need_number = False
            continue
        if _MOVE_NUMBER.fullmatch(token):
            raise RecordError(
                f"expected a move after a move number, found {token!r}", "bad_move_number"
            )
        label = f"move {move_number} ({COLOUR_NAMES[colour]})"
        if game.is_over:
            raise RecordError(
                f"{label} {token.lower()}: the game was already over "
                f"({game.result}, {game.termination})",
                "move_after_end",
            )
        try:
            game.play(token)
        except EngineError as error:
            raise RecordError(f"{label} {error}", "illegal_move") from None
        if colour == WHITE:
            move_number += 1
        colour = WHITE if colour == BLACK else BLACK
        need_number = colour == BLACK
    if tokens and _MOVE_NUMBER.fullmatch(tokens[-1]):
        raise RecordError(f"move number {tokens[-1]!r} without a move", "bad_move_number")


def _check_result(game: Game, headers: dict[str, str], result_token: str) -> None:
    header_result = headers["Result"].strip()
    if header_result != result_token:
        raise RecordError(
            f"the Result header {header_result!r} disagrees with the result token {result_token!r}",
            "result_mismatch",
        )
    termination = headers["Termination"].strip().lower()
    if game.is_over:  # ended by the rules while replaying
        if result_token != game.result:
            raise RecordError(
                f"the record says {result_token} but the moves end the game "
                f"{game.result} ({game.termination})",
                "result_mismatch",
            )
        if termination != game.termination:
            raise RecordError(
                f"the Termination header {termination!r} disagrees with the moves "
                f"({game.termination!r})",
                "result_mismatch",
            )
        return
    if result_token == UNFINISHED:
        if termination != UNTERMINATED:
            raise RecordError(
                f"an unfinished game has Termination {UNTERMINATED!r}, not {termination!r}",
                "result_mismatch",
            )
        return
    if termination not in EXTERNAL_TERMINATIONS:
        raise RecordError(
            f"the moves do not end the game, so {result_token} needs a Termination of "
            f"{', '.join(EXTERNAL_TERMINATIONS)}, not {termination!r}",
            "result_mismatch",
        )
    try:
        game.end(result_token, termination)
    except EngineError as error:
        raise RecordError(
            f"result {result_token} by {termination}: {error}", "result_mismatch"
        ) from None


# --- records as people publish them -------------------------------------------------------------

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

    def __init__(self, message: str, code: str, ply: int) -> None:
        super().__init__(message, code)
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
        raise RecordError("a record must be text", "bad_record")
    lines = text.lstrip("\ufeff").splitlines()
    headers, body_start = _parse_published_headers(lines)
    tokens = _published_tokens("\n".join(lines[body_start:]))
    result_token = PUBLISHED_RESULTS.get(tokens[-1]) if tokens else None
    if result_token is not None:
        tokens.pop()
    if not headers and not tokens and result_token is None:
        raise RecordError("the record is empty: give the moves, e.g. 1. a1b2 i5h5", "empty_record")
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
                f'line {index}: malformed header {line[:80]!r}, expected [Tag "value"]',
                "bad_header",
            )
        tag = _KNOWN_TAGS.get(match.group(1).lower(), match.group(1))
        if tag in headers:
            raise RecordError(f"line {index}: header {tag} appears twice", "bad_header")
        value = _unescape(match.group(2)).strip()
        if value:
            headers[tag] = value
    return headers, index


def _published_tokens(movetext: str) -> list[str]:
    """The movetext's tokens: comments dropped, ``@ e5`` joined, ``12.a1b2`` kept whole."""
    movetext = _COMMENT.sub(" ", movetext)
    if "{" in movetext or "}" in movetext:
        raise RecordError(
            "a comment in braces is not closed, not opened, or holds another", "bad_movetext"
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
                f"the record's Start header {own!r} disagrees with the start given "
                f"({start!r}); leave the start out, or correct the header",
                "start_mismatch",
            )
        return []
    headers["Start"] = START_ALIASES.get(start.strip().lower(), start) if start else DEFAULT_START
    return ["Start"]


def _start_given(start: str) -> Position:
    try:
        return resolve_start(START_ALIASES.get(start.strip().lower(), start))
    except EngineError as error:
        raise RecordError(f"start {start!r}: {error}", "bad_start") from None


def _fill_result(game: Game, headers: dict[str, str], result_token: str | None) -> list[str]:
    """Put the result and the termination in ``headers``; the tags filled."""
    filled = []
    if "Result" in headers:
        headers["Result"] = PUBLISHED_RESULTS.get(headers["Result"], headers["Result"])
        if result_token is not None and headers["Result"] != result_token:
            raise RecordError(
                f"the Result header {headers['Result']!r} disagrees with the result token "
                f"{result_token!r}",
                "result_mismatch",
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
        label = f"ply {ply} (move {move_number}, {COLOUR_NAMES[colour]})"
        if token in PUBLISHED_RESULTS:
            raise PlyError(
                f"{label}: result token {token!r} before the end of the moves", "bad_movetext", ply
            )
        numbered = _PUBLISHED_NUMBER.fullmatch(token)
        if numbered:
            if waiting is not None:
                raise PlyError(
                    f"{label}: move number {waiting!r} without a move", "bad_move_number", ply
                )
            number, dots, token = numbered.groups()
            expected = f"{move_number}." if colour == BLACK else f"{move_number}..."
            given = f"{number.lstrip('0')[:20] or '0'}{'.' if dots == '.' else '...'}"
            if given != expected:
                raise PlyError(
                    f"{label}: expected move number {expected}, found {given}",
                    "bad_move_number",
                    ply,
                )
            if not token:
                waiting = given
                continue
        waiting = None
        move = _ANNOTATION.sub("", token)
        if len(move) > LONGEST_MOVE:
            raise PlyError(f"{label} {move[:LONGEST_MOVE]}…: not a move", "illegal_move", ply)
        if game.is_over:
            raise PlyError(
                f"{label} {move.lower()}: the game was already over "
                f"({game.result}, {game.termination})",
                "move_after_end",
                ply,
            )
        try:
            game.play(move)
        except EngineError as error:
            raise PlyError(f"{label} {error}", "illegal_move", ply) from None
        if colour == WHITE:
            move_number += 1
    if waiting is not None:
        raise PlyError(
            f"ply {game.ply + 1}: move number {waiting!r} without a move",
            "bad_move_number",
            game.ply + 1,
        )
