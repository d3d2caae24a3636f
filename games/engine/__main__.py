"""Command line: ``python -m games.engine perft <start> <depth>`` / ``moves <start>``.

``<start>`` is ``standard``, ``belgian``, ``german`` or a position string.  ``perft`` prints the
number of move sequences of that length; ``moves`` prints every legal move as
``<notation> <resulting position string>``, sorted by notation.  Bad arguments print a message on
stderr and exit with status 2.
"""

from __future__ import annotations

import sys

from games.engine.errors import EngineError
from games.engine.moves import apply_move, perft
from games.engine.position import resolve_start

USAGE = (
    "usage: python -m games.engine perft <standard|belgian|german|position> <depth>\n"
    "       python -m games.engine moves <standard|belgian|german|position>"
)


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
            position = resolve_start(rest[0])
            print(perft(position, int(rest[1])))
            return 0
        if command == "moves":
            if len(rest) != 1:
                return _fail("moves takes one start")
            position = resolve_start(rest[0])
            lines = sorted(
                f"{move.notation} {apply_move(position, move)[0].to_string()}"
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
