"""Who plays whom in a pool: pure, no Django, time passed in.

Each seeker has a rating and the moment it joined. Two seekers may be paired when their ratings
differ by no more than both will accept: a seeker accepts ``RANGE_START`` points at first, and
``RANGE_GROWTH`` more for every second it has waited, and anyone once it has waited
``ANYONE_AFTER`` seconds (a pool with few players still pairs them). The oldest seeker is served
first, with the closest rating it accepts (ties: the one waiting longest), then the next oldest
still unpaired, and so on: nobody who waited longer is passed over for a better-matched
newcomer, and the result does not depend on the order seekers are given in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

RANGE_START = 100
RANGE_GROWTH = 20
ANYONE_AFTER = 30.0


@dataclass(frozen=True)
class Seeker:
    id: int
    rating: int
    joined_at: datetime


def accepted_range(seeker: Seeker, now: datetime) -> float:
    """How many rating points away from its own ``seeker`` accepts an opponent at ``now``."""
    waited = max(0.0, (now - seeker.joined_at).total_seconds())
    if waited >= ANYONE_AFTER:
        return float("inf")
    return RANGE_START + RANGE_GROWTH * waited


def pairs(seekers: list[Seeker], now: datetime) -> list[tuple[Seeker, Seeker]]:
    """The pairs to make now: (the longer waiting, its opponent)."""
    waiting = sorted(seekers, key=lambda s: (s.joined_at, s.id))
    ranges = {s.id: accepted_range(s, now) for s in waiting}
    taken: set[int] = set()
    made = []
    for seeker in waiting:
        if seeker.id in taken:
            continue
        candidates = [
            other
            for other in waiting
            if other.id != seeker.id
            and other.id not in taken
            and abs(other.rating - seeker.rating) <= min(ranges[seeker.id], ranges[other.id])
        ]
        if not candidates:
            continue
        opponent = min(candidates, key=lambda o: (abs(o.rating - seeker.rating), o.joined_at, o.id))
        taken.update((seeker.id, opponent.id))
        made.append((seeker, opponent))
    return made
