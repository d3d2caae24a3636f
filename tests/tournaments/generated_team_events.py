"""Generated team events for the checks against FIDE's programs: team Swiss events paired by
our engine round by round, team round-robins by the Berger tables, each board's result drawn at
random (single boards forfeited too, now and then a match forfeited as a whole)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from tournaments.pairing.berger import berger_pairings, berger_rounds
from tournaments.pairing.model import BLACK, WHITE, PairingError
from tournaments.pairing.team_swiss import (
    NO_PREFERENCES,
    TYPE_A,
    TYPE_B,
    TeamMatchRecord,
    TeamSwissRules,
    pair_team_round,
    swiss_teams,
)

RESULTS = ["1-0", "0-1", "1/2-1/2"] * 6 + ["+-", "-+", "--"]

#: (seed, teams, boards, rounds, colour model, primary score, secondary for colours, initial)
EVENTS = [
    (1, 7, 4, 5, TYPE_A, "match", True, BLACK),
    (2, 8, 4, 5, TYPE_A, "match", True, WHITE),
    (3, 9, 3, 6, TYPE_B, "match", True, BLACK),
    (4, 10, 4, 7, TYPE_B, "game", True, WHITE),
    (5, 11, 2, 6, NO_PREFERENCES, "match", True, BLACK),
    (6, 12, 6, 7, TYPE_A, "game", False, BLACK),
    (7, 13, 4, 7, TYPE_B, "match", False, WHITE),
    (8, 6, 4, 5, TYPE_A, "match", True, BLACK),
    (9, 16, 4, 7, TYPE_A, "match", True, WHITE),
    (10, 15, 5, 6, TYPE_B, "game", True, BLACK),
    (11, 5, 2, 5, TYPE_A, "match", True, WHITE),
    (12, 20, 4, 8, TYPE_B, "match", True, BLACK),
]


def _generated(seed: int) -> tuple:
    rng = random.Random(seed)
    count = rng.randint(4, 24)
    return (
        seed,
        count,
        rng.randint(1, 8),
        rng.randint(3, min(9, count // 2 + 2)),
        rng.choice([TYPE_A, TYPE_A, TYPE_B, NO_PREFERENCES]),
        rng.choice(["match", "match", "game"]),
        rng.random() < 0.8,
        rng.choice([BLACK, WHITE]),
    )


#: Wider: generated sizes and settings.
EVENTS += [_generated(seed) for seed in range(100, 136)]


def random_results(rng: random.Random, boards: int) -> tuple[str, ...]:
    """A match's board results, single boards forfeited too; now and then a match forfeited as
    a whole (a team did not come: it loses every board; rarely neither came)."""
    roll = rng.random()
    if roll < 0.04:  # the second team did not come: the first wins every board
        return tuple("+-" if board % 2 == 0 else "-+" for board in range(boards))
    if roll < 0.06:
        return ("--",) * boards
    while True:
        results = tuple(rng.choice(RESULTS) for _ in range(boards))
        if any(result in ("1-0", "0-1", "1/2-1/2") for result in results):
            return results


@dataclass(frozen=True)
class PlayedEvent:
    """A generated event as played: its teams ``(number, name)``, boards, rounds, rules and
    every match (a team Swiss stops at a round with no legal pairing)."""

    teams: list[tuple[int, str]]
    boards: int
    rules: TeamSwissRules
    primary: str
    matches: list[TeamMatchRecord]
    round_robin: bool = False

    @property
    def rounds_played(self) -> int:
        return max((match.round for match in self.matches), default=0)


def played_swiss(event: tuple) -> PlayedEvent:
    """A team Swiss of :data:`EVENTS` played to its last round by our engine."""
    seed, count, boards, rounds, model, primary, secondary, initial = event
    rng = random.Random(seed)
    rules = TeamSwissRules(
        rounds=rounds, colour_model=model, secondary_for_colours=secondary, initial_colour=initial
    )
    teams = [(tpn, f"Team {tpn}") for tpn in range(1, count + 1)]
    matches: list[TeamMatchRecord] = []
    for number in range(1, rounds + 1):
        state = swiss_teams([tpn for tpn, _ in teams], matches, boards, primary=primary)
        try:
            pairing = pair_team_round(state, number, rules)
        except PairingError:  # art. 3.3.3: no legal pairing; the event ends here
            break
        for pair in pairing.pairs:
            matches.append(
                TeamMatchRecord(number, pair.first, pair.second, random_results(rng, boards))
            )
        if pairing.bye is not None:
            matches.append(TeamMatchRecord(number, pairing.bye, None))
    return PlayedEvent(teams, boards, rules, primary, matches)


def played_round_robin(seed: int, count: int, boards: int, double: bool = False) -> PlayedEvent:
    """A team round-robin by the Berger tables (the first team has Black on board 1); in an odd
    field the team without an opponent is not paired that round."""
    rng = random.Random(seed)
    rounds = berger_rounds(count, double=double)
    teams = [(tpn, f"Club {tpn}") for tpn in range(1, count + 1)]
    matches = [
        TeamMatchRecord(number, first, second, random_results(rng, boards))
        for number in range(1, rounds + 1)
        for first, second in berger_pairings(count, number, double=double)
        if second is not None
    ]
    rules = TeamSwissRules(rounds=rounds, colour_model=TYPE_A, initial_colour=BLACK)
    # game points first only in an even field: the checker stops (a KeyError) on a round
    # a team had no match in when it reads that team's game points
    primary = rng.choice(["match", "game"]) if count % 2 == 0 else "match"
    return PlayedEvent(teams, boards, rules, primary, matches, True)
