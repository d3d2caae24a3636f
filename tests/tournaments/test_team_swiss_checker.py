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

from tournaments.pairing.model import PairingError
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

from .generated_team_events import EVENTS, random_results

pytest.importorskip("gacrux")

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
            results = random_results(rng, boards)
            matches.append(TeamMatchRecord(number, pair.first, pair.second, results))
        if ours.bye is not None:
            matches.append(TeamMatchRecord(number, ours.bye, None))
