"""The team Swiss (FIDE C.04.6, 2026) against FIDE's checker, gacrux (``gacrux.pairingchecker
-m fideteam``, Otto Milvang's, which Swiss-Manager pairs team Swiss with; MIT, a dev
dependency): generated events are paired by our engine round after round with random board
results (single boards forfeited too), each round written as a TRF-2026 team file and the
next round asked of the checker: the matches, their colours (board 1's first mover) and the
PAB must be the same. Every colour model of art. 1.7, match or game points primary, with and
without the secondary score, odd and even numbers of teams and boards, now and then a match
forfeited as a whole (TRF-2026's ``330``); a round with no legal pairing (art. 3.3.3) is one
for both."""

import json
import random
import subprocess
import sys

import pytest

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
from tournaments.pairing.team_trf import write_team_trf

pytest.importorskip("gacrux")

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


#: The checker's status when a round has no legal pairing.
NO_LEGAL_PAIRING = 2

MODELS = {TYPE_A: "typea", TYPE_B: "typeb", NO_PREFERENCES: "nocolor"}


def checker_round(path, rules, primary) -> tuple[list[tuple[int, int]], int | None, int]:
    """The checker's next round. Its ``-m`` names the colour model and the scores (it reads
    them from there, not from the file's ``192``)."""
    scores = ["mp", "gp"] if primary == "match" else ["gp", "mp"]
    scores = "+".join(scores if rules.secondary_for_colours else scores[:1])
    method = f"fideteam-{MODELS[rules.colour_model]}-{scores}"
    done = subprocess.run(
        [sys.executable, "-m", "gacrux.pairingchecker", "-m", method, "-p", "-i", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    pairs = answer["pairingResult"]["pairs"]
    matches = [(w, b) for w, b in pairs if w and b]
    byes = [w or b for w, b in pairs if not (w and b)]
    return matches, (byes[0] if byes else None), answer["status"]["code"]


def _results(rng: random.Random, boards: int) -> tuple[str, ...]:
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


@pytest.mark.parametrize("event", EVENTS, ids=[f"event{event[0]}" for event in EVENTS])
def test_every_round_is_the_checkers(tmp_path, event):
    seed, count, boards, rounds, model, primary, secondary, initial = event
    rng = random.Random(seed)
    rules = TeamSwissRules(
        rounds=rounds,
        colour_model=model,
        secondary_for_colours=secondary,
        initial_colour=initial,
    )
    teams = [(tpn, f"Team {tpn}") for tpn in range(1, count + 1)]
    matches: list[TeamMatchRecord] = []
    for number in range(1, rounds + 1):
        state = swiss_teams([tpn for tpn, _ in teams], matches, boards, primary=primary)
        try:
            ours = pair_team_round(state, number, rules)
        except PairingError:
            ours = None
        if number > 1:
            path = tmp_path / f"round{number}.trf"
            path.write_text(
                write_team_trf(
                    name=f"Event {seed}",
                    teams=teams,
                    boards=boards,
                    matches=matches,
                    rules=rules,
                    primary=primary,
                )
            )
            theirs, bye, status = checker_round(path, rules, primary)
            if ours is None:  # art. 3.3.3: no legal pairing; the checker finds none either
                assert (theirs, bye, status) == ([], None, NO_LEGAL_PAIRING)
                return
            assert [(pair.first, pair.second) for pair in ours.pairs] == theirs, (
                f"round {number}: ours {ours}"
            )
            assert ours.bye == bye
        assert ours is not None
        for pair in ours.pairs:
            results = _results(rng, boards)
            matches.append(TeamMatchRecord(number, pair.first, pair.second, results))
        if ours.bye is not None:
            matches.append(TeamMatchRecord(number, ours.bye, None))
