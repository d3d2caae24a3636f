"""What the computer opponent's search (``games.engine.search``) reads of a position: its
evaluation, its Zobrist hash, and its moves in search order. Pure, no Django.

Evaluation, from the side to move's point of view (all terms are "mine minus theirs"):

- **marbles**: 1000 per marble on the board (a push-off is worth far more than any position);
- **centre**: each marble scores by its ring (distance from e5): 0:+40, 1:+30, 2:+18, 3:+6,
  4 (the edge):-10, so a compact group in the middle beats one spread on the rim;
- **cohesion**: +6 for each pair of own marbles side by side (along the three axes), since
  neighbours can form the columns that push and resist pushes;
- **edge danger**: -14 more for an edge marble with an opponent marble next to it on the
  inside, the shape that precedes a push-off;
- **win**: a side that has lost ``marbles_to_win`` marbles has lost: -WIN plus the ply, so
  quicker wins and slower losses are preferred.
"""

from __future__ import annotations

import random

from games.engine.board import CELLS, VALID, bit_index
from games.engine.movegen import CATEGORY_TABLES, Move, category_masks
from games.engine.position import WHITE, Position

WIN = 1_000_000
MARBLE = 1000
INFINITY = 10 * WIN

# --- evaluation tables ----------------------------------------------------------------------------

RING_WEIGHTS = (40, 30, 18, 6, -10)
PAIR = 6
EDGE_DANGER = 14


def _rings() -> tuple[int, ...]:
    rings = [0] * 5
    for row, diagonal in CELLS:
        p, q = row - 4, diagonal - 4
        distance = max(abs(p), abs(q), abs(p - q))
        rings[distance] |= 1 << bit_index(row, diagonal)
    return tuple(rings)


RINGS = _rings()
EDGE = RINGS[4]
INNER = VALID & ~EDGE
AXIS_SHIFTS = (1, 11, 12)
#: Push categories of ``category_masks`` (per axis: in-line forward 3-5, backward 9-11).
PUSH_CATEGORIES = tuple(axis * 20 + k for axis in range(3) for k in (3, 4, 5, 9, 10, 11))
QUIET_CATEGORIES = tuple(c for c in range(60) if c not in PUSH_CATEGORIES)
PUSH_TABLES = tuple((c, CATEGORY_TABLES[c]) for c in PUSH_CATEGORIES)
QUIET_TABLES = tuple((c, CATEGORY_TABLES[c]) for c in QUIET_CATEGORIES)


def _neighbours_inside(bits: int) -> int:
    """Cells next to a marble of ``bits`` (any direction), on the board."""
    around = 0
    for shift in AXIS_SHIFTS:
        around |= (bits << shift) | (bits >> shift)
    return around & VALID


def evaluate(own: int, opp: int) -> int:
    """The static evaluation of the side owning ``own`` (see the module docstring); the
    win/loss test is the caller's."""
    score = MARBLE * (own.bit_count() - opp.bit_count())
    for ring, weight in zip(RINGS, RING_WEIGHTS, strict=True):
        score += weight * ((own & ring).bit_count() - (opp & ring).bit_count())
    for shift in AXIS_SHIFTS:
        score += PAIR * ((own & (own >> shift)).bit_count() - (opp & (opp >> shift)).bit_count())
    score -= EDGE_DANGER * (own & EDGE & _neighbours_inside(opp & INNER)).bit_count()
    score += EDGE_DANGER * (opp & EDGE & _neighbours_inside(own & INNER)).bit_count()
    return score


# --- Zobrist hashing ------------------------------------------------------------------------------

_RANDOM = random.Random(20261124)
ZOBRIST = (
    tuple(_RANDOM.getrandbits(64) for _ in range(VALID.bit_length() + 16)),
    tuple(_RANDOM.getrandbits(64) for _ in range(VALID.bit_length() + 16)),
)
ZOBRIST_SIDE = _RANDOM.getrandbits(64)
_DELTA_CACHE: tuple[dict[int, int], dict[int, int]] = ({}, {})


def zobrist_delta(colour: int, mask: int) -> int:
    """The hash change of xor-ing ``mask`` into the marbles of ``colour`` (0 Black, 1 White)."""
    cache = _DELTA_CACHE[colour]
    value = cache.get(mask)
    if value is None:
        value, bits, keys = 0, mask, ZOBRIST[colour]
        while bits:
            low = bits & -bits
            value ^= keys[low.bit_length() - 1]
            bits ^= low
        cache[mask] = value
    return value


def zobrist(position: Position) -> int:
    """The hash of a position (its marbles and the side to move)."""
    value = zobrist_delta(0, position.black_bits) ^ zobrist_delta(1, position.white_bits)
    return value ^ (ZOBRIST_SIDE if position.side_to_move == WHITE else 0)


# --- move generation in search order ------------------------------------------------------------


def _split_pushes(masks) -> tuple[list[Move], list[Move]]:
    """The push-offs and the other pushes among ``category_masks``' push categories."""
    offs: list[Move] = []
    others: list[Move] = []
    for category, table in PUSH_TABLES:
        mask = masks[category]
        while mask:
            low = mask & -mask
            move = table[low]
            (offs if move.pushed_off is not None else others).append(move)
            mask ^= low
    return offs, others


def pushes(own: int, opp: int) -> tuple[list[Move], list[Move]]:
    """The push-offs and the other pushes of the side owning ``own``."""
    return _split_pushes(category_masks(own, opp))


def ordered_moves(own: int, opp: int) -> tuple[list[Move], list[Move], list[Move]]:
    """Push-offs, pushes and quiet moves of the side owning ``own``."""
    masks = category_masks(own, opp)
    offs, others = _split_pushes(masks)
    quiet: list[Move] = []
    for category, table in QUIET_TABLES:
        mask = masks[category]
        while mask:
            low = mask & -mask
            quiet.append(table[low])
            mask ^= low
    return offs, others, quiet
