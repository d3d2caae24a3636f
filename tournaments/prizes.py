"""Prizes at the end of an event: who wins what. Pure Python, no Django.

The director lists the prizes in order of priority: the overall places first (1st, 2nd, ...),
then category prizes (best under a rating, best junior or senior, best woman, best of a club,
best unrated). :func:`award` gives them out from the final standings:

- each player receives **at most one prize**;
- the overall prizes go by place; a category prize goes to the best-placed eligible player who
  has no prize yet, in the director's order of the list;
- in a knockout cup the final places stand for the standings: the sides that share a place
  (the losers of one round) stand on equal points, in seed order;
- a team (a team cup's side) takes the overall places and its club's prizes, never a player's
  category (rating, age, women, unrated);
- ties (equal points) are broken by the event's tie-breaks (``ties="tiebreak"``: the standings'
  order decides), or the prizes are **shared equally** (``ties="split"``, the Hort system's
  simple form): players on equal points who take prizes of one kind (the overall places, or
  the places of one category) share the sum of those prizes' money equally, each counted as
  having a prize. Prizes without money (a trophy) are never shared: the tie-breaks decide them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

OVERALL = "overall"
RATING_BELOW = "rating_below"
AGE_UNDER = "age_under"
AGE_OVER = "age_over"
WOMEN = "women"
CLUB = "club"
UNRATED = "unrated"
CATEGORIES = (OVERALL, RATING_BELOW, AGE_UNDER, AGE_OVER, WOMEN, CLUB, UNRATED)
TIES = ("tiebreak", "split")


@dataclass(frozen=True, slots=True)
class Contender:
    """A player in the final standings, best first (``rank`` 1..n, ties broken)."""

    number: int
    rank: int
    points: float
    rating: int = 0
    birth_year: int | None = None
    sex: str = ""
    club: str = ""
    #: a team (a team cup's side): only the overall places and its club's prizes are its
    team: bool = False


@dataclass(frozen=True, slots=True)
class Prize:
    """One prize: its ``kind`` (a category of :data:`CATEGORIES`), the category's threshold
    (a rating for ``rating_below``, an age for ``age_under``/``age_over``), the club's name for
    ``club``, its money (``amount``, or None for a prize in kind) and its ``label``."""

    key: int
    kind: str = OVERALL
    threshold: int | None = None
    club: str = ""
    amount: Decimal | None = None
    label: str = ""


@dataclass
class Award:
    """One or more places of a category given out together: one prize to one winner, or (ties
    shared) the places a group of tied players occupy, their money pooled and shared equally."""

    prizes: list[Prize]
    winners: list[int] = field(default_factory=list)
    #: each winner's money: the prize's, or the equal share (rounded down to the cent)
    share: Decimal | None = None

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


def eligible(prize: Prize, player: Contender, *, year: int) -> bool:
    """Whether ``player`` may take ``prize`` (age counted as ``year`` minus the birth year)."""
    if prize.kind == OVERALL:
        return True
    if player.team and prize.kind != CLUB:
        return False
    if prize.kind == RATING_BELOW:
        return prize.threshold is not None and 0 < player.rating < prize.threshold
    if prize.kind == UNRATED:
        return not player.rating
    if prize.kind == WOMEN:
        return player.sex == "w"
    if prize.kind == CLUB:
        return bool(prize.club) and player.club.casefold() == prize.club.casefold()
    if player.birth_year is None or prize.threshold is None:
        return False
    age = year - player.birth_year
    return age < prize.threshold if prize.kind == AGE_UNDER else age >= prize.threshold


def _groups(prizes: Sequence[Prize]) -> list[list[Prize]]:
    """Consecutive prizes of the same category (the overall places; each category's places)."""
    groups: list[list[Prize]] = []
    for prize in prizes:
        same = (prize.kind, prize.threshold, prize.club.casefold())
        if (
            groups
            and (groups[-1][0].kind, groups[-1][0].threshold, groups[-1][0].club.casefold()) == same
        ):
            groups[-1].append(prize)
        else:
            groups.append([prize])
    return groups


def award(
    prizes: Sequence[Prize],
    standings: Sequence[Contender],
    *,
    year: int,
    ties: str = "tiebreak",
) -> list[Award]:
    """The prizes given out, in the order listed; places nobody can take have no winners."""
    if ties not in TIES:
        raise ValueError(f"ties is one of {', '.join(TIES)}")
    order = sorted(standings, key=lambda player: player.rank)
    awarded: set[int] = set()
    awards: list[Award] = []
    for group in _groups(prizes):
        candidates = [
            player
            for player in order
            if player.number not in awarded and eligible(group[0], player, year=year)
        ]
        awards += _give(group, candidates, ties, awarded)
    return awards


def _give(
    group: list[Prize], candidates: list[Contender], ties: str, awarded: set[int]
) -> list[Award]:
    """The places of one category to ``candidates`` (best first, none with a prize yet)."""
    awards: list[Award] = []
    place, pool = 0, list(candidates)
    while place < len(group) and pool:
        tied = [player for player in pool if player.points == pool[0].points]
        places = group[place : place + len(tied)]
        money = [prize.amount for prize in places]
        if ties == "split" and len(tied) > 1 and all(amount is not None for amount in money):
            total = sum(money, Decimal(0))
            share = (total / len(tied)).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
            awards.append(Award(places, [player.number for player in tied], share))
            winners = tied
        else:
            awards.append(Award([group[place]], [pool[0].number], group[place].amount))
            winners = [pool[0]]
        awarded.update(player.number for player in winners)
        pool = [player for player in pool if player not in winners]
        place += len(awards[-1].prizes)
    awards += [Award([prize]) for prize in group[place:]]  # nobody left to take them
    return awards
