"""Property tests over positions reached by random playouts from the three starts.

The cell-by-cell rule checker behind ``parse_move`` and the bitboard generator behind
``legal_moves`` are written independently; several properties check that they agree.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    IllegalMove,
    Position,
    apply_move,
    legal_moves,
    parse_move,
    start_position,
)
from games.engine.board import CELL_NAMES, DIRECTIONS, VALID, step, symmetry_maps

SYMMETRIES = symmetry_maps()


def playout(start: str, plies: int, seed: int, push_bias: float) -> Position:
    """A position after up to ``plies`` random moves, preferring pushes with ``push_bias``."""
    rng = random.Random(seed)
    position = start_position(start)
    for _ in range(plies):
        moves = legal_moves(position)
        if not moves:
            break
        pushes = [move for move in moves if move.pushed]
        if pushes and rng.random() < push_bias:
            moves = pushes
        position = apply_move(position, rng.choice(moves))[0]
    return position


positions = st.builds(
    playout,
    start=st.sampled_from(["standard", "belgian", "german"]),
    plies=st.integers(min_value=0, max_value=120),
    seed=st.integers(min_value=0, max_value=2**32),
    push_bias=st.sampled_from([0.0, 0.5, 0.9]),
)


def candidate_notations() -> list[str]:
    """Every text that could name a move: adjacent cell pairs, and broadside triples in both
    end orders with any neighbouring destination (many of them illegal anywhere)."""
    texts = []
    for cell in CELL_NAMES:
        for direction in DIRECTIONS:
            neighbour = step(cell, direction)
            if neighbour:
                texts.append(cell + neighbour)
    for cell in CELL_NAMES:
        for axis in DIRECTIONS:
            end = cell
            for _ in range(2):
                end = step(end, axis) if end else None
                if end is None:
                    break
                for direction in DIRECTIONS:
                    target = step(cell, direction)
                    if target:
                        texts.append(cell + end + target)
    return texts


CANDIDATES = candidate_notations()


def map_position(position: Position, mapping: dict[str, str]) -> Position:
    return Position.from_cells(
        position.side_to_move,
        [mapping[c] for c in position.black_cells],
        [mapping[c] for c in position.white_cells],
    )


def move_footprint(move, mapping=None) -> frozenset:
    """A move as the set of its (from, to) steps, own and pushed, optionally mapped."""
    mapping = mapping or {c: c for c in CELL_NAMES}
    steps = {(mapping[a], mapping[b]) for a, b in zip(move.marbles, move.destinations, strict=True)}
    steps |= {("x", mapping[c]) for c in move.pushed}
    return frozenset(steps)


@settings(max_examples=60, deadline=None)
@given(positions)
def test_marbles_are_conserved_except_one_pushed_off(position):
    own = position.side_to_move
    other = "w" if own == "b" else "b"
    for move in legal_moves(position):
        new, outcome = apply_move(position, move)
        assert new.marbles_on_board(own) == position.marbles_on_board(own)
        lost = position.marbles_on_board(other) - new.marbles_on_board(other)
        assert lost == (1 if move.pushed_off else 0)
        assert (outcome.pushed_off is not None) == (lost == 1)
        assert new.side_to_move == other


@settings(max_examples=60, deadline=None)
@given(positions)
def test_no_overlap_and_nothing_off_the_grid(position):
    for move in legal_moves(position):
        new, _ = apply_move(position, move)
        assert new.black_bits & new.white_bits == 0
        assert new.black_bits & ~VALID == 0 and new.white_bits & ~VALID == 0
        assert len(set(new.black_cells) | set(new.white_cells)) == len(new.black_cells) + len(
            new.white_cells
        )


@settings(max_examples=30, deadline=None)
@given(positions)
def test_move_count_is_invariant_under_the_twelve_symmetries(position):
    moves = legal_moves(position)
    footprints = {move_footprint(move) for move in moves}
    for mapping in SYMMETRIES:
        mapped = map_position(position, mapping)
        mapped_moves = legal_moves(mapped)
        assert len(mapped_moves) == len(moves) == mapped.count_legal_moves()
        assert {move_footprint(m, mapping) for m in moves} == {
            move_footprint(m) for m in mapped_moves
        }
    assert len(footprints) == len(moves)


@settings(max_examples=60, deadline=None)
@given(positions)
def test_every_notation_parses_back_to_the_same_move(position):
    moves = legal_moves(position)
    assert len({move.notation for move in moves}) == len(moves)
    for move in moves:
        assert parse_move(position, move.notation) == move
        assert parse_move(position, move.notation.upper()) == move
        if move.kind == "broadside":
            first, last, _ = move.notation[:2], move.notation[2:4], move.notation[4:]
            swapped = last + first + move.destinations[-1]
            assert parse_move(position, swapped) == move


@settings(max_examples=25, deadline=None)
@given(positions)
def test_parser_accepts_exactly_the_generated_moves(position):
    generated = {move.notation: move for move in legal_moves(position)}
    accepted = {}
    for text in CANDIDATES:
        try:
            move = parse_move(position, text)
        except IllegalMove:
            continue
        accepted[move.notation] = move
    assert accepted == generated


@settings(max_examples=60, deadline=None)
@given(positions)
def test_position_string_round_trip(position):
    text = position.to_string()
    assert Position.from_string(text) == position
    assert Position.from_string(text.upper()) == position
    assert Position.from_string(text).to_string() == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_garbage_text_is_an_illegal_move_or_a_move(text):
    position = start_position("standard")
    try:
        move = parse_move(position, text)
    except IllegalMove as error:
        assert error.code and str(error)
    else:
        assert move in legal_moves(position)


@settings(max_examples=300, deadline=None)
@given(positions, st.text(alphabet="abcdefghijABCJ0123456789 -", min_size=0, max_size=8))
def test_cell_like_garbage_never_raises_anything_else(position, text):
    try:
        move = parse_move(position, text)
    except IllegalMove:
        return
    assert move in legal_moves(position)


def walled_in(seed: int, size: int) -> Position:
    """A clump of the mover's marbles grown from a random cell, ringed by opponent marbles as far
    as 14 of them go: the positions where no marble may have an empty neighbour."""
    rng = random.Random(seed)
    own = [rng.choice(CELL_NAMES)]
    while len(own) < size:
        frontier = sorted(
            {n for c in own for d in DIRECTIONS if (n := step(c, d)) and n not in own}
        )
        if not frontier:
            break
        own.append(rng.choice(frontier))
    ring = sorted({n for c in own for d in DIRECTIONS if (n := step(c, d)) and n not in own})
    rng.shuffle(ring)
    side = rng.choice("bw")
    other = ring[:14]
    black, white = (own, other) if side == "b" else (other, own)
    return Position.from_cells(side, black, white)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        positions,
        st.builds(
            walled_in,
            seed=st.integers(min_value=0, max_value=2**32),
            size=st.integers(min_value=1, max_value=14),
        ),
    )
)
def test_has_legal_move_agrees_with_the_generator(position):
    # has_legal_move takes a shortcut (a marble next to an empty cell); it must never disagree.
    assert position.has_legal_move() == bool(legal_moves(position))
    assert position.has_legal_move() == (position.count_legal_moves() > 0)
