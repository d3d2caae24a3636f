"""Bitboard move generation: the fast core of the engine.

A side's marbles are one ``int`` (see :mod:`games.engine.board`).  For each direction, group size
and push shape the set of legal *anchor* cells (the trailing marble of an in-line move, the lowest
cell of a broadside group) is computed for the whole board at once with a handful of shifts and
ands; the number of legal moves is the sum of the popcounts, and the moves themselves are looked up
from tables of precomputed :class:`Move` values, one per (category, anchor cell).

Every geometrically possible move exists exactly once as a :class:`Move` instance, built at import
time with its notation, cells and the xor masks that apply it, so generating and applying moves
allocates nothing but the result list and the new position.

Move categories, in the fixed order shared by :func:`category_masks` and ``CATEGORY_TABLES``: for
each axis (E, NW, NE) first the in-line moves forward then backward along it, each as
1, 2, 3 marbles into an empty cell, then 2v1, 3v1, 3v2 pushes; then the broadsides of groups lying
on that axis, for each of the four other directions a group of 2 then of 3.
"""

from __future__ import annotations

from games.engine.board import (
    DIRECTION_SHIFT,
    DIRECTIONS,
    FULL,
    INDEX_OF_NAME,
    NAME_OF_INDEX,
    OPPOSITE,
    VALID,
)

INLINE = "inline"
BROADSIDE = "broadside"

#: (forward direction, its shift) of the three axes, in category order.
AXES: tuple[tuple[str, int], ...] = (("E", 1), ("NW", 11), ("NE", 12))
#: In-line shapes (group size, pushed opponent marbles) in category order.
INLINE_SHAPES: tuple[tuple[int, int], ...] = ((1, 0), (2, 0), (3, 0), (2, 1), (3, 1), (3, 2))


class Move:
    """One move, as a value: which marbles move where, and what it pushes.

    Attributes (all read-only by convention):

    - ``notation``: the unique canonical notation, lower case (``"a1b2"``, ``"c3c5d4"``).
    - ``kind``: ``"inline"`` or ``"broadside"``.
    - ``direction``: one of ``E W NE SW NW SE``.
    - ``marbles``: the moved own marbles' cells; trailing to leading for an in-line move,
      (row, digit) order for a broadside.
    - ``destinations``: where each of ``marbles`` goes, in the same order.
    - ``pushed``: cells of the pushed opponent marbles, nearest first (empty tuple if no push).
    - ``pushed_off``: the cell from which an opponent marble leaves the board, or None.

    Moves are compared and hashed by their geometry, so the same move found in two positions is
    equal.  Instances are only created by the engine (see :func:`legal_moves` and
    :func:`parse_move` in :mod:`games.engine.moves`).
    """

    __slots__ = (
        "notation",
        "kind",
        "direction",
        "marbles",
        "destinations",
        "pushed",
        "pushed_off",
        "own_xor",
        "opp_xor",
        "own_need",
        "opp_need",
        "empty_need",
        "key",
        "_hash",
    )

    notation: str
    kind: str
    direction: str
    marbles: tuple[str, ...]
    destinations: tuple[str, ...]
    pushed: tuple[str, ...]
    pushed_off: str | None
    own_xor: int
    opp_xor: int
    own_need: int
    opp_need: int
    empty_need: int
    key: tuple

    @property
    def group_size(self) -> int:
        """Number of own marbles moved (1-3)."""
        return len(self.marbles)

    @property
    def is_push(self) -> bool:
        """True iff the move pushes opponent marbles."""
        return bool(self.pushed)

    def is_legal_in(self, own: int, opp: int) -> bool:
        """True iff this move is legal for the side owning ``own`` against ``opp`` (bitboards).

        The stored masks encode the full legality condition: the group is own, the pushed column
        is the opponent's, and the cell that must be free (destination, or the cell behind the
        pushed column when it is on the board) is empty.
        """
        return (
            own & self.own_need == self.own_need
            and opp & self.opp_need == self.opp_need
            and not (own | opp) & self.empty_need
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move values are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Move values are immutable")

    def __reduce__(self) -> tuple:
        # pickle and copy by key: the unpickled value is the shared table instance
        return (_move_by_key, (self.key,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash  # the key's, worked out once (documents and caches look moves up)

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"

    def __str__(self) -> str:
        return self.notation


def _bit(index: int) -> int:
    return 1 << index


_set = object.__setattr__  # Move forbids assignment; only these builders fill one in


def _set_key(move: Move, key: tuple) -> None:
    _set(move, "key", key)
    _set(move, "_hash", hash(key))


def _make_inline(trailing: int, direction: str, size: int, pushed_count: int) -> Move | None:
    """The in-line move of `size` marbles from `trailing` pushing `pushed_count`, if it fits."""
    shift = DIRECTION_SHIFT[direction]
    group = [trailing + i * shift for i in range(size)]
    column = [trailing + (size + i) * shift for i in range(pushed_count)]
    beyond = trailing + (size + pushed_count) * shift
    if any(index not in NAME_OF_INDEX for index in group + column):
        return None
    if pushed_count == 0 and beyond not in NAME_OF_INDEX:
        return None  # would move an own marble off the board
    move = Move()
    _set(move, "kind", INLINE)
    _set(move, "direction", direction)
    _set(move, "marbles", tuple(NAME_OF_INDEX[i] for i in group))
    _set(move, "destinations", tuple(NAME_OF_INDEX[i + shift] for i in group))
    _set(move, "pushed", tuple(NAME_OF_INDEX[i] for i in column))
    beyond_on_board = beyond in NAME_OF_INDEX
    _set(move, "pushed_off", move.pushed[-1] if pushed_count and not beyond_on_board else None)
    _set(move, "notation", NAME_OF_INDEX[trailing] + NAME_OF_INDEX[trailing + shift])
    lead_target = trailing + size * shift
    _set(move, "own_xor", _bit(trailing) | _bit(lead_target))
    _set(move, "own_need", sum(_bit(i) for i in group))
    _set(move, "opp_need", sum(_bit(i) for i in column))
    if pushed_count:
        _set(move, "opp_xor", _bit(lead_target) | (_bit(beyond) if beyond_on_board else 0))
    else:
        _set(move, "opp_xor", 0)
    _set(move, "empty_need", _bit(beyond) if beyond_on_board else 0)
    _set_key(move, (INLINE, trailing, direction, size, pushed_count))
    return move


def _make_broadside(first: int, axis_shift: int, size: int, direction: str) -> Move | None:
    """The broadside of the group ``first, first + axis, ...`` (``size`` cells), if it fits."""
    shift = DIRECTION_SHIFT[direction]
    group = [first + i * axis_shift for i in range(size)]
    targets = [i + shift for i in group]
    if any(index not in NAME_OF_INDEX for index in group + targets):
        return None
    move = Move()
    _set(move, "kind", BROADSIDE)
    _set(move, "direction", direction)
    _set(move, "marbles", tuple(NAME_OF_INDEX[i] for i in group))
    _set(move, "destinations", tuple(NAME_OF_INDEX[i] for i in targets))
    _set(move, "pushed", ())
    _set(move, "pushed_off", None)
    _set(
        move,
        "notation",
        NAME_OF_INDEX[group[0]] + NAME_OF_INDEX[group[-1]] + NAME_OF_INDEX[targets[0]],
    )
    group_bits = sum(_bit(i) for i in group)
    target_bits = sum(_bit(i) for i in targets)
    _set(move, "own_xor", group_bits | target_bits)
    _set(move, "opp_xor", 0)
    _set(move, "own_need", group_bits)
    _set(move, "opp_need", 0)
    _set(move, "empty_need", target_bits)
    _set_key(move, (BROADSIDE, first, axis_shift, size, direction))
    return move


def _broadside_directions(axis_direction: str) -> tuple[str, ...]:
    """The four directions not along an axis, in the order used by the categories."""
    along = {axis_direction, OPPOSITE[axis_direction]}
    return tuple(d for d in DIRECTIONS if d not in along)


def _build_tables() -> tuple[list[dict[int, Move]], dict[tuple, Move]]:
    tables: list[dict[int, Move]] = []
    by_key: dict[tuple, Move] = {}
    cells = sorted(INDEX_OF_NAME.values())
    for axis_direction, axis_shift in AXES:
        for direction in (axis_direction, OPPOSITE[axis_direction]):
            for size, pushed_count in INLINE_SHAPES:
                table = {}
                for cell in cells:
                    move = _make_inline(cell, direction, size, pushed_count)
                    if move is not None:
                        table[_bit(cell)] = move
                        by_key[move.key] = move
                tables.append(table)
        for direction in _broadside_directions(axis_direction):
            for size in (2, 3):
                table = {}
                for cell in cells:
                    move = _make_broadside(cell, axis_shift, size, direction)
                    if move is not None:
                        table[_bit(cell)] = move
                        by_key[move.key] = move
                tables.append(table)
    return tables, by_key


CATEGORY_TABLES, MOVES_BY_KEY = _build_tables()


def _move_by_key(key: tuple) -> Move:
    return MOVES_BY_KEY[key]


def category_masks(own: int, opp: int) -> list[int]:
    """For each move category (module docstring order), the bitboard of legal anchor cells.

    ``own`` are the marbles of the side to move, ``opp`` the opponent's.  A set bit means the
    move of that category anchored at that cell is legal; the move it stands for is
    ``CATEGORY_TABLES[i][bit]``.
    """
    occupied = own | opp
    empty = VALID ^ occupied  # empty cells on the board
    free = FULL ^ occupied  # empty cells and the padding ring (off the board)
    # Cells whose neighbour in a direction is empty, per direction.
    to_e, to_w = empty >> 1, empty << 1
    to_nw, to_se = empty >> 11, empty << 11
    to_ne, to_sw = empty >> 12, empty << 12
    masks: list[int] = []
    append = masks.append
    for shift1, forward_empty, backward_empty, side_steps in (
        (1, to_e, to_w, (to_ne, to_sw, to_nw, to_se)),
        (11, to_nw, to_se, (to_e, to_w, to_ne, to_sw)),
        (12, to_ne, to_sw, (to_e, to_w, to_nw, to_se)),
    ):
        shift2, shift3, shift4, shift5 = 2 * shift1, 3 * shift1, 4 * shift1, 5 * shift1
        # Forward (+shift1): a set bit in `pair` / `triple` is an own marble t with t+1 step
        # (and t+2 steps) own too; each append is one category, in INLINE_SHAPES order.
        pair = own & (own >> shift1)
        triple = pair & (own >> shift2)
        append(own & forward_empty)
        append(pair & (empty >> shift2))
        append(triple & (empty >> shift3))
        append(pair & (opp >> shift2) & (free >> shift3))
        three_against = triple & (opp >> shift3)
        append(three_against & (free >> shift4))
        append(three_against & (opp >> shift4) & (free >> shift5))
        # Backward (-shift1): the same with the shifts reversed.
        back_pair = own & (own << shift1)
        back_triple = back_pair & (own << shift2)
        append(own & backward_empty)
        append(back_pair & (empty << shift2))
        append(back_triple & (empty << shift3))
        append(back_pair & (opp << shift2) & (free << shift3))
        three_against = back_triple & (opp << shift3)
        append(three_against & (free << shift4))
        append(three_against & (opp << shift4) & (free << shift5))
        # Broadsides of groups on this axis, anchored at their lowest cell.
        for side_empty in side_steps:
            two = pair & side_empty & (side_empty >> shift1)
            append(two)
            append(two & ((own & side_empty) >> shift2))
    return masks


def count_moves(own: int, opp: int) -> int:
    """Number of legal moves of the side owning ``own``, without building them."""
    total = 0
    for mask in category_masks(own, opp):
        total += mask.bit_count()
    return total


def has_moves(own: int, opp: int) -> bool:
    """True iff the side owning ``own`` has a legal move.

    Almost always answered by the cheapest move there is: one marble stepping into a neighbouring
    empty cell, which is legal whatever else is on the board. Only a side with no marble next to
    an empty cell needs the full count.
    """
    empty = VALID ^ (own | opp)
    steps = (
        (empty >> 1) | (empty << 1) | (empty >> 11) | (empty << 11) | (empty >> 12) | (empty << 12)
    )
    return bool(own & steps) or count_moves(own, opp) > 0


def generate_moves(own: int, opp: int) -> list[Move]:
    """All legal moves of the side owning ``own``, in category order (deterministic)."""
    moves: list[Move] = []
    append = moves.append
    for mask, table in zip(category_masks(own, opp), CATEGORY_TABLES, strict=True):
        while mask:
            low = mask & -mask
            append(table[low])
            mask ^= low
    return moves


def perft_bits(own: int, opp: int, depth: int) -> int:
    """Number of move sequences of length ``depth`` from a position given as bitboards.

    The last ply is counted in bulk with :func:`count_moves`.  A position without legal moves
    contributes no sequences (the game is over there).
    """
    if depth <= 0:
        return 1
    if depth == 1:
        return count_moves(own, opp)
    total = 0
    next_depth = depth - 1
    for move in generate_moves(own, opp):
        total += perft_bits(opp ^ move.opp_xor, own ^ move.own_xor, next_depth)
    return total
