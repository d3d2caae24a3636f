"""Command line: ``python -m games.engine perft <start> <depth>`` / ``moves <start>``.

``<start>`` is ``standard``, ``belgian``, ``german``, ``placement``, ``three`` (the three-player
start), ``four`` (the four-player team start) or a position string (two, three or four colours).  ``perft`` prints the
number of move sequences of that length; ``moves`` prints every legal move as
``<notation> <resulting position string>``, sorted by notation.  Bad arguments print a message on
stderr and exit with status 2.

``bestmove <start|position> [--seconds S] [--level 1-8] [--marbles-to-win N]`` prints the
computer's move as ``<move> <resulting position string>`` (its last line); level 8, the default,
thinks up to ``S`` seconds (default 3) and answers at once when a move wins the game.
``analyse <start|position> [--seconds S]`` prints one line per finished depth (``depth D score S
nodes N time T pv ...``) and then ``best <move> score <score> depth <depth>``.
"""

from __future__ import annotations

import sys

from games.engine.errors import EngineError
from games.engine.moves import apply_move, perft
from games.engine.multi import (
    MultiPosition,
    apply_multi_move,
    four_player_start,
    multi_perft,
    three_player_start,
)
from games.engine.position import resolve_start

USAGE = (
    "usage: python -m games.engine perft <standard|belgian|german|three|four|position> <depth>\n"
    "       python -m games.engine moves <standard|belgian|german|three|four|position>\n"
    "       python -m games.engine bestmove <start|position> [--seconds S] [--level 1-8]"
    " [--marbles-to-win N]\n"
    "       python -m games.engine analyse <start|position> [--seconds S] [--marbles-to-win N]"
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


def _options(rest: list[str]) -> tuple[str, dict[str, float]] | str:
    """The start and the --seconds/--level/--marbles-to-win options, or an error message."""
    if not rest:
        return "give a start or a position"
    start, options, items = rest[0], {}, rest[1:]
    names = {"--seconds": float, "--level": int, "--marbles-to-win": int}
    while items:
        name = items.pop(0)
        if name not in names or not items:
            return f"unknown option or missing value: {name!r}"
        try:
            options[name[2:].replace("-", "_")] = names[name](items.pop(0))
        except ValueError:
            return f"{name} needs a number"
    if not 0 < options.get("seconds", 3.0) <= 600:
        return "--seconds must be more than 0 and at most 600"
    if "level" in options and options["level"] not in range(1, 9):
        return "--level must be from 1 to 8"
    if not 1 <= options.get("marbles_to_win", 6) <= 6:
        return "--marbles-to-win must be from 1 to 6"
    return start, options


def _think(command: str, rest: list[str]) -> int:
    from games.engine.levels import best_move
    from games.engine.search_multi import multi_best_move

    parsed = _options(rest)
    if isinstance(parsed, str):
        return _fail(parsed)
    start, options = parsed
    position = _resolve(start)
    seconds = options.get("seconds", 3.0)
    marbles = int(options.get("marbles_to_win", 6))
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
        position, level=level, seconds=seconds, marbles_to_win=marbles, on_iteration=show
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
