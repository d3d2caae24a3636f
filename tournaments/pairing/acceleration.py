"""Accelerated Swiss: virtual points added to the scores of the top group in the first rounds,
for pairing only (FIDE Handbook C.04.5.1, the Baku Acceleration Method). Pure Python, no
Django.

The method, as its text says:

- before the first round the players, in pairing order, are split in two groups: GA, the
  first half rounded up to the nearest even number (``2 * ceil(N / 4)``: 161 players give 82),
  and GB, the others; with late entries the last GA player stays the same;
- the *accelerated rounds* are the first half of the rounds, rounded up; before pairing the
  first half of them (rounded up) each GA player gets 1 virtual point, before the others ½;
  GB players never get any, nor anyone after the accelerated rounds (a nine-round event: 1
  point in rounds 1-3, ½ in rounds 4-5);
- the virtual points count for pairing only (score groups, floats, colours): never in the
  standings, tie-breaks or the board order.
- it applies to the standard point system (a win worth two draws, nothing for a loss); the
  virtual points are a win's and a draw's points.

TRF-2026 records accelerations as ``250`` lines (:class:`AccelerationBlock`: virtual game
points for rounds ``RRF``-``RRL`` and pairing numbers ``PPPF``-``PPPL``) and the method as ``192
FIDE_DUTCH_BAKU``; JaVaFo's ``XXA`` lines give each player's points round by round. Note that
bbpPairings' own ``FIDE_DUTCH_BAKU`` (without ``250`` lines) puts ``ceil(N / 2)`` players in GA,
one fewer than the text when that number is odd; Sumito writes the ``250`` lines, which
bbpPairings follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from math import ceil

from core.messages import gettext_noop
from tournaments.pairing.model import PairingError, PairingPlayer, Scoring

#: The ``192`` code of a Dutch Swiss with Baku acceleration.
BAKU_SYSTEM = "FIDE_DUTCH_BAKU"


@dataclass(frozen=True, slots=True)
class AccelerationBlock:
    """``points`` virtual points before pairing rounds ``first_round`` to ``last_round`` for
    the players numbered ``first_player`` to ``last_player`` (a TRF ``250`` record)."""

    points: float
    first_round: int
    last_round: int
    first_player: int
    last_player: int


def baku_group_size(players: int) -> int:
    """The number of players in GA: the first half rounded up to the nearest even number."""
    return min(players, 2 * ceil(players / 4))


def baku_blocks(players: int, total_rounds: int, scoring: Scoring) -> tuple[AccelerationBlock, ...]:
    """The Baku method's virtual points for ``players`` players over ``total_rounds`` rounds.
    Raises :class:`PairingError` for a point system the method does not fit."""
    if scoring.loss or abs(scoring.win - 2 * scoring.draw) > 1e-9 or scoring.win <= 0:
        raise PairingError(
            gettext_noop(
                "Baku acceleration needs the standard point system (a win worth two draws, "
                "nothing for a loss)"
            )
        )
    last = baku_group_size(players)
    if players < 1 or total_rounds < 1 or last < 1:
        return ()
    accelerated = ceil(total_rounds / 2)
    full = ceil(accelerated / 2)
    blocks = [AccelerationBlock(scoring.win, 1, full, 1, last)]
    if accelerated > full:
        blocks.append(AccelerationBlock(scoring.draw, full + 1, accelerated, 1, last))
    return tuple(blocks)


def player_accelerations(blocks: Iterable[AccelerationBlock], number: int) -> tuple[float, ...]:
    """Player ``number``'s virtual points before round 1, 2, ... (a later block overrides an
    earlier one, as TRF readers apply them)."""
    values: dict[int, float] = {}
    for block in blocks:
        if block.first_player <= number <= block.last_player:
            for round_number in range(block.first_round, block.last_round + 1):
                values[round_number] = block.points
    if not values:
        return ()
    return tuple(values.get(r, 0.0) for r in range(1, max(values) + 1))


def accelerate(
    players: Sequence[PairingPlayer], blocks: Iterable[AccelerationBlock]
) -> list[PairingPlayer]:
    """The players with their virtual points from ``blocks``."""
    blocks = tuple(blocks)
    return [replace(p, accelerations=player_accelerations(blocks, p.number)) for p in players]


def blocks_of(players: Iterable[PairingPlayer]) -> tuple[AccelerationBlock, ...]:
    """The players' virtual points as few ``250`` blocks: per round, the runs of consecutive
    pairing numbers with the same points, merged over consecutive rounds with the same runs."""
    ordered = sorted(players, key=lambda p: p.number)
    rounds = max((len(p.accelerations) for p in ordered), default=0)
    per_round: list[tuple[tuple[float, int, int], ...]] = []
    for index in range(rounds):
        runs: list[list] = []
        for player in ordered:
            points = player.accelerations[index] if index < len(player.accelerations) else 0.0
            if points and runs and runs[-1][0] == points and runs[-1][2] == player.number - 1:
                runs[-1][2] = player.number
            elif points:
                runs.append([points, player.number, player.number])
        per_round.append(tuple((points, first, last) for points, first, last in runs))
    blocks = []
    start = 0
    for index in range(1, rounds + 1):
        if index == rounds or per_round[index] != per_round[start]:
            for points, first, last in per_round[start]:
                blocks.append(AccelerationBlock(points, start + 1, index, first, last))
            start = index
    return tuple(sorted(blocks, key=lambda b: (b.first_round, b.first_player)))
