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
- **progress** (only while one side has more marbles: the leader): for each marble of the
  lead (at most 4), the leader scores +8 for each of the other side's marbles on the edge and
  +3 for each one ring inside it, and +3 for each of its own marbles touching one of the other
  side's; all of it times ``urgency`` / 4 (4, the default, is 1; the search raises it as the
  move cap comes near). A side ahead so wants to drive the other side's marbles to the rim and
  to keep in contact with them (where pushes, and trades, happen: each trade brings the leader
  nearer its sixth marble than the other side), rather than sit beside a central mass it cannot
  break; the side behind wants the opposite. It is "mine minus theirs" like the rest: the
  leader's gain is the other side's loss;
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
#: Progress, per marble of the lead (at most LEAD_CAP): the other side's marbles on the edge,
#: one ring inside it, and the leader's marbles touching the other side's.
PROGRESS_EDGE = 8
PROGRESS_NEAR_EDGE = 3
PROGRESS_CONTACT = 3
LEAD_CAP = 4
#: The default ``urgency`` of :func:`evaluate` (a multiplier in quarters: 4 is 1).
URGENCY = 4


def _rings() -> tuple[int, ...]:
    rings = [0] * 5
    for row, diagonal in CELLS:
        p, q = row - 4, diagonal - 4
        distance = max(abs(p), abs(q), abs(p - q))
        rings[distance] |= 1 << bit_index(row, diagonal)
    return tuple(rings)


RINGS = _rings()
EDGE = RINGS[4]
NEAR_EDGE = RINGS[3]
#: The rings as nested disks (ring 0, rings 0-1, 0-2, 0-3) and their weights in evaluate.
DISKS = (RINGS[0], RINGS[0] | RINGS[1], RINGS[0] | RINGS[1] | RINGS[2], VALID & ~RINGS[4])
DISK_WEIGHTS = tuple(
    RING_WEIGHTS[k] - (RING_WEIGHTS[k + 1] if k < 3 else RING_WEIGHTS[4]) for k in range(4)
)
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


def evaluate(own: int, opp: int, urgency: int = URGENCY) -> int:
    """The static evaluation of the side owning ``own`` (see the module docstring); the
    win/loss test is the caller's. ``urgency``: the progress terms' weight, in quarters."""
    # the rings as nested disks (centre, centre and ring 1, ...): 4 x (weight + 10) per disk
    # and -10 per marble is the ring weights' sum, in fewer counts (unrolled: the hot path)
    mine, theirs = own.bit_count(), opp.bit_count()
    lead = mine - theirs
    score = (MARBLE + RING_WEIGHTS[4]) * lead
    score += DISK_WEIGHTS[0] * ((own & DISKS[0]).bit_count() - (opp & DISKS[0]).bit_count())
    score += DISK_WEIGHTS[1] * ((own & DISKS[1]).bit_count() - (opp & DISKS[1]).bit_count())
    score += DISK_WEIGHTS[2] * ((own & DISKS[2]).bit_count() - (opp & DISKS[2]).bit_count())
    score += DISK_WEIGHTS[3] * ((own & DISKS[3]).bit_count() - (opp & DISKS[3]).bit_count())
    score += PAIR * (
        (own & (own >> 1)).bit_count()
        + (own & (own >> 11)).bit_count()
        + (own & (own >> 12)).bit_count()
        - (opp & (opp >> 1)).bit_count()
        - (opp & (opp >> 11)).bit_count()
        - (opp & (opp >> 12)).bit_count()
    )
    inner = opp & INNER
    around = (
        (inner << 1) | (inner >> 1) | (inner << 11) | (inner >> 11) | (inner << 12) | (inner >> 12)
    )
    score -= EDGE_DANGER * (own & EDGE & around).bit_count()
    inner = own & INNER
    around = (
        (inner << 1) | (inner >> 1) | (inner << 11) | (inner >> 11) | (inner << 12) | (inner >> 12)
    )
    score += EDGE_DANGER * (opp & EDGE & around).bit_count()
    if lead:
        score += (
            _progress(own, opp, lead, urgency) if lead > 0 else -_progress(opp, own, -lead, urgency)
        )
    return score


def _progress(leader: int, trailer: int, lead: int, urgency: int) -> int:
    """The leader's progress term (see the module docstring), before its sign."""
    value = (
        PROGRESS_EDGE * (trailer & EDGE).bit_count()
        + PROGRESS_NEAR_EDGE * (trailer & NEAR_EDGE).bit_count()
        + PROGRESS_CONTACT * (leader & _neighbours_inside(trailer)).bit_count()
    )
    return value * min(lead, LEAD_CAP) * urgency // URGENCY


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
