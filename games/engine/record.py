"""Game records: a PGN-like text format (specified in ``docs/game-records.md``).

:func:`write_record` turns a :class:`Game` plus roster headers into text; :func:`read_record`
replays such a text move by move and raises :class:`RecordError` naming the first problem
(``move 12 (White) e5e6: 3 against 3 is a pac, no push``).  ``read_record(write_record(g, h))``
gives back the same moves, settings, result and termination.

The forms people publish (``1.a1b2 i5h5 2. ...``, a bare move list, headers missing) are read by
:func:`games.engine.record_published.read_published_record`.
"""

from __future__ import annotations

import re

from core.messages import Term, Text, gettext_noop
from games.engine.errors import EngineError, RecordError
from games.engine.game import (
    EXTERNAL_TERMINATIONS,
    RESULTS,
    Game,
    GameSettings,
)
from games.engine.position import BLACK, COLOUR_NAMES, WHITE

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
            raise RecordError(
                gettext_noop("%(tag)r is not a valid tag name"), "bad_header", tag=tag
            )
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise RecordError(
                gettext_noop("header %(tag)s: the value must be one line of text"),
                "bad_header",
                tag=tag,
            )
        if tag in game_tags and not _same_game_tag(game, tag, value, game_tags[tag]):
            raise RecordError(
                gettext_noop("header %(tag)s %(value)r disagrees with the game (%(game)r)"),
                "header_mismatch",
                tag=tag,
                value=value,
                game=game_tags[tag],
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
                gettext_noop('line %(line)s: malformed header %(text)r, expected [Tag "value"]'),
                "bad_header",
                line=index + 1,
                text=line,
            )
        tag, value = match.group(1), _unescape(match.group(2))
        if tag in headers:
            raise RecordError(
                gettext_noop("line %(line)s: header %(tag)s appears twice"),
                "bad_header",
                line=index + 1,
                tag=tag,
            )
        headers[tag] = value
        index += 1
    missing = [tag for tag in REQUIRED_TAGS if tag not in headers]
    if missing:
        raise RecordError(
            gettext_noop("missing header(s): %(tags)s"), "missing_header", tags=", ".join(missing)
        )
    return headers, index


def _settings_from_headers(headers: dict[str, str]) -> GameSettings:
    def whole_number(tag: str, default: str) -> int:
        text = headers.get(tag, default).strip()
        if not (text.isascii() and text.isdigit()):
            raise RecordError(
                gettext_noop("header %(tag)s: %(text)r is not a whole number"),
                "bad_header",
                tag=tag,
                text=text[:40],
            )
        if len(text.lstrip("0")) > 9:  # int() refuses a few thousand digits; no setting needs 10
            raise RecordError(
                gettext_noop("header %(tag)s: %(text)s is too large"),
                "bad_header",
                tag=tag,
                text=text[:40],
            )
        return int(text)

    repetition = headers.get("ThreefoldRepetition", "on").strip().lower()
    if repetition not in ("on", "off"):
        raise RecordError(
            gettext_noop("header ThreefoldRepetition: %(value)r must be on or off"),
            "bad_header",
            value=repetition,
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
        raise RecordError(
            gettext_noop("bad settings in headers: %(error)s"), "bad_header", error=error
        ) from None


def read_record(text: str) -> tuple[dict[str, str], Game]:
    """Parse and replay a record; returns (headers as read, the game).

    Raises :class:`RecordError` for malformed headers or movetext, wrong move numbers, an
    illegal move (naming the first one by number and colour), moves after the game ended, or a
    result that disagrees with the game or the headers.
    """
    if not isinstance(text, str):
        raise RecordError(gettext_noop("a record must be text"), "bad_record")
    lines = text.splitlines()
    headers, body_start = _parse_headers(lines)
    settings = _settings_from_headers(headers)
    game = Game(settings=settings)
    tokens = " ".join(lines[body_start:]).split()
    if not tokens:
        raise RecordError(
            gettext_noop("the record has no result token (1-0, 0-1, 1/2-1/2 or *)"), "no_result"
        )
    *move_tokens, result_token = tokens
    if result_token not in RESULTS + (UNFINISHED,):
        raise RecordError(
            gettext_noop(
                "the record must end with a result token (1-0, 0-1, 1/2-1/2 or *), not %(token)r"
            ),
            "no_result",
            token=result_token,
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
            raise RecordError(
                gettext_noop("result token %(token)r before the end of the moves"),
                "bad_movetext",
                token=token,
            )
        if need_number:
            expected = f"{move_number}." if colour == BLACK else f"{move_number}..."
            if token != expected:
                raise RecordError(
                    gettext_noop("expected move number %(expected)s, found %(token)r"),
                    "bad_move_number",
                    expected=expected,
                    token=token,
                )
            need_number = False
            continue
        if _MOVE_NUMBER.fullmatch(token):
            raise RecordError(
                gettext_noop("expected a move after a move number, found %(token)r"),
                "bad_move_number",
                token=token,
            )
        label = Text(
            gettext_noop("move %(number)s (%(colour)s)"),
            number=move_number,
            colour=Term(COLOUR_NAMES[colour]),
        )
        if game.is_over:
            raise RecordError(
                gettext_noop("the game was already over (%(result)s, %(termination)s)"),
                "move_after_end",
                subject=Text("%(label)s %(move)s", label=label, move=token.lower()),
                result=game.result,
                termination=game.termination,
            )
        try:
            game.play(token)
        except EngineError as error:
            raise RecordError(
                "%(error)s", "illegal_move", subject=label, joined=" ", error=error
            ) from None
        if colour == WHITE:
            move_number += 1
        colour = WHITE if colour == BLACK else BLACK
        need_number = colour == BLACK
    if tokens and _MOVE_NUMBER.fullmatch(tokens[-1]):
        raise RecordError(
            gettext_noop("move number %(token)r without a move"),
            "bad_move_number",
            token=tokens[-1],
        )


def _check_result(game: Game, headers: dict[str, str], result_token: str) -> None:
    header_result = headers["Result"].strip()
    if header_result != result_token:
        raise RecordError(
            gettext_noop("the Result header %(header)r disagrees with the result token %(token)r"),
            "result_mismatch",
            header=header_result,
            token=result_token,
        )
    termination = headers["Termination"].strip().lower()
    if game.is_over:  # ended by the rules while replaying
        if result_token != game.result:
            raise RecordError(
                gettext_noop(
                    "the record says %(token)s but the moves end the game %(result)s "
                    "(%(termination)s)"
                ),
                "result_mismatch",
                token=result_token,
                result=game.result,
                termination=game.termination,
            )
        if termination != game.termination:
            raise RecordError(
                gettext_noop(
                    "the Termination header %(header)r disagrees with the moves (%(game)r)"
                ),
                "result_mismatch",
                header=termination,
                game=game.termination,
            )
        return
    if result_token == UNFINISHED:
        if termination != UNTERMINATED:
            raise RecordError(
                gettext_noop("an unfinished game has Termination %(expected)r, not %(header)r"),
                "result_mismatch",
                expected=UNTERMINATED,
                header=termination,
            )
        return
    if termination not in EXTERNAL_TERMINATIONS:
        raise RecordError(
            gettext_noop(
                "the moves do not end the game, so %(token)s needs a Termination of "
                "%(choices)s, not %(header)r"
            ),
            "result_mismatch",
            token=result_token,
            choices=", ".join(EXTERNAL_TERMINATIONS),
            header=termination,
        )
    try:
        game.end(result_token, termination)
    except EngineError as error:
        raise RecordError(
            gettext_noop("result %(token)s by %(termination)s: %(error)s"),
            "result_mismatch",
            token=result_token,
            termination=termination,
            error=error,
        ) from None
