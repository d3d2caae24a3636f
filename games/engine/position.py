"""Positions: who is to move and where the marbles stand, as an immutable, hashable value.

Colours are the strings ``"b"`` (Black, moves first) and ``"w"`` (White), exported as ``BLACK``
and ``WHITE``.  Internally each side's marbles are a bitboard (see :mod:`games.engine.board`).
"""

from __future__ import annotations

import re

from core.messages import Term, gettext_noop
from games.engine.board import INDEX_OF_NAME, bits_of_names, names_of_bits
from games.engine.errors import PositionError
from games.engine.movegen import Move, count_moves, generate_moves, has_moves

BLACK = "b"
WHITE = "w"
COLOURS = (BLACK, WHITE)
COLOUR_NAMES = {BLACK: "Black", WHITE: "White"}
MARBLES_PER_SIDE = 14

_COLOUR_ALIASES = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


def normalise_colour(colour: str) -> str:
    """``"b"``/``"black"``/``"w"``/``"white"`` in any case -> ``"b"`` or ``"w"``."""
    try:
        return _COLOUR_ALIASES[colour.strip().lower()]
    except (KeyError, AttributeError):
        raise PositionError(
            gettext_noop("%(colour)r is not a colour (b or w)"), code="bad_colour", colour=colour
        ) from None


def opponent(colour: str) -> str:
    """The other colour."""
    return WHITE if normalise_colour(colour) == BLACK else BLACK


class Position:
    """Side to move plus the cells of both sides; immutable and hashable.

    Build one with :meth:`from_string`, :meth:`from_cells` or :func:`start_position`.  Two
    positions are equal iff the same side is to move and every marble stands on the same cell.
    """

    __slots__ = ("_side", "_black", "_white", "_hash", "_string")

    def __init__(self, side_to_move: str, black_bits: int, white_bits: int) -> None:
        """Low-level constructor from bitboards; the caller guarantees a legal layout.

        Prefer :meth:`from_cells` or :meth:`from_string`, which validate their input.
        """
        self._side = side_to_move
        self._black = black_bits
        self._white = white_bits
        self._hash = hash((side_to_move, black_bits, white_bits))
        self._string: str | None = None  # to_string's, once asked

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def from_cells(
        cls,
        side_to_move: str,
        black: list[str] | tuple[str, ...],
        white: list[str] | tuple[str, ...],
    ) -> Position:
        """A validated position from cell names (any case).

        Raises :class:`PositionError` for a bad colour, a name that is not a cell, a cell listed
        twice, a cell holding both colours, or more than 14 marbles of one side.
        """
        side = normalise_colour(side_to_move)
        black_bits = _parse_cells(black, "Black")
        white_bits = _parse_cells(white, "White")
        both = black_bits & white_bits
        if both:
            cells = ", ".join(names_of_bits(both))
            raise PositionError(
                gettext_noop("cells hold both a black and a white marble: %(cells)s"),
                "overlap",
                cells=cells,
            )
        return cls(side, black_bits, white_bits)

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Parse a position string ``<side>|<black cells>|<white cells>``, e.g. ``b|a1,a2|i9``.

        Accepts any case and spaces around items; either cell list may be empty.  Raises
        :class:`PositionError` naming the problem.
        """
        if not isinstance(text, str):
            raise PositionError(gettext_noop("a position string must be text"), "syntax")
        parts = text.strip().split("|")
        if len(parts) != 3:
            raise PositionError(
                gettext_noop(
                    "a position string has three parts separated by '|': "
                    "side to move, Black's cells, White's cells"
                ),
                "syntax",
                subject=repr(text.strip()),
            )
        side, black, white = (part.strip() for part in parts)
        if side.lower() not in (BLACK, WHITE):
            raise PositionError(
                gettext_noop("side to move must be 'b' or 'w', not %(side)r"),
                "bad_colour",
                side=side,
            )
        return cls.from_cells(side, _split_cells(black), _split_cells(white))

    def to_string(self) -> str:
        """The position string, cells lower case in (row, digit) order (worked out once: a move
        is stored, checked and published with it)."""
        if self._string is None:
            self._string = f"{self._side}|{','.join(self.black_cells)}|{','.join(self.white_cells)}"
        return self._string

    # --- queries --------------------------------------------------------------------------------

    @property
    def side_to_move(self) -> str:
        """``"b"`` or ``"w"``."""
        return self._side

    @property
    def black_cells(self) -> tuple[str, ...]:
        """Cells of Black's marbles in (row, digit) order."""
        return names_of_bits(self._black)

    @property
    def white_cells(self) -> tuple[str, ...]:
        """Cells of White's marbles in (row, digit) order."""
        return names_of_bits(self._white)

    @property
    def black_bits(self) -> int:
        """Black's bitboard (engine internal layout)."""
        return self._black

    @property
    def white_bits(self) -> int:
        """White's bitboard (engine internal layout)."""
        return self._white

    def cells(self, colour: str) -> tuple[str, ...]:
        """Cells of one colour's marbles."""
        return self.black_cells if normalise_colour(colour) == BLACK else self.white_cells

    def marbles_on_board(self, colour: str) -> int:
        """How many marbles of a colour are on the board."""
        bits = self._black if normalise_colour(colour) == BLACK else self._white
        return bits.bit_count()

    def pushed_off(self, colour: str) -> int:
        """Marbles of ``colour`` that are off the board: 14 minus those on it."""
        return MARBLES_PER_SIDE - self.marbles_on_board(colour)

    def occupant(self, cell: str) -> str | None:
        """``"b"``, ``"w"`` or None for an empty cell (cell name in any case).

        Raises :class:`PositionError` if ``cell`` is not a cell name.
        """
        index = INDEX_OF_NAME.get(cell.strip().lower()) if isinstance(cell, str) else None
        if index is None:
            raise PositionError(gettext_noop("%(cell)r is not a cell"), "not_a_cell", cell=cell)
        bit = 1 << index
        if self._black & bit:
            return BLACK
        if self._white & bit:
            return WHITE
        return None

    def own_and_opponent_bits(self) -> tuple[int, int]:
        """(bitboard of the side to move, bitboard of the other side)."""
        if self._side == BLACK:
            return self._black, self._white
        return self._white, self._black

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (see :func:`games.engine.legal_moves`)."""
        return generate_moves(*self.own_and_opponent_bits())

    def count_legal_moves(self) -> int:
        """How many legal moves the side to move has, without building them."""
        return count_moves(*self.own_and_opponent_bits())

    def has_legal_move(self) -> bool:
        """True iff the side to move can move at all."""
        return has_moves(*self.own_and_opponent_bits())

    def with_side_to_move(self, colour: str) -> Position:
        """The same layout with another side to move."""
        return Position(normalise_colour(colour), self._black, self._white)

    # --- value semantics ------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self._side == other._side
            and self._black == other._black
            and self._white == other._white
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        # rebuild rather than restore _hash: string hashes differ between processes
        return (Position, (self._side, self._black, self._white))

    def __repr__(self) -> str:
        return f"Position.from_string({self.to_string()!r})"

    def __str__(self) -> str:
        return self.to_string()


_CELL_PATTERN = re.compile(r"[a-i][1-9]")


def _split_cells(text: str) -> list[str]:
    return [] if not text else [item.strip() for item in text.split(",")]


def _parse_cells(names: list[str] | tuple[str, ...], owner: str) -> int:
    bits = 0
    for raw in names:
        name = raw.strip().lower() if isinstance(raw, str) else raw
        if (
            not isinstance(name, str)
            or not _CELL_PATTERN.fullmatch(name)
            or (name not in INDEX_OF_NAME)
        ):
            raise PositionError(
                gettext_noop("%(cell)r is not a cell"), "not_a_cell", subject=Term(owner), cell=raw
            )
        bit = 1 << INDEX_OF_NAME[name]
        if bits & bit:
            raise PositionError(
                gettext_noop("%(cell)s is listed twice"),
                "duplicate",
                subject=Term(owner),
                cell=name,
            )
        bits |= bit
    if bits.bit_count() > MARBLES_PER_SIDE:
        raise PositionError(
            gettext_noop("%(colour)s has %(count)s marbles; at most %(limit)s"),
            "too_many_marbles",
            colour=Term(owner),
            count=bits.bit_count(),
            limit=MARBLES_PER_SIDE,
        )
    return bits


# --- starting positions ---------------------------------------------------------------------------

START_LAYOUTS: dict[str, tuple[str, str]] = {
    "standard": (
        "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
        "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
    ),
    "belgian": (
        "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
        "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
    ),
    "german": (
        "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
        "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
    ),
}
#: Names of the built-in starts: ``standard``, ``belgian`` (Belgian Daisy), ``german`` (German
#: Daisy) and ``placement`` (an empty board and the placement phase).
START_NAMES: tuple[str, ...] = (*START_LAYOUTS, "placement")

STANDARD_START = Position(BLACK, *(bits_of_names(s.split()) for s in START_LAYOUTS["standard"]))
BELGIAN_DAISY_START = Position(BLACK, *(bits_of_names(s.split()) for s in START_LAYOUTS["belgian"]))
GERMAN_DAISY_START = Position(BLACK, *(bits_of_names(s.split()) for s in START_LAYOUTS["german"]))
#: The empty board of a game that starts with the placement phase (``games.engine.placement``).
PLACEMENT_START = Position(BLACK, 0, 0)
_STARTS = {
    "standard": STANDARD_START,
    "belgian": BELGIAN_DAISY_START,
    "german": GERMAN_DAISY_START,
    "placement": PLACEMENT_START,
}


def start_position(name: str) -> Position:
    """The named start (``standard``, ``belgian``, ``german``, ``placement``: the empty board;
    any case), Black to move.

    Raises :class:`PositionError` for an unknown name.
    """
    try:
        return _STARTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise PositionError(
            gettext_noop("unknown start %(name)r: use standard, belgian, german or placement"),
            "unknown_start",
            name=name,
        ) from None


def resolve_start(start: str | Position) -> Position:
    """A start given as a :class:`Position`, a start name or a position string -> Position."""
    if isinstance(start, Position):
        return start
    if not isinstance(start, str):
        raise PositionError(
            gettext_noop("a start must be a name, a position string or a Position"), "syntax"
        )
    if start.strip().lower() in _STARTS:
        return _STARTS[start.strip().lower()]
    if "|" in start:
        return Position.from_string(start)
    return start_position(start)


def start_label(position: Position) -> str:
    """The start name if ``position`` is a built-in start, else its position string."""
    for name, start in _STARTS.items():
        if start == position:
            return name
    return position.to_string()
