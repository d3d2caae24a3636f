"""Command line: ``python -m games.engine perft <start> <depth>`` / ``moves <start>``.

``<start>`` is ``standard``, ``belgian``, ``german``, ``placement``, ``three`` (the three-player
start), ``four`` (the four-player team start) or a position string (two, three or four colours).  ``perft`` prints the
number of move sequences of that length; ``moves`` prints every legal move as
``<notation> <resulting position string>``, sorted by notation.  Bad arguments print a message on
stderr and exit with status 2.

``bestmove <start|position> [--moves M1,M2,...] [--seconds S] [--level 1-8] [--marbles-to-win N]
[--max-plies N]`` (or ``bestmove --record FILE|-``) prints the computer's move as ``<move>
<resulting position string>`` (its last line); level 8, the default, thinks up to ``S`` seconds
(default 3) and answers at once when a move wins the game. ``analyse`` takes the same game
(no ``--level``) and prints one line per finished depth (``depth D score S nodes N time T pv
...``) and then ``best <move> score <score> depth <depth>``.

Both think about the game so far, as the server's computer does: the moves played after the
start (``--moves``), or a game record (``--record``, the format of ``docs/game-records.md``, from
a file or ``-`` for standard input), are replayed under the rules and their positions passed to
the search as the game's history, so a position reached again counts as a draw (which a side
ahead avoids), and the plies left to the move cap (``--max-plies``, default 400, or the record's
``MaxPlies``) are passed when the cap ends the game as a draw. Given a bare position, it has no
history. ``--help`` prints the usage.
"""

from __future__ import annotations

import sys

from games.engine.errors import EngineError
from games.engine.game import Game
from games.engine.moves import apply_move, perft
from games.engine.multi import (
    MultiPosition,
    apply_multi_move,
    four_player_start,
    multi_perft,
    three_player_start,
)
from games.engine.position import resolve_start
from games.engine.record import read_record

USAGE = (
    "usage: python -m games.engine perft <standard|belgian|german|three|four|position> <depth>\n"
    "       python -m games.engine moves <standard|belgian|german|three|four|position>\n"
    "       python -m games.engine bestmove <GAME> [--seconds S] [--level 1-8]\n"
    "       python -m games.engine analyse <GAME> [--seconds S]\n"
    "  GAME: <start|position> [--moves M1,M2,...] [--marbles-to-win N] [--max-plies N]\n"
    "        or --record FILE (a game record, docs/game-records.md; - reads standard input)"
)

HELP = (
    USAGE
    + """

bestmove prints the computer's move and the position after it; analyse prints each finished
depth (depth, score, nodes, time, principal variation) and then the best move.

  --moves M1,M2,...   the moves played after the start, in order (comma- or space-separated)
  --record FILE|-     a game record instead of a start and moves: its start, settings and moves
  --seconds S         the thinking time (default 3; levels 1-7 think at most their own)
  --level 1-8         bestmove only: the computer's level (default 8)
  --marbles-to-win N  with a start: marbles to push off to win (default 6)
  --max-plies N       with a start: the move cap, a draw (default 400)

With --moves or --record the positions of the game so far are the search's history, as on
the server: reaching one again counts as a draw, which a side ahead avoids, and the plies left
to the move cap count. A bare position has no history."""
)


def _resolve(start: str):
    """A two-player :class:`Position`, or a :class:`MultiPosition` for ``three`` or a position
    string with three cell lists."""
    if start.strip().lower() == "three":
        return three_player_start()
    if start.strip().lower() == "four":
        return four_player_start()
    if start.count("|") in (3, 4):
        return MultiPosition.from_string(start)
    return resolve_start(start)


def _fail(message: str) -> int:
    print(f"error: {message}\n{USAGE}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        return _fail("no command given")
    if args[0] in ("-h", "--help", "help") or "--help" in args or "-h" in args:
        print(HELP)
        return 0
    command, rest = args[0], args[1:]
    try:
        if command == "perft":
            if len(rest) != 2:
                return _fail("perft takes a start and a depth")
            if not rest[1].isdigit():
                return _fail(f"depth must be a whole number >= 0, not {rest[1]!r}")
            position = _resolve(rest[0])
            count = multi_perft if isinstance(position, MultiPosition) else perft
            print(count(position, int(rest[1])))
            return 0
        if command == "moves":
            if len(rest) != 1:
                return _fail("moves takes one start")
            position = _resolve(rest[0])
            play = apply_multi_move if isinstance(position, MultiPosition) else apply_move
            lines = sorted(
                f"{move.notation} {play(position, move)[0].to_string()}"
                for move in position.legal_moves()
            )
            for line in lines:
                print(line)
            return 0
        if command in ("bestmove", "analyse", "analyze"):
            return _think(command, rest)
    except EngineError as error:
        return _fail(str(error))
    return _fail(f"unknown command {command!r}")


def _options(rest: list[str]) -> tuple[str | None, dict] | str:
    """The start (None with --record) and the options, or an error message."""
    start, options, items = None, {}, list(rest)
    names = {
        "--seconds": float,
        "--level": int,
        "--marbles-to-win": int,
        "--max-plies": int,
        "--moves": str,
        "--record": str,
    }
    while items:
        name = items.pop(0)
        if not name.startswith("--") or name == "-":
            if start is not None:
                return f"one start or position only, not also {name!r}"
            start = name
            continue
        if name not in names or not items:
            return f"unknown option or missing value: {name!r}"
        try:
            options[name[2:].replace("-", "_")] = names[name](items.pop(0))
        except ValueError:
            return f"{name} needs a number"
    if start is None and "record" not in options:
        return "give a start or a position (or --record)"
    if start is not None and "record" in options:
        return "give either a start or --record, not both"
    if "record" in options and {"moves", "marbles_to_win", "max_plies"} & set(options):
        return "a record carries its moves and settings: no --moves, --marbles-to-win, --max-plies"
    if not 0 < options.get("seconds", 3.0) <= 600:
        return "--seconds must be more than 0 and at most 600"
    if "level" in options and options["level"] not in range(1, 9):
        return "--level must be from 1 to 8"
    if not 1 <= options.get("marbles_to_win", 6) <= 6:
        return "--marbles-to-win must be from 1 to 6"
    if options.get("max_plies", 400) < 1:
        return "--max-plies must be 1 or more"
    return start, options


def _game(start: str | None, options: dict):
    """The game so far: a :class:`Game` replayed from --record or from the start and --moves,
    or, for a bare position (or a three- or four-player one), the position itself."""
    if "record" in options:
        source = options["record"]
        try:
            if source == "-":
                text = sys.stdin.read()
            else:
                with open(source, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            raise _Refused(f"cannot read the record {source!r}: {error.strerror}") from error
        return read_record(text)[1]
    position = _resolve(start)
    if "moves" not in options and "max_plies" not in options:
        return position
    if isinstance(position, MultiPosition):
        raise _Refused("--moves and --max-plies are for two-player games")
    game = Game(
        start,
        marbles_to_win=int(options.get("marbles_to_win", 6)),
        max_plies=int(options.get("max_plies", 400)),
    )
    for notation in options.get("moves", "").replace(",", " ").split():
        game.play(notation)
    return game


class _Refused(Exception):
    """A command-line input that is not an engine error (an unreadable file)."""


def _think(command: str, rest: list[str]) -> int:
    from games.engine.levels import best_move
    from games.engine.search_multi import multi_best_move

    parsed = _options(rest)
    if isinstance(parsed, str):
        return _fail(parsed)
    start, options = parsed
    try:
        game = _game(start, options)
    except _Refused as error:
        return _fail(str(error))
    seconds = options.get("seconds", 3.0)
    marbles = int(options.get("marbles_to_win", 6))
    history, plies_left = (), None
    if isinstance(game, Game):
        if game.is_over:
            return _fail(f"the game is over ({game.result}, {game.termination})")
        if game.in_placement:
            return _fail("the game is in its placement phase")
        settings = game.settings
        position, history, marbles = game.position, game.positions[:-1], settings.marbles_to_win
        if settings.max_plies_result == "draw":
            plies_left = settings.max_plies - (game.ply - settings.placements)
    else:
        position = game
    if isinstance(position, MultiPosition):
        move = multi_best_move(position, seconds=seconds, marbles_to_win=marbles)
        if move is None:
            return _fail("the side to move has no legal move")
        print(f"{move.notation} {apply_multi_move(position, move)[0].to_string()}")
        return 0

    def show(iteration) -> None:
        if command != "bestmove":
            print(
                f"depth {iteration.depth} score {iteration.score} nodes {iteration.nodes} "
                f"time {iteration.seconds:.2f} pv {' '.join(iteration.pv)}",
                flush=True,
            )

    level = int(options.get("level", 8)) if command == "bestmove" else 8
    result = best_move(
        position,
        level=level,
        seconds=seconds,
        marbles_to_win=marbles,
        on_iteration=show,
        history=history,
        plies_left=plies_left,
    )
    if result.move is None:
        return _fail("the side to move has no legal move")
    if command == "bestmove":
        print(f"{result.move.notation} {apply_move(position, result.move)[0].to_string()}")
    else:
        print(f"best {result.move.notation} score {result.score} depth {result.depth}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
