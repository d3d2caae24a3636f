"""Generated team events as :class:`TrfTeamEvent`: rosters, line-ups that change from round to
round, boards left empty, whole matches not played and byes (for the TRF round trip and FIDE's
checker)."""

from __future__ import annotations

import random

from tournaments.pairing.team_trf_event import (
    SWISS,
    TrfTeam,
    TrfTeamEvent,
    TrfTeamMatch,
    TrfTeamPlayer,
)
from tournaments.pairing.teams import TeamScoring
from tournaments.pairing.trf_model import TrfIdentity

PLAYED = ("1-0", "0-1", "1/2-1/2")


def _lineup(rng: random.Random, roster: tuple[int, ...], boards: int, absent: bool) -> list:
    """Players of the roster in its order on ``boards`` boards, some boards left empty."""
    if absent:
        return [None] * boards
    count = min(len(roster), boards)
    chosen = sorted(rng.sample(range(len(roster)), count))
    players: list = [roster[i] for i in chosen]
    if rng.random() < 0.2:
        players[rng.randrange(boards)] = None
    return players + [None] * (boards - len(players))


def _result(rng: random.Random, black, white) -> str:
    if black is None and white is None:
        return "--"
    if white is None:
        return "+-"
    if black is None:
        return "-+"
    if rng.random() < 0.05:
        return rng.choice(("+-", "-+", "--"))
    return rng.choice(PLAYED)


def generated_team_event(seed: int, *, checkable: bool = False) -> TrfTeamEvent:
    """A generated event; ``checkable``: every board names a player and every match was played
    (FIDE's checker cannot read a board or a match nobody came to, which TRF-2026 writes as a
    ``330`` record and no ``001`` block)."""
    rng = random.Random(seed)
    boards = rng.randint(1, 6)
    count = rng.randint(3, 10)
    rounds = rng.randint(1, min(7, count + 1))
    players, teams = [], []
    number = 0
    for tpn in range(1, count + 1):
        roster = []
        for _ in range(boards + rng.randint(0, 3)):
            number += 1
            roster.append(number)
            players.append(
                TrfTeamPlayer(
                    number,
                    f"Player{number}, Team{tpn}",
                    rng.choice((0, rng.randint(1000, 2400))),
                    TrfIdentity(
                        federation=rng.choice(("", "BEL", "NED")), sex=rng.choice("mw ")[0].strip()
                    ),
                )
            )
        teams.append(TrfTeam(tpn, f"Team {tpn} of seed {seed}", tuple(roster)))
    matches = []
    met: set[frozenset] = set()
    for round_ in range(1, rounds + 1):
        order = list(range(1, count + 1))
        rng.shuffle(order)
        bye = order.pop() if len(order) % 2 else None
        for a, b in zip(order[::2], order[1::2], strict=True):
            met.add(frozenset((a, b)))
            # 0: both came, 1: the first team fielded nobody, 2: the second, 3: neither
            absent = 0 if checkable else rng.choices((0, 1, 2, 3), (90, 4, 4, 2))[0]
            first = _lineup(rng, teams[a - 1].players, boards, absent in (1, 3))
            second = _lineup(rng, teams[b - 1].players, boards, absent in (2, 3))
            if checkable:
                if not any(first):
                    first = list(teams[a - 1].players[:boards])
                if not any(second):
                    second = list(teams[b - 1].players[:boards])
                if not any(
                    x is not None and y is not None for x, y in zip(first, second, strict=True)
                ):
                    # no board played: the checker counts the match as not played at all
                    first = list(teams[a - 1].players[:boards])
                    second = list(teams[b - 1].players[:boards])
                for i in range(boards):
                    if first[i] is None and second[i] is None:
                        second = list(teams[b - 1].players[:boards])
                        second += [None] * (boards - len(second))
            results = tuple(
                _result(rng, *((first[i], second[i]) if i % 2 == 0 else (second[i], first[i])))
                for i in range(boards)
            )
            matches.append(TrfTeamMatch(round_, a, b, tuple(first), tuple(second), results))
        if bye is not None:
            matches.append(TrfTeamMatch(round_, bye, None))
    return TrfTeamEvent(
        name=f"Generated team event {seed}",
        system=SWISS,
        rounds=rounds + rng.randint(0, 2),
        boards=boards,
        players=tuple(players),
        teams=tuple(teams),
        matches=tuple(matches),
        scoring=rng.choice((TeamScoring(), TeamScoring(3.0, 1.0, 0.0))),
        primary=rng.choice(("match", "game")),
        colour_model=rng.choice(("A", "B", "none")),
    )
