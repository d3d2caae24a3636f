"""Abalone for more than two players (``../shared/abalone-rules.md``, "More than two players";
``docs/rules-multiplayer.md``): positions and moves of three colours (each for themself) and of
four colours in two teams. The game itself is :mod:`games.engine.multi_game`.

Pure, like the rest of the engine. The two-player engine is not touched (it stays exactly as
fast); this module reuses its move generator, because the rules make a move of N colours the
two-player move of the mover against *all other marbles at once*: the same shapes, the same
push arithmetic (2v1, 3v1, 3v2; at most three of yours count), a pushed column that may mix the
opponents' colours, and any marble behind the column (of any colour, the mover's own included)
blocking it. So the legal moves of a three-player position are ``generate_moves(mine, everyone
else's)``, with the same notation, and applying one shifts every moved and pushed marble one
step, keeping its colour (the last one off the board when the push ejects it).

Four players (:data:`TEAMS`: Black and Red against White and Green, partners facing) follow the
publisher's team rule as ``docs/rules-multiplayer.md`` writes it down, with its doubtful points
as :class:`TeamRules`: a partner's marble may never be pushed; it may stand in your pushing column
(at most three marbles count, yours and your partner's together) when the marble of the column
that :attr:`TeamRules.own_marble` names is yours; a partner's marble moves in a move that pushes
nothing only with :attr:`TeamRules.partner_moves`. Such a move is written as any in-line move:
the trailing marble and the cell it moves to.

A position is the colour to move (an index into ``colours``) and one bitboard per colour in turn
order. Its string extends the two-player form: ``r|<Black's cells>|<White's>|<Red's>`` and, for
four players, ``|<Green's>``. How many marbles each player pushed off (credited to the mover,
whatever the colour) is not in the position: the game counts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.messages import Term, gettext_noop
from games.engine.board import (
    DIRECTION_SHIFT,
    DIRECTIONS,
    INDEX_OF_NAME,
    NAME_OF_INDEX,
    VALID,
    bits_of_names,
    names_of_bits,
)
from games.engine.errors import IllegalMove, PositionError
from games.engine.movegen import Move, count_moves, generate_moves
from games.engine.moves import parse_move
from games.engine.position import Position

#: Colour letters in turn order; three players use the first three, four players all four.
ALL_COLOURS = ("b", "w", "r", "g")
COLOURS = ALL_COLOURS[:3]
FOUR_COLOURS = ALL_COLOURS
COLOUR_NAMES = {"b": "Black", "w": "White", "r": "Red", "g": "Green"}
#: Marbles each player has: 11 in the three-player game, 9 in the four-player game.
THREE_PLAYER_MARBLES = 11
FOUR_PLAYER_MARBLES = 9
MARBLES_PER_PLAYER = {3: THREE_PLAYER_MARBLES, 4: FOUR_PLAYER_MARBLES}
#: The teams of the four-player game, as seat indexes: partners sit facing each other.
TEAMS = ((0, 2), (1, 3))

THREE_START_CELLS = (
    ("a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6"),
    ("e1", "f2", "g3", "h4", "i5", "d1", "e2", "f3", "g4", "h5", "i6"),
    ("e9", "f9", "g9", "h9", "i9", "d8", "e8", "f8", "g8", "h8", "i8"),
)
#: The four-player start (``docs/rules-multiplayer.md``): nine marbles each in rows of 4, 3 and 2
#: against four sides, the same shape turned by 60 degrees from side to side; Black (bottom) and
#: Red (top) face each other, as do White (lower left) and Green (upper right).
FOUR_START_CELLS = (
    ("a2", "a3", "a4", "a5", "b3", "b4", "b5", "c4", "c5"),
    ("a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3"),
    ("i5", "i6", "i7", "i8", "h5", "h6", "h7", "g5", "g6"),
    ("i9", "h9", "g9", "f9", "h8", "g8", "f8", "g7", "f7"),
)
START_CELLS = {3: THREE_START_CELLS, 4: FOUR_START_CELLS}


@dataclass(frozen=True)
class TeamRules:
    """The doubtful points of the four-player rule, as settings (``docs/rules-multiplayer.md``).

    - ``own_marble``: which marble of a pushing column that holds a partner's marble must be the
      mover's: ``"rear"`` (the one that starts the push; default), ``"front"`` (the one touching
      the opponents) or ``"any"``.
    - ``partner_moves``: whether a partner's marble may move with yours in an in-line move that
      pushes nothing (default False: only in a push).
    """

    own_marble: str = "rear"
    partner_moves: bool = False

    def __post_init__(self) -> None:
        if self.own_marble not in ("rear", "front", "any"):
            raise ValueError("own_marble must be 'rear', 'front' or 'any'")


DEFAULT_TEAM_RULES = TeamRules()


@dataclass(frozen=True)
class TeamMove:
    """An in-line move of a column holding a partner's marble (four players only); the same
    attributes as :class:`~games.engine.movegen.Move` that the multi-player engine reads."""

    notation: str
    direction: str
    marbles: tuple[str, ...]  # the moving column, trailing to leading (partner marbles included)
    pushed: tuple[str, ...]  # the pushed opponents, nearest first
    pushed_off: str | None
    kind: str = "inline"

    @property
    def destinations(self) -> tuple[str, ...]:
        return tuple(
            NAME_OF_INDEX[INDEX_OF_NAME[c] + DIRECTION_SHIFT[self.direction]] for c in self.marbles
        )


@dataclass(frozen=True)
class MultiPosition:
    """The colour to move (an index into ``colours``) and one bitboard per colour."""

    to_move: int
    boards: tuple[int, ...]
    colours: tuple[str, ...] = COLOURS

    def __post_init__(self) -> None:
        if len(self.colours) != len(self.boards):
            object.__setattr__(self, "colours", ALL_COLOURS[: len(self.boards)])

    @property
    def side_to_move(self) -> str:
        return self.colours[self.to_move]

    @property
    def players(self) -> int:
        return len(self.boards)

    @property
    def teams(self) -> bool:
        """True for the four-player team game."""
        return len(self.boards) == 4

    def partner(self, index: int) -> int | None:
        """The seat index of ``index``'s partner (four players), else None."""
        return (index + 2) % 4 if self.teams else None

    def cells(self, colour: str) -> tuple[str, ...]:
        return names_of_bits(self.boards[self.colours.index(colour)])

    @property
    def occupied(self) -> int:
        bits = 0
        for board in self.boards:
            bits |= board
        return bits

    def mine_and_others(self) -> tuple[int, int]:
        mine = self.boards[self.to_move]
        return mine, self.occupied & ~mine

    def colour_at(self, cell: str) -> str | None:
        bit = 1 << INDEX_OF_NAME[cell]
        for colour, bits in zip(self.colours, self.boards, strict=True):
            if bits & bit:
                return colour
        return None

    def legal_moves(self, rules: TeamRules = DEFAULT_TEAM_RULES) -> list[Move | TeamMove]:
        """Every legal move of the colour to move, each once (the two-player generator's
        order and notation; four players: then the moves with a partner's marble)."""
        mine, others = self.mine_and_others()
        moves = generate_moves(mine, others)
        if not self.teams:
            return moves
        partner = self.boards[self.partner(self.to_move)]
        own = [m for m in moves if not (m.pushed and bits_of_names(m.pushed) & partner)]
        return own + _team_moves(self, rules)

    def count_legal_moves(self, rules: TeamRules = DEFAULT_TEAM_RULES) -> int:
        if not self.teams:
            return count_moves(*self.mine_and_others())
        return len(self.legal_moves(rules))

    def to_string(self) -> str:
        lists = (",".join(names_of_bits(bits)) for bits in self.boards)
        return "|".join([self.side_to_move, *lists])

    @classmethod
    def from_string(cls, text: str, *, marbles: int | None = None) -> MultiPosition:
        """Parse ``<side>|<cells>|<cells>|<cells>[|<cells>]`` (three colours, turn order Black,
        White, Red; or four, Green last); raises :class:`PositionError` naming the problem. A
        colour has at most ``marbles`` marbles (default: 11 for three players, 9 for four)."""
        if not isinstance(text, str):
            raise PositionError(gettext_noop("a position string must be text"), "syntax")
        parts = [part.strip() for part in text.strip().lower().split("|")]
        if len(parts) not in (4, 5):
            raise PositionError(
                gettext_noop(
                    "a three-player position string has four parts separated by '|': side to "
                    "move, then Black's, White's and Red's cells (four players: five parts, "
                    "Green's cells last)"
                ),
                "syntax",
                subject=repr(text.strip()[:80]),
            )
        side, lists = parts[0], parts[1:]
        colours = ALL_COLOURS[: len(lists)]
        limit = MARBLES_PER_PLAYER[len(lists)] if marbles is None else marbles
        if side not in colours:
            raise PositionError(
                gettext_noop("side to move must be one of %(colours)s, not %(side)r"),
                "syntax",
                colours=", ".join(colours),
                side=side,
            )
        boards, seen = [], {}
        for colour, listed in zip(colours, lists, strict=True):
            names = [name.strip() for name in listed.split(",") if name.strip()] if listed else []
            for name in names:
                if name not in INDEX_OF_NAME:
                    raise PositionError(
                        gettext_noop("%(cell)r is not a cell"), "not_a_cell", cell=name
                    )
                if name in seen:
                    raise PositionError(
                        gettext_noop("%(cell)s holds two marbles (%(first)s and %(second)s)"),
                        "duplicate_cell",
                        cell=name,
                        first=Term(COLOUR_NAMES[seen[name]]),
                        second=Term(COLOUR_NAMES[colour]),
                    )
                seen[name] = colour
            if len(names) > limit:
                raise PositionError(
                    gettext_noop(
                        "%(colour)s has %(count)s marbles; each player has at most %(limit)s"
                    ),
                    "too_many_marbles",
                    colour=Term(COLOUR_NAMES[colour]),
                    count=len(names),
                    limit=limit,
                )
            boards.append(bits_of_names(names))
        return cls(colours.index(side), tuple(boards), colours)


def _team_moves(position: MultiPosition, rules: TeamRules) -> list[TeamMove]:
    """In-line moves of a column of 2-3 marbles of the mover's team that holds at least one of
    the partner's marbles and, where :attr:`TeamRules.own_marble` says, one of the mover's."""
    mine = position.boards[position.to_move]
    partner = position.boards[position.partner(position.to_move)]
    team = mine | partner
    opponents = position.occupied & ~team
    moves = []
    for direction in DIRECTIONS:
        shift = DIRECTION_SHIFT[direction]
        bits = team
        while bits:
            low = bits & -bits
            bits ^= low
            start = low.bit_length() - 1
            column = [start]
            cell = start + shift
            while len(column) < 3 and team >> cell & 1:
                column.append(cell)
                cell += shift
            if not any(partner >> c & 1 for c in column):
                continue  # an own column: the two-player generator's move
            if rules.own_marble == "rear" and not mine >> column[0] & 1:
                continue
            if rules.own_marble == "front" and not mine >> column[-1] & 1:
                continue
            if rules.own_marble == "any" and not any(mine >> c & 1 for c in column):
                continue
            if not VALID >> cell & 1 or team >> cell & 1:
                continue  # off the board (never your own team's), or a fourth team marble
            pushed: list[int] = []
            while opponents >> cell & 1:
                pushed.append(cell)
                cell += shift
            if not pushed and not rules.partner_moves:
                continue
            if len(pushed) >= len(column):
                continue  # pac: not outnumbered
            ejects = not VALID >> cell & 1
            if pushed and not ejects and position.occupied >> cell & 1:
                continue  # anything behind the pushed column blocks it
            names = tuple(NAME_OF_INDEX[c] for c in column)
            moves.append(
                TeamMove(
                    notation=names[0] + NAME_OF_INDEX[column[0] + shift],
                    direction=direction,
                    marbles=names,
                    pushed=tuple(NAME_OF_INDEX[c] for c in pushed),
                    pushed_off=NAME_OF_INDEX[pushed[-1]] if pushed and ejects else None,
                )
            )
    return moves


def start_of(players: int) -> MultiPosition:
    """The start for ``players`` (3 or 4), Black to move."""
    cells = START_CELLS[players]
    return MultiPosition(0, tuple(bits_of_names(c) for c in cells), ALL_COLOURS[:players])


def three_player_start() -> MultiPosition:
    """The publisher's three-player start, Black to move."""
    return start_of(3)


def four_player_start() -> MultiPosition:
    """The four-player (two teams) start, Black to move."""
    return start_of(4)


def empty_board(players: int) -> MultiPosition:
    """The empty board of a game that starts with the placement phase."""
    return MultiPosition(0, (0,) * players, ALL_COLOURS[:players])


@dataclass(frozen=True)
class MultiOutcome:
    """What a move did: the move, the colour of the marble it pushed off (None: none)."""

    ejected: str | None
    move: object = None


def parse_multi_move(
    position: MultiPosition, text: str, rules: TeamRules = DEFAULT_TEAM_RULES
) -> Move | TeamMove:
    """The move written as ``text``, checked against every rule (the two-player parser's
    messages: another colour's marble reads as an opponent's)."""
    if position.teams:
        shown = str(text).strip().lower()
        for move in position.legal_moves(rules):
            if move.notation == shown:
                return move
    mine, others = position.mine_and_others()
    move = parse_move(Position("b", mine, others), text)
    if position.teams:  # legal against the union, but it pushes the partner
        raise IllegalMove(
            gettext_noop("you may not push your partner's marbles"),
            "partner",
            subject=move.notation,
        )
    return move


def apply_multi_move(
    position: MultiPosition, move: Move | TeamMove | str, rules: TeamRules = DEFAULT_TEAM_RULES
) -> tuple[MultiPosition, MultiOutcome]:
    """Play ``move`` (a move of this position or its notation); the next colour in turn order is
    to move. Raises :class:`IllegalMove` if it is not legal here."""
    if isinstance(move, str):
        move = parse_multi_move(position, move, rules)
    elif move not in position.legal_moves(rules):
        raise IllegalMove(
            gettext_noop("not a legal move in this position"), "not_legal", subject=move.notation
        )
    shift = DIRECTION_SHIFT[move.direction]
    boards = list(position.boards)
    moving: list[tuple[int, int]] = []  # (colour index, bit index) of every marble that moves
    for cell in (*move.marbles, *move.pushed):
        index = INDEX_OF_NAME[cell]
        colour = next(c for c, bits in enumerate(boards) if bits >> index & 1)
        moving.append((colour, index))
    for colour, index in moving:
        boards[colour] &= ~(1 << index)
    ejected = None
    for colour, index in moving:
        target = index + shift
        if VALID >> target & 1:
            boards[colour] |= 1 << target
        else:
            ejected = position.colours[colour]
    next_player = (position.to_move + 1) % position.players
    return MultiPosition(next_player, tuple(boards), position.colours), MultiOutcome(ejected, move)


def multi_perft(position: MultiPosition, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (turns in order; a position without
    legal moves contributes none, as in the two-player perft)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    if depth == 1:
        return position.count_legal_moves()
    return sum(
        multi_perft(apply_multi_move(position, move)[0], depth - 1)
        for move in position.legal_moves()
    )
