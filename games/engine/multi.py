"""Abalone for more than two players: three colours by the publisher's rule
(``../shared/abalone-rules.md``, "More than two players"; ``docs/rules-multiplayer.md``).

Pure, like the rest of the engine. The two-player engine is not touched (it stays exactly as
fast); this module reuses its move generator, because the rules make a move of N colours the
two-player move of the mover against *all other marbles at once*: the same shapes, the same
push arithmetic (2v1, 3v1, 3v2; at most three of yours count), a pushed column that may mix the
opponents' colours, and any marble behind the column (of any colour, the mover's own included)
blocking it. So the legal moves of a position are ``generate_moves(mine, everyone else's)``, with
the same notation, and applying one moves the mover's marbles and shifts each pushed marble one
step, keeping its colour (the last one off the board when the push ejects it).

A position is the colour to move and one bitboard per colour in turn order (Black, White, Red).
Its string extends the two-player form: ``r|<Black's cells>|<White's>|<Red's>``. How many
marbles each player pushed off (credited to the mover, whatever the colour) is not in the
position: :class:`MultiGame` counts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine.board import DIRECTION_SHIFT, INDEX_OF_NAME, VALID, bits_of_names, names_of_bits
from games.engine.errors import EngineError, IllegalMove, PositionError
from games.engine.movegen import Move, count_moves, generate_moves
from games.engine.moves import parse_move
from games.engine.position import Position

#: Colour letters in turn order (a fourth, for four players, would be ``g`` for Green).
COLOURS = ("b", "w", "r")
COLOUR_NAMES = {"b": "Black", "w": "White", "r": "Red"}
#: Marbles each player has in the three-player game.
THREE_PLAYER_MARBLES = 11

THREE_START_CELLS = (
    ("a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6"),
    ("e1", "f2", "g3", "h4", "i5", "d1", "e2", "f3", "g4", "h5", "i6"),
    ("e9", "f9", "g9", "h9", "i9", "d8", "e8", "f8", "g8", "h8", "i8"),
)


@dataclass(frozen=True)
class MultiPosition:
    """The colour to move (an index into ``colours``) and one bitboard per colour."""

    to_move: int
    boards: tuple[int, ...]
    colours: tuple[str, ...] = COLOURS

    @property
    def side_to_move(self) -> str:
        return self.colours[self.to_move]

    @property
    def players(self) -> int:
        return len(self.boards)

    def cells(self, colour: str) -> tuple[str, ...]:
        return names_of_bits(self.boards[self.colours.index(colour)])

    def mine_and_others(self) -> tuple[int, int]:
        mine = self.boards[self.to_move]
        others = 0
        for index, bits in enumerate(self.boards):
            if index != self.to_move:
                others |= bits
        return mine, others

    def colour_at(self, cell: str) -> str | None:
        bit = 1 << INDEX_OF_NAME[cell]
        for colour, bits in zip(self.colours, self.boards, strict=True):
            if bits & bit:
                return colour
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the colour to move, each once (the two-player generator's
        order and notation)."""
        return generate_moves(*self.mine_and_others())

    def to_string(self) -> str:
        lists = (",".join(names_of_bits(bits)) for bits in self.boards)
        return "|".join([self.side_to_move, *lists])

    @classmethod
    def from_string(cls, text: str, *, marbles: int = THREE_PLAYER_MARBLES) -> MultiPosition:
        """Parse ``<side>|<cells>|<cells>|<cells>`` (three colours, turn order Black, White,
        Red); raises :class:`PositionError` naming the problem. A colour may have at most
        ``marbles`` marbles."""
        if not isinstance(text, str):
            raise PositionError("a position string must be text", "syntax")
        parts = [part.strip() for part in text.strip().lower().split("|")]
        if len(parts) != 1 + len(COLOURS):
            raise PositionError(
                f"{text.strip()!r}: a three-player position string has four parts separated "
                "by '|': side to move, then Black's, White's and Red's cells",
                "syntax",
            )
        side, lists = parts[0], parts[1:]
        if side not in COLOURS:
            raise PositionError(
                f"side to move must be one of {', '.join(COLOURS)}, not {side!r}", "syntax"
            )
        boards, seen = [], {}
        for colour, listed in zip(COLOURS, lists, strict=True):
            names = [name.strip() for name in listed.split(",") if name.strip()] if listed else []
            for name in names:
                if name not in INDEX_OF_NAME:
                    raise PositionError(f"{name!r} is not a cell", "not_a_cell")
                if name in seen:
                    raise PositionError(
                        f"{name} holds two marbles ({COLOUR_NAMES[seen[name]]} and "
                        f"{COLOUR_NAMES[colour]})",
                        "duplicate_cell",
                    )
                seen[name] = colour
            if len(names) > marbles:
                raise PositionError(
                    f"{COLOUR_NAMES[colour]} has {len(names)} marbles; each player has at most "
                    f"{marbles}",
                    "too_many_marbles",
                )
            boards.append(bits_of_names(names))
        return cls(COLOURS.index(side), tuple(boards))


def three_player_start() -> MultiPosition:
    """The publisher's three-player start, Black to move."""
    return MultiPosition(0, tuple(bits_of_names(cells) for cells in THREE_START_CELLS))


@dataclass(frozen=True)
class MultiOutcome:
    """What a move did: the colour of the marble it pushed off (None: none)."""

    ejected: str | None


def parse_multi_move(position: MultiPosition, text: str) -> Move:
    """The move written as ``text``, checked against every rule (the two-player parser's
    messages: another colour's marble reads as an opponent's)."""
    mine, others = position.mine_and_others()
    return parse_move(Position("b", mine, others), text)


def apply_multi_move(
    position: MultiPosition, move: Move | str
) -> tuple[MultiPosition, MultiOutcome]:
    """Play ``move`` (a :class:`Move` of this position or its notation); the next colour in
    turn order is to move. Raises :class:`IllegalMove` if it is not legal here."""
    if isinstance(move, str):
        move = parse_multi_move(position, move)
    elif move not in position.legal_moves():
        raise IllegalMove(f"{move.notation}: not a legal move in this position", "not_legal")
    mover = position.to_move
    boards = list(position.boards)
    boards[mover] ^= move.own_xor
    ejected = None
    if move.pushed:
        shift = DIRECTION_SHIFT[move.direction]
        moving: list[tuple[int, int]] = []  # (colour index, bit index) of each pushed marble
        for cell in move.pushed:
            index = INDEX_OF_NAME[cell]
            colour = next(c for c, bits in enumerate(boards) if c != mover and bits >> index & 1)
            moving.append((colour, index))
        for colour, index in moving:
            boards[colour] &= ~(1 << index)
        for colour, index in moving:
            target = index + shift
            if VALID >> target & 1:
                boards[colour] |= 1 << target
            else:
                ejected = position.colours[colour]
    next_player = (mover + 1) % position.players
    return MultiPosition(next_player, tuple(boards), position.colours), MultiOutcome(ejected)


def multi_perft(position: MultiPosition, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (turns in order Black, White, Red;
    a position without legal moves contributes none, as in the two-player perft)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(*position.mine_and_others())
    return sum(
        multi_perft(apply_multi_move(position, move)[0], depth - 1)
        for move in position.legal_moves()
    )


@dataclass
class MultiGame:
    """A three-player game: the position, what each player pushed off, and the end.

    The first player to have pushed off ``marbles_to_win`` marbles in all (of either opponent)
    wins and the game stops. A player who resigns or runs out of time finishes last and the game
    ends; the others are ranked by the marbles each pushed off (equal counts share a place).
    """

    position: MultiPosition = field(default_factory=three_player_start)
    marbles_to_win: int = 6
    pushed_off: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    winner: str | None = None
    out: str | None = None  # the colour that resigned or flagged
    plies: int = 0

    @property
    def over(self) -> bool:
        return self.winner is not None or self.out is not None

    def play(self, move: Move | str) -> MultiOutcome:
        if self.over:
            raise EngineError("the game is over")
        mover = self.position.side_to_move
        self.position, outcome = apply_multi_move(self.position, move)
        self.plies += 1
        if outcome.ejected is not None:
            self.pushed_off[mover] += 1
            if self.pushed_off[mover] >= self.marbles_to_win:
                self.winner = mover
        return outcome

    def drop_out(self, colour: str) -> None:
        """``colour`` resigned or ran out of time: last place, and the game ends."""
        if self.over:
            raise EngineError("the game is over")
        if colour not in COLOURS:
            raise EngineError(f"no player has the colour {colour!r}")
        self.out = colour

    def ranking(self) -> list[tuple[int, str]]:
        """(place, colour) from first to last; equal places shared. Empty while in play."""
        if not self.over:
            return []
        return ranking(self.pushed_off, winner=self.winner, out=self.out)


def ranking(
    pushed_off: dict[str, int], *, winner: str | None = None, out: str | None = None
) -> list[tuple[int, str]]:
    """The final ranking: the winner first, the one who dropped out last, everyone else by the
    marbles they pushed off (more first; equal counts share the place)."""
    middle = sorted(
        (colour for colour in pushed_off if colour not in (winner, out)),
        key=lambda colour: -pushed_off[colour],
    )
    places: list[tuple[int, str]] = []
    place = 1
    if winner is not None:
        places.append((1, winner))
        place = 2
    previous = None
    for position, colour in enumerate(middle):
        if previous is None or pushed_off[colour] != pushed_off[previous]:
            shown = place + position
        places.append((shown, colour))
        previous = colour
    if out is not None:
        places.append((len(pushed_off), out))
    return places
