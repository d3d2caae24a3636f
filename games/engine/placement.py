"""The placement phase: "the players may also place their marbles one after the other instead of
using the start position" (the German web edition of the rules; ``../shared/abalone-rules.md``,
"Starting positions", *Alternate placement*).

The game starts on an empty board. The players place one marble each in turn order on any empty
cell until each has placed the game's marble count; then the first player makes the first move.
A placement is a turn like a move: on the clock, in the record, written ``@e5``. Pure, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.messages import gettext_noop
from games.engine.board import INDEX_OF_NAME, VALID, names_of_bits
from games.engine.errors import IllegalMove

PLACEMENT_PREFIX = "@"
_PLACEMENT = re.compile(r"@\s*([a-i][1-9])")


@dataclass(frozen=True, slots=True)
class Placement:
    """A marble placed on ``cell`` during the placement phase (notation ``@e5``)."""

    cell: str
    kind = "placement"

    @property
    def notation(self) -> str:
        return PLACEMENT_PREFIX + self.cell

    @property
    def bit(self) -> int:
        return 1 << INDEX_OF_NAME[self.cell]


def is_placement_text(text: object) -> bool:
    """True iff ``text`` is written as a placement (starts with ``@``)."""
    return isinstance(text, str) and text.strip().startswith(PLACEMENT_PREFIX)


def placements(occupied: int) -> list[Placement]:
    """Every placement open on a board whose occupied cells are ``occupied`` (a bitboard), in
    (row, digit) order."""
    return [Placement(name) for name in names_of_bits(VALID & ~occupied)]


def parse_placement(occupied: int, move: Placement | str) -> Placement:
    """The placement ``move`` (``@e5``, any case, or a :class:`Placement`) on a board whose
    occupied cells are ``occupied``; raises :class:`IllegalMove` naming the problem."""
    if isinstance(move, Placement):
        placement = move
    else:
        shown = str(move).strip().lower()
        match = _PLACEMENT.fullmatch(shown)
        if match is None or match.group(1) not in INDEX_OF_NAME:
            raise IllegalMove(
                gettext_noop("a placement is '@' and an empty cell, e.g. @e5"),
                "bad_placement",
                subject=shown,
            )
        placement = Placement(match.group(1))
    if placement.cell not in INDEX_OF_NAME:
        raise IllegalMove(gettext_noop("not a cell"), "bad_placement", subject=placement.notation)
    if occupied & placement.bit:
        raise IllegalMove(
            gettext_noop("%(cell)s is occupied; place on an empty cell"),
            "cell_occupied",
            subject=placement.notation,
            cell=placement.cell,
        )
    return placement


def placement_over_error(move: object) -> IllegalMove:
    shown = getattr(move, "notation", None) or str(move).strip().lower()
    return IllegalMove(
        gettext_noop("the placement phase is over; every marble has been placed"),
        "placement_over",
        subject=shown,
    )
