"""Tactical positions for testing the search, and their answers worked out by brute force.
Pure, no Django.

Two kinds, for a game won by the first side to push off ``marbles_to_win`` marbles:

- **win**: the side to move has pushed off ``marbles_to_win - 1`` and has at least one legal move
  that pushes off another marble. The answers are every push-off: each one wins at once.
- **defend**: the side to move has *lost* ``marbles_to_win - 1``, cannot win at once, and the
  other side would push off the last marble if it were its move. Some, but not all, of the
  mover's moves leave the other side without any push-off; those are the answers.

A position where both hold (both sides one marble from winning, the mover able to push off) is a
**win**: the push-off ends the game before the threat matters, so a saving move is not enough.

The answers are found with the rules engine alone (``legal_moves``, ``apply_move``), never with
the search, so they can judge it. Positions come from three sources, all seeded so that a given
call returns the same list every time: random playouts from the three starts that prefer pushes
(so marbles go off), random scattered layouts, and a few hand-built ones (with their mirror and
rotation images and their colour swaps, so both colours are the mover).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.engine.board import VALID, names_of_bits, symmetry_maps
from games.engine.moves import apply_move, legal_moves
from games.engine.position import MARBLES_PER_SIDE, Position, opponent, start_position

WIN, DEFEND = "win", "defend"
STARTS = ("standard", "belgian", "german")


@dataclass(frozen=True)
class Tactic:
    """One test position: its kind, the set of correct moves and where it came from."""

    kind: str
    position: Position
    marbles_to_win: int
    answers: frozenset[str]
    legal: int  # how many legal moves the mover has
    source: str
    #: the mover could push off a marble that neither wins nor saves (a greedy player's trap)
    trap: bool = False

    def is_answer(self, notation: str) -> bool:
        return notation in self.answers


def push_offs(position: Position) -> list:
    """The mover's legal moves that push an opponent marble off the board."""
    return [move for move in legal_moves(position) if move.pushed_off is not None]


def winning_push_offs(position: Position, marbles_to_win: int = 6) -> list:
    """The mover's push-offs if one more marble wins the game, else none."""
    if position.pushed_off(opponent(position.side_to_move)) + 1 < marbles_to_win:
        return []
    return push_offs(position)


def is_threatened(position: Position, marbles_to_win: int = 6) -> bool:
    """True iff the side not to move would win at once if it were its move."""
    other = opponent(position.side_to_move)
    return bool(winning_push_offs(position.with_side_to_move(other), marbles_to_win))


def saving_moves(position: Position, marbles_to_win: int = 6) -> list:
    """The mover's moves after which the other side has no winning push-off."""
    saving = []
    for move in legal_moves(position):
        after, _ = apply_move(position, move)
        if not winning_push_offs(after, marbles_to_win):
            saving.append(move)
    return saving


def classify(position: Position, marbles_to_win: int = 6, source: str = "") -> Tactic | None:
    """The position as a :class:`Tactic`, or None if it is neither kind (or already decided)."""
    side = position.side_to_move
    lost, taken = position.pushed_off(side), position.pushed_off(opponent(side))
    if lost >= marbles_to_win or taken >= marbles_to_win:
        return None
    moves = legal_moves(position)
    offs = [move for move in moves if move.pushed_off is not None]
    if taken == marbles_to_win - 1 and offs:
        answers = frozenset(move.notation for move in offs)
        return Tactic(WIN, position, marbles_to_win, answers, len(moves), source)
    if lost != marbles_to_win - 1 or not is_threatened(position, marbles_to_win):
        return None
    saving = saving_moves(position, marbles_to_win)
    if not saving or len(saving) == len(moves):
        return None
    answers = frozenset(move.notation for move in saving)
    trap = any(move.notation not in answers for move in offs)
    return Tactic(DEFEND, position, marbles_to_win, answers, len(moves), source, trap)


# --- sources --------------------------------------------------------------------------------------


def playout_tactics(
    start: str, seed: int, marbles_to_win: int = 6, plies: int = 400
) -> Iterator[Tactic]:
    """Tactics met along one random game from ``start`` that prefers pushes (more so push-offs)."""
    rng = random.Random(seed)
    position = start_position(start)
    for ply in range(plies):
        lost = max(position.pushed_off("b"), position.pushed_off("w"))
        if lost >= marbles_to_win - 1:
            found = classify(position, marbles_to_win, f"{start} playout {seed} ply {ply}")
            if found is not None:
                yield found
        moves = legal_moves(position)
        if not moves or lost >= marbles_to_win:
            return
        offs = [move for move in moves if move.pushed_off is not None]
        pushes = [move for move in moves if move.pushed]
        roll = rng.random()
        if offs and roll < 0.5:
            moves = offs
        elif pushes and roll < 0.8:
            moves = pushes
        position, _ = apply_move(position, rng.choice(moves))


NEIGHBOUR_SHIFTS = (1, -1, 11, -11, 12, -12)


def _cluster(rng: random.Random, count: int, free: int) -> int:
    """``count`` marbles on ``free`` cells, grown in one to three blobs as real games have."""
    bits = 0
    while bits.bit_count() < count:
        grown = 0
        for shift in NEIGHBOUR_SHIFTS:
            grown |= bits << shift if shift > 0 else bits >> -shift
        frontier = grown & free & ~bits & VALID
        choices = frontier if frontier and rng.random() < 0.8 else free & ~bits
        cells = [1 << index for index in range(choices.bit_length()) if choices >> index & 1]
        bits |= rng.choice(cells)
    return bits


def scattered_tactic(kind: str, seed: int, marbles_to_win: int = 6) -> Tactic | None:
    """A random layout with the marble counts of ``kind``; None if it holds no such tactic."""
    rng = random.Random(seed)
    side = rng.choice("bw")
    if kind == WIN:
        mover_lost, other_lost = rng.randrange(0, marbles_to_win), marbles_to_win - 1
    else:
        mover_lost, other_lost = marbles_to_win - 1, rng.randrange(0, marbles_to_win - 1)
    mine = _cluster(rng, MARBLES_PER_SIDE - mover_lost, VALID)
    theirs = _cluster(rng, MARBLES_PER_SIDE - other_lost, VALID & ~mine)
    black, white = (mine, theirs) if side == "b" else (theirs, mine)
    position = Position.from_cells(side, names_of_bits(black), names_of_bits(white))
    found = classify(position, marbles_to_win, f"scattered {kind} {seed}")
    return found if found is not None and found.kind == kind else None


#: Hand-built positions: (name, position string, marbles to win, kind).
HAND_BUILT = (
    # e3 e2 push e1 off the west edge (2 against 1)
    (
        "two push one off",
        "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,e2,e3|e1,h5,h6,h7,i5,i6,i7,i8,i9",
        6,
        WIN,
    ),
    # e5 e4 e3 push e2 e1, e1 goes off (3 against 2)
    ("three push two off", "b|a1,a2,c3,c4,d4,e3,e4,e5,f5|e1,e2,g7,h7,h8,i7,i8,i9,i6", 6, WIN),
    # g7 h8 push i9 off the corner, north-east
    ("corner push-off", "b|f6,g7,h8,a1,a2,a4,b1,b2,c1|i9,e5,e6,f7,d4,c3,c4,b3,a3", 6, WIN),
    # blitz: White has lost three, a 2-against-1 push-off on the south-east edge wins
    (
        "blitz push-off",
        "b|a1,a2,a3,b1,b2,c1,c5,b5,d6,d7,e7|a5,f5,f6,g6,g7,h7,h8,i7,i8,i9,e8",
        4,
        WIN,
    ),
    # White threatens e3e2, pushing Black's e1 off: Black must move e1 or block
    (
        "stop two against one",
        "b|e1,h5,h6,h7,i5,i6,i7,i8,i9|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,e2,e3",
        6,
        DEFEND,
    ),
    # White's e5 f6 g7 line threatens to push h8 and i9, i9 going off the corner
    (
        "stop three against two",
        "b|a1,a2,a3,b1,b2,b3,c1,h8,i9|c5,d4,d5,d6,e4,e5,e6,e7,f5,f6,f7,g7",
        6,
        DEFEND,
    ),
)


def _swap_colours(position: Position) -> Position:
    side = opponent(position.side_to_move)
    return Position.from_cells(side, position.white_cells, position.black_cells)


def _mapped(position: Position, mapping: dict[str, str]) -> Position:
    return Position.from_cells(
        position.side_to_move,
        [mapping[cell] for cell in position.black_cells],
        [mapping[cell] for cell in position.white_cells],
    )


def hand_built_tactics() -> list[Tactic]:
    """Each hand-built position and its mirror image (rotated), each also with colours swapped."""
    found = []
    maps = symmetry_maps()
    for name, text, marbles_to_win, kind in HAND_BUILT:
        base = Position.from_string(text)
        for index in (0, 7):
            for swapped in (False, True):
                position = _mapped(base, maps[index])
                if swapped:
                    position = _swap_colours(position)
                label = f"hand: {name} (symmetry {index}{', colours swapped' if swapped else ''})"
                tactic = classify(position, marbles_to_win, label)
                if tactic is None or tactic.kind != kind:
                    raise ValueError(f"{label} is not a {kind} tactic: {position}")
                found.append(tactic)
    return found


def generate(kind: str, count: int, seed: int = 0, marbles_to_win: int = 6) -> list[Tactic]:
    """``count`` distinct tactics of ``kind``: the hand-built ones first (when ``marbles_to_win``
    is theirs), then playouts from the three starts in turn and scattered layouts, alternating,
    at most two from one playout. Defence cases with one or two saving moves are kept in
    preference, up to a third of the list, so that hard ones are always there."""
    chosen: list[Tactic] = []
    seen: set[Position] = set()

    def take(tactic: Tactic) -> bool:
        if tactic.position in seen or len(chosen) >= count:
            return False
        seen.add(tactic.position)
        chosen.append(tactic)
        return True

    for tactic in hand_built_tactics():
        if tactic.kind == kind and tactic.marbles_to_win == marbles_to_win and len(chosen) < count:
            take(tactic)
    hand = len(chosen)
    playout_share = (count - hand) * 2 // 3
    index = seed * 100_003
    while len(chosen) < hand + playout_share and index < seed * 100_003 + 50_000:
        start = STARTS[index % 3]
        taken = 0
        for tactic in playout_tactics(start, index, marbles_to_win):
            if tactic.kind != kind or taken >= 2:
                continue
            if take(tactic):
                taken += 1
        index += 1
    if kind == DEFEND:
        _prefer_hard(chosen, hand, count, marbles_to_win, seed)
    index = seed * 100_003
    while len(chosen) < count and index < seed * 100_003 + 200_000:
        tactic = scattered_tactic(kind, index, marbles_to_win)
        if tactic is not None:
            take(tactic)
        index += 1
    return chosen


def _prefer_hard(chosen: list[Tactic], hand: int, count: int, marbles_to_win: int, seed: int):
    """Replace easy playout defences (many saving moves) by hard ones (one or two) found in more
    playouts, until a third of the list is hard or none is found in a bounded search."""
    hard_wanted = count // 3 - sum(1 for t in chosen if len(t.answers) <= 2)
    seen = {t.position for t in chosen}
    index = seed * 100_003 + 60_000
    while hard_wanted > 0 and index < seed * 100_003 + 63_000:
        for tactic in playout_tactics(STARTS[index % 3], index, marbles_to_win):
            if tactic.kind != DEFEND or len(tactic.answers) > 2 or tactic.position in seen:
                continue
            easy = [i for i in range(hand, len(chosen)) if len(chosen[i].answers) > 2]
            if not easy:
                return
            seen.add(tactic.position)
            chosen[easy[-1]] = tactic
            hard_wanted -= 1
            break
        index += 1
