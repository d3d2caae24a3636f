"""Board geometry: cells, names, directions and the bit layout used by the move generator.

The 61 cells of the hexagon are addressed by row ``r`` (0 for row ``a`` .. 8 for row ``i``) and
diagonal ``d`` (0 for digit ``1`` .. 8 for digit ``9``); a pair is a cell iff ``|d - r| <= 4``.

For speed the engine stores a set of cells as one Python ``int`` (a bitboard) on a padded grid of
11 columns per row: cell ``(r, d)`` is bit ``(r + 1) * 11 + (d + 1)``.  With the padding ring
every direction is a fixed shift (E +1, NE +12, NW +11 and their negatives), a step off the board
always lands on a padding bit (never wraps onto another cell) and no neighbour of a cell has a
negative index.  ``VALID`` is the mask of the 61 cells, ``FULL`` covers the padded grid.

This module is pure geometry: no game state, no Django.
"""

from __future__ import annotations

ROW_LETTERS = "abcdefghi"
ROW_WIDTH = 11
BOARD_SIZE = 9

#: Direction name -> (row step, diagonal step), as in the rules.
DIRECTION_STEPS: dict[str, tuple[int, int]] = {
    "E": (0, 1),
    "W": (0, -1),
    "NE": (1, 1),
    "SW": (-1, -1),
    "NW": (1, 0),
    "SE": (-1, 0),
}
#: Direction names in a fixed order; opposite directions are adjacent pairs (E/W, NE/SW, NW/SE).
DIRECTIONS: tuple[str, ...] = tuple(DIRECTION_STEPS)
OPPOSITE: dict[str, str] = {"E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}
#: Bit shift of one step in each direction on the padded grid.
DIRECTION_SHIFT: dict[str, int] = {
    name: dr * ROW_WIDTH + dd for name, (dr, dd) in DIRECTION_STEPS.items()
}


def is_cell(row: int, diagonal: int) -> bool:
    """True iff (row, diagonal) is one of the 61 cells."""
    return 0 <= row < BOARD_SIZE and 0 <= diagonal < BOARD_SIZE and abs(diagonal - row) <= 4


def bit_index(row: int, diagonal: int) -> int:
    """Bit position of a (row, diagonal) pair on the padded grid (also defined for padding)."""
    return (row + 1) * ROW_WIDTH + (diagonal + 1)


def coordinates_of_index(index: int) -> tuple[int, int]:
    """Inverse of :func:`bit_index`."""
    padded_row, padded_diagonal = divmod(index, ROW_WIDTH)
    return padded_row - 1, padded_diagonal - 1


def cell_name(row: int, diagonal: int) -> str:
    """Lower-case name of a cell, e.g. ``(0, 0) -> "a1"``."""
    return f"{ROW_LETTERS[row]}{diagonal + 1}"


#: All cells as (row, diagonal), in (row, digit) order, which is also ascending bit order.
CELLS: tuple[tuple[int, int], ...] = tuple(
    (row, diagonal)
    for row in range(BOARD_SIZE)
    for diagonal in range(BOARD_SIZE)
    if is_cell(row, diagonal)
)
CELL_NAMES: tuple[str, ...] = tuple(cell_name(r, d) for r, d in CELLS)
#: Cell name -> bit index.
INDEX_OF_NAME: dict[str, int] = {cell_name(r, d): bit_index(r, d) for r, d in CELLS}
#: Bit index -> cell name (only for the 61 cells).
NAME_OF_INDEX: dict[int, str] = {index: name for name, index in INDEX_OF_NAME.items()}

VALID: int = sum(1 << bit_index(r, d) for r, d in CELLS)
FULL: int = (1 << (ROW_WIDTH * (BOARD_SIZE + 2))) - 1

assert len(CELLS) == 61
assert min(INDEX_OF_NAME.values()) - 12 >= 0
assert max(INDEX_OF_NAME.values()) + 12 < FULL.bit_length()


def bits_of_names(names: list[str] | tuple[str, ...]) -> int:
    """Bitboard of the given (valid, lower-case) cell names."""
    bits = 0
    for name in names:
        bits |= 1 << INDEX_OF_NAME[name]
    return bits


def names_of_bits(bits: int) -> tuple[str, ...]:
    """Cell names of a bitboard, in (row, digit) order."""
    names = []
    while bits:
        low = bits & -bits
        names.append(NAME_OF_INDEX[low.bit_length() - 1])
        bits ^= low
    return tuple(names)


def step(name: str, direction: str) -> str | None:
    """The neighbour of a cell in a direction, or None when that step leaves the board."""
    index = INDEX_OF_NAME[name] + DIRECTION_SHIFT[direction]
    return NAME_OF_INDEX.get(index)


def direction_between(from_name: str, to_name: str) -> str | None:
    """The direction of a single step from one cell to an adjacent one, else None."""
    delta = INDEX_OF_NAME[to_name] - INDEX_OF_NAME[from_name]
    for direction, shift in DIRECTION_SHIFT.items():
        if shift == delta:
            return direction
    return None


# --- symmetries -------------------------------------------------------------------------------
# Relative to the centre e5, a cell is (p, q) = (r - 4, d - 4); the hexagon is |p|, |q|,
# |q - p| <= 4.  Rotating by 60 degrees maps (p, q) -> (q, q - p) (E -> NE -> NW -> W ...),
# and the mirror swaps p and q (E <-> NW, NE fixed).


def _rotate(row: int, diagonal: int) -> tuple[int, int]:
    p, q = row - 4, diagonal - 4
    return q + 4, (q - p) + 4


def _mirror(row: int, diagonal: int) -> tuple[int, int]:
    return diagonal, row


def symmetry_maps() -> list[dict[str, str]]:
    """The 12 symmetries of the board (6 rotations, each with and without mirror) as name maps."""
    maps = []
    for mirrored in (False, True):
        for turns in range(6):
            mapping = {}
            for row, diagonal in CELLS:
                r, d = (row, diagonal)
                if mirrored:
                    r, d = _mirror(r, d)
                for _ in range(turns):
                    r, d = _rotate(r, d)
                mapping[cell_name(row, diagonal)] = cell_name(r, d)
            maps.append(mapping)
    return maps
