"""Command line: ``python -m games.engine perft <start> <depth>`` / ``moves <start>``.

``<start>`` is ``standard``, ``belgian``, ``german``, ``three`` (the three-player start) or a
position string (two or three colours).  ``perft`` prints the
number of move sequences of that length; ``moves`` prints every legal move as
``<notation> <resulting position string>``, sorted by notation.  Bad arguments print a message on
stderr and exit with status 2.
"""

from __future__ import annotations

import sys

from games.engine.errors import EngineError
from games.engine.moves import apply_move, perft
from games.engine.multi import (
    MultiPosition,
    apply_multi_move,
    multi_perft,
    three_player_start,
)
from games.engine.position import resolve_start

USAGE = (
    "usage: python -m games.engine perft <standard|belgian|german|three|position> <depth>\n"
    "       python -m games.engine moves <standard|belgian|german|three|position>"
)


def _resolve(start: str):
    """A two-player :class:`Position`, or a :class:`MultiPosition` for ``three`` or a position
    string with three cell lists."""
    if start.strip().lower() == "three":
        return three_player_start()
    if start.count("|") == 3:
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
    except EngineError as error:
        return _fail(str(error))
    return _fail(f"unknown command {command!r}")


if __name__ == "__main__":
    sys.exit(main())
