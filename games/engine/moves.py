"""The move API: list, parse, validate and apply moves; perft.

Notation (see ``docs/game-records.md`` and the rules file):

- in-line move, pushes included: the trailing marble and the cell it moves to (``a1b2``); the
  group is the run of own marbles starting at the trailing one in that direction, which must be
  1-3 long;
- broadside: the two end marbles of the group and the destination of the first (``c3c5d4``);
  emitted with the ends in (row, digit) order, accepted in either order.

:func:`parse_move` checks the rules cell by cell and explains the first one broken;
:func:`legal_moves` uses the bitboard generator.  The test-suite checks that they agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.messages import gettext_noop
from games.engine.board import (
    DIRECTION_SHIFT,
    INDEX_OF_NAME,
    OPPOSITE,
    direction_between,
    step,
)
from games.engine.errors import IllegalMove
from games.engine.movegen import (
    BROADSIDE,
    INLINE,
    MOVES_BY_KEY,
    Move,
    perft_bits,
)
from games.engine.position import BLACK, WHITE, Position

_MAX_SHOWN = 24
_CELL_SHAPE = re.compile(r"[a-z][0-9]")


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What a move did on the board.

    - ``move``: the move played; ``mover``: its colour (``"b"``/``"w"``).
    - ``moved``: (from, to) cell pairs of the mover's marbles.
    - ``pushed``: (from, to) pairs of the pushed opponent marbles, nearest first; ``to`` is None for
      the marble pushed off the board.
    - ``pushed_off``: the cell from which an opponent marble left the board, or None.
    """

    move: Move
    mover: str
    moved: tuple[tuple[str, str], ...]
    pushed: tuple[tuple[str, str | None], ...]
    pushed_off: str | None

    @property
    def is_push_off(self) -> bool:
        """True iff an opponent marble left the board."""
        return self.pushed_off is not None


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of the side to move, each exactly once (deterministic order)."""
    return position.legal_moves()


def perft(position: Position, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` from ``position``."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    return perft_bits(*position.own_and_opponent_bits(), depth)


def _illegal(shown: str, reason: str, code: str, **params: object) -> IllegalMove:
    return IllegalMove(reason, code, subject=shown, **params)


def parse_move(position: Position, text: str) -> Move:
    """The move written as ``text`` in ``position``, checked against every rule.

    Accepts any case and surrounding whitespace, and both end orders for a broadside.  Raises
    :class:`IllegalMove` with the message ``<text, lower-cased>: <reason>`` and a ``code`` naming
    the rule: ``empty``, ``syntax``, ``not_a_cell``, ``not_adjacent``, ``not_in_line``,
    ``no_marble``, ``opponent_marble``, ``too_many``, ``own_off_board``, ``pac``,
    ``single_marble``, ``outnumbered``, ``blocked``, ``not_broadside``, ``off_board``,
    ``own_marble``, ``broadside_push``.
    """
    if not isinstance(text, str):
        raise IllegalMove(gettext_noop("a move must be text"), "syntax", subject=repr(text))
    cleaned = text.strip().lower()
    shown = cleaned if len(cleaned) <= _MAX_SHOWN else cleaned[:_MAX_SHOWN] + "..."
    if not cleaned:
        raise _illegal("(empty)", gettext_noop("no move given"), "empty")
    if len(cleaned) not in (4, 6):
        raise _illegal(
            shown,
            gettext_noop(
                "a move has 4 characters (in-line, e.g. a1b2) or 6 (broadside, e.g. c3c5d4), "
                "not %(count)s"
            ),
            "syntax",
            count=len(cleaned),
        )
    cells = [cleaned[i : i + 2] for i in range(0, len(cleaned), 2)]
    for cell in cells:
        if not _CELL_SHAPE.fullmatch(cell):
            raise _illegal(
                shown,
                gettext_noop("%(cell)r is not a cell name (a letter a-i and a digit 1-9)"),
                "syntax",
                cell=cell,
            )
        if cell not in INDEX_OF_NAME:
            raise _illegal(shown, gettext_noop("%(cell)s is not a cell"), "not_a_cell", cell=cell)
    own, opp = position.side_to_move, (WHITE if position.side_to_move == BLACK else BLACK)
    if len(cells) == 2:
        return _parse_inline(position, shown, cells[0], cells[1], own, opp)
    return _parse_broadside(position, shown, cells[0], cells[1], cells[2], own, opp)


def _check_own(position: Position, shown: str, cell: str, own: str) -> None:
    occupant = position.occupant(cell)
    if occupant is None:
        raise _illegal(shown, gettext_noop("%(cell)s holds no marble"), "no_marble", cell=cell)
    if occupant != own:
        raise _illegal(
            shown,
            gettext_noop("%(cell)s holds your opponent's marble"),
            "opponent_marble",
            cell=cell,
        )


def _parse_inline(
    position: Position, shown: str, trailing: str, target: str, own: str, opp: str
) -> Move:
    if trailing == target:
        raise _illegal(shown, gettext_noop("a move must go to a neighbouring cell"), "not_adjacent")
    direction = direction_between(trailing, target)
    if direction is None:
        raise _illegal(
            shown,
            gettext_noop("%(target)s is not next to %(cell)s"),
            "not_adjacent",
            target=target,
            cell=trailing,
        )
    _check_own(position, shown, trailing, own)
    group = [trailing]
    ahead = step(trailing, direction)
    while ahead is not None and position.occupant(ahead) == own:
        group.append(ahead)
        ahead = step(ahead, direction)
    if len(group) > 3:
        raise _illegal(
            shown,
            gettext_noop("more than 3 of your marbles in line (%(marbles)s); at most 3 move"),
            "too_many",
            marbles=", ".join(group),
        )
    if ahead is None:
        raise _illegal(
            shown,
            gettext_noop("this would move your own marble %(cell)s off the board"),
            "own_off_board",
            cell=group[-1],
        )
    size = len(group)
    column: list[str] = []
    beyond: str | None = ahead
    while beyond is not None and position.occupant(beyond) == opp:
        column.append(beyond)
        beyond = step(beyond, direction)
    pushed = len(column)
    if pushed:
        if pushed == size:
            raise _illegal(
                shown,
                gettext_noop("%(size)s against %(pushed)s is a pac, no push"),
                "pac",
                size=size,
                pushed=pushed,
            )
        if size == 1:
            raise _illegal(shown, gettext_noop("a single marble never pushes"), "single_marble")
        if pushed > size:
            raise _illegal(
                shown,
                gettext_noop(
                    "%(size)s against %(pushed)s: you must outnumber the marbles you push"
                ),
                "outnumbered",
                size=size,
                pushed=pushed,
            )
        if beyond is not None and position.occupant(beyond) is not None:
            raise _illegal(
                shown,
                gettext_noop("the push is blocked by a marble at %(cell)s"),
                "blocked",
                cell=beyond,
            )
    return MOVES_BY_KEY[(INLINE, INDEX_OF_NAME[trailing], direction, size, pushed)]


def _parse_broadside(
    position: Position, shown: str, first: str, last: str, target: str, own: str, opp: str
) -> Move:
    if first == last:
        raise _illegal(
            shown,
            gettext_noop("the two ends of a broadside must be different cells"),
            "not_in_line",
        )
    delta = INDEX_OF_NAME[last] - INDEX_OF_NAME[first]
    axis = None
    span = 0
    for direction, shift in DIRECTION_SHIFT.items():
        if delta % shift == 0 and delta // shift > 0:
            candidate_span = delta // shift
            # Walk the line so a wrap-around through the padding never counts as "in line".
            cell: str | None = first
            for _ in range(candidate_span):
                cell = step(cell, direction) if cell else None
            if cell == last:
                axis, span = direction, candidate_span
                break
    if axis is None:
        raise _illegal(
            shown,
            gettext_noop("%(first)s and %(last)s are not on one line"),
            "not_in_line",
            first=first,
            last=last,
        )
    if span > 2:
        raise _illegal(
            shown,
            gettext_noop("%(first)s to %(last)s is %(count)s marbles; a broadside moves 2 or 3"),
            "too_many",
            first=first,
            last=last,
            count=span + 1,
        )
    group = [first]
    for _ in range(span):
        group.append(step(group[-1], axis))
    for cell in group:
        _check_own(position, shown, cell, own)
    direction = direction_between(first, target)
    if direction is None:
        raise _illegal(
            shown,
            gettext_noop("%(target)s is not next to %(cell)s"),
            "not_adjacent",
            target=target,
            cell=first,
        )
    if direction in (axis, OPPOSITE[axis]):
        raise _illegal(
            shown,
            gettext_noop(
                "the destination lies along the group's line: write an in-line move with 4 "
                "characters (trailing marble, its destination)"
            ),
            "not_broadside",
        )
    for cell in group:
        destination = step(cell, direction)
        if destination is None:
            raise _illegal(
                shown,
                gettext_noop("this would move your own marble %(cell)s off the board"),
                "off_board",
                cell=cell,
            )
        occupant = position.occupant(destination)
        if occupant == own:
            raise _illegal(
                shown,
                gettext_noop("%(cell)s holds your own marble"),
                "own_marble",
                cell=destination,
            )
        if occupant == opp:
            raise _illegal(
                shown,
                gettext_noop("%(cell)s holds an opponent's marble; a broadside never pushes"),
                "broadside_push",
                cell=destination,
            )
    ordered = sorted(group, key=INDEX_OF_NAME.__getitem__)
    axis_shift = abs(DIRECTION_SHIFT[axis])
    return MOVES_BY_KEY[(BROADSIDE, INDEX_OF_NAME[ordered[0]], axis_shift, len(group), direction)]


def apply_move(position: Position, move: Move | str) -> tuple[Position, MoveOutcome]:
    """Play ``move`` (a :class:`Move` or its notation) in ``position``.

    Returns the new position (other side to move) and what happened.  Raises
    :class:`IllegalMove` if the move is not legal in ``position`` (e.g. a Move taken from another
    position); ``position`` itself is never changed (it is immutable).
    """
    if isinstance(move, str):
        move = parse_move(position, move)
    elif not isinstance(move, Move):
        raise IllegalMove(gettext_noop("not a move"), "syntax", subject=repr(move))
    own, opp = position.own_and_opponent_bits()
    if not move.is_legal_in(own, opp):
        reparsed = parse_move(position, move.notation)  # raises with the precise reason
        raise _illegal(
            move.notation,
            gettext_noop("in this position it moves %(marbles)s, not %(given)s"),
            "not_legal",
            marbles=", ".join(reparsed.marbles),
            given=", ".join(move.marbles),
        )
    new_own = own ^ move.own_xor
    new_opp = opp ^ move.opp_xor
    mover = position.side_to_move
    if mover == BLACK:
        new_position = Position(WHITE, new_own, new_opp)
    else:
        new_position = Position(BLACK, new_opp, new_own)
    pushed = tuple(
        (cell, step(cell, move.direction) if cell != move.pushed_off else None)
        for cell in move.pushed
    )
    outcome = MoveOutcome(
        move=move,
        mover=mover,
        moved=tuple(zip(move.marbles, move.destinations, strict=True)),
        pushed=pushed,
        pushed_off=move.pushed_off,
    )
    return new_position, outcome
