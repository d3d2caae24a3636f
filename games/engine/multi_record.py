"""Records of three- and four-player games (``docs/game-records.md``, "More than two players").

The two-player record's form, with the headers that more players need:

    [Event "Club night"]
    [Date "2026.11.24"]
    [Variant "three"]                 three, or teams (four players in two teams)
    [Players "ann, bob, cid"]         the players in turn order (Black, White, Red[, Green])
    [Start "three"]                   three, four, placement, or a position string
    [MarblesToWin "6"]
    [TimeControl "10+5"]
    [Result "2-3-1"]                  each colour's place in turn order; "*" while in play
    [Termination "marbles"]
    [Out "w"]                         who resigned or ran out of time, when someone did

    1. a1b2 e1f2 e9f9 2. ... 2-3-1

Pure: no Django.
"""

from __future__ import annotations

import re

from core.messages import Text, gettext_noop
from games.engine.errors import EngineError, RecordError
from games.engine.multi import MultiPosition, start_of
from games.engine.multi_game import MultiGame

HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^\d+\.+")


def result_text(game: MultiGame) -> str:
    """``"2-3-1"``: each colour's place in turn order, or ``"*"`` while the game is on."""
    places = dict((colour, place) for place, colour in game.ranking())
    if not places:
        return "*"
    return "-".join(str(places[colour]) for colour in game.colours)


def start_text(game: MultiGame) -> str:
    if game.placement:
        return "placement"
    start = game.positions[0]
    if start == start_of(game.players):
        return "three" if game.players == 3 else "four"
    return start.to_string()


def write_multi_record(game: MultiGame, headers: dict[str, str] | None = None) -> str:
    """The record of ``game``; ``headers`` add or override tags (Event, Date, Players, ...)."""
    tags = {
        "Event": "?",
        "Date": "????.??.??",
        "Variant": "teams" if game.teams else "three",
        "Players": ", ".join("?" for _ in game.colours),
        "Start": start_text(game),
        "MarblesToWin": str(game.marbles_to_win),
        "TimeControl": "-",
        "Result": result_text(game),
        "Termination": game.termination or "unterminated",
    }
    if game.out is not None and game.termination in ("resignation", "time"):
        tags["Out"] = game.out
    tags.update(headers or {})
    lines = [f'[{tag} "{_escape(value)}"]' for tag, value in tags.items()]
    units = []
    per_round = game.players
    for index, notation in enumerate(game.notations):
        if index % per_round == 0:
            units.append(f"{index // per_round + 1}.")
        units.append(notation)
    units.append(tags["Result"])
    movetext, line = [], ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > 78:
            movetext.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    movetext.append(line)
    return "\n".join([*lines, "", *movetext]) + "\n"


def _escape(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def read_multi_record(text: str) -> tuple[dict[str, str], MultiGame]:
    """The headers and the replayed game of a record; raises :class:`RecordError` naming the
    line or the ply (1-based) of the first problem."""
    if not isinstance(text, str) or not text.strip():
        raise RecordError(gettext_noop("the record is empty"), "empty")
    headers: dict[str, str] = {}
    body: list[str] = []
    for number, line in enumerate(text.strip().splitlines(), start=1):
        line = line.strip()
        match = HEADER.match(line)
        if match:
            headers[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif line.startswith("["):
            raise RecordError(
                gettext_noop("line %(line)s: not a header: %(text)s"),
                "bad_header",
                line=number,
                text=line[:60],
            )
        elif line:
            body.append(line)
    players = 4 if headers.get("Variant", "three") == "teams" else 3
    start = headers.get("Start", "three" if players == 3 else "four").strip().lower()
    try:
        marbles = int(headers.get("MarblesToWin", "6"))
        if start in ("three", "four", "placement"):
            game = MultiGame(
                players=players, placement=start == "placement", marbles_to_win=marbles
            )
        else:
            position = MultiPosition.from_string(start)
            game = MultiGame(position=position, marbles_to_win=marbles)
    except (ValueError, EngineError) as error:
        raise RecordError(
            gettext_noop("the headers do not describe a game: %(error)s"),
            "bad_header",
            error=error if isinstance(error, EngineError) else str(error),
        ) from None
    tokens = [t for t in " ".join(body).split() if t]
    result_token = None
    for token in tokens:
        token = _NUMBER.sub("", token)
        if not token:
            continue
        if re.fullmatch(r"\*|\d(-\d){2,3}", token):
            result_token = token
            break
        try:
            game.play(token)
        except EngineError as error:
            raise RecordError(
                "%(error)s",
                "illegal_move",
                subject=Text(
                    "%(ply)s (%(token)s)",
                    ply=Text(gettext_noop("ply %(ply)s"), ply=game.plies + 1),
                    token=token,
                ),
                error=error,
            ) from None
    result = headers.get("Result", result_token or "*")
    out = headers.get("Out")
    if not game.over and out and headers.get("Termination") in ("resignation", "time"):
        game.drop_out(out, headers["Termination"])
    if result != "*" and result_text(game) != result:
        raise RecordError(
            gettext_noop("the result %(result)s is not what the moves reach (%(reached)s)"),
            "result_mismatch",
            result=result,
            reached=result_text(game),
        )
    return headers, game
