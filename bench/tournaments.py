"""Benchmark of the tournament engines; run by hand: ``python bench/tournaments.py [--players N]``.

Prints the wall time to pair each round of an N-player Swiss (default 1000 players, ``--rounds``
default 9) by the FIDE Dutch system, through :func:`pair_swiss`, with seeded random results (draws
included) between rounds, then the slowest round; and the time to compute the full standings with every tie-break for N players after
9 rounds.  Progress goes to stderr.  Targets: pairing <= 10 s, standings <= 0.5 s.
``--rules`` chooses the text: ``dutch-2026`` (default, :mod:`tournaments.pairing.dutch2026`) or
``dutch-until-2026`` (py4swiss); ``--stock`` pairs the latter with py4swiss's own code, without
:mod:`tournaments.pairing.fast` (same pairings, slower), for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import PairingPlayer, RoundEntry, fast, pair_swiss
from tournaments.pairing.dutch import DUTCH_2026, RULESETS
from tournaments.tiebreaks import (
    TIEBREAKS,
    GameEntry,
    StandingsInput,
    StandingsPlayer,
    compute_standings,
)

MIRROR = {"1": "0", "0": "1", "=": "="}


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def play_round(
    players: list[PairingPlayer],
    round_number: int,
    total_rounds: int,
    rng: random.Random,
    rules: str,
) -> tuple[list[PairingPlayer], float]:
    """Pair a round, play it with random results; return the new players and the pairing time."""
    started = time.perf_counter()
    pairing = pair_swiss(players, round_number=round_number, total_rounds=total_rounds, rules=rules)
    elapsed = time.perf_counter() - started
    history = {p.number: list(p.history) for p in players}
    for first, second in pairing.pairs:
        result = rng.choices(["1", "=", "0"], weights=[45, 10, 45])[0]
        history[first].append(RoundEntry(round_number, second, "b", result))
        history[second].append(RoundEntry(round_number, first, "w", MIRROR[result]))
    if pairing.bye is not None:
        history[pairing.bye].append(RoundEntry(round_number, None, None, "U"))
    return [
        PairingPlayer(p.number, p.name, p.rating, tuple(history[p.number])) for p in players
    ], elapsed


def bench_pairing(n_players: int, seed: int, rules: str, rounds: int) -> list[float]:
    rng = random.Random(seed)
    players = [
        PairingPlayer(number, f"Player {number}", 2400 - number)
        for number in range(1, n_players + 1)
    ]
    times = []
    for round_number in range(1, rounds + 1):
        players, elapsed = play_round(players, round_number, rounds, rng, rules)
        print(
            f"  round {round_number} of {n_players} players paired in {elapsed:.2f} s", flush=True
        )
        times.append(elapsed)
    return times


def standings_input(n_players: int, rounds: int, seed: int) -> StandingsInput:
    """A random 9-round event: every round a random perfect pairing (no engine needed)."""
    rng = random.Random(seed)
    entries: dict[int, list[GameEntry]] = {n: [] for n in range(1, n_players + 1)}
    for round_number in range(1, rounds + 1):
        order = list(entries)
        rng.shuffle(order)
        if len(order) % 2:
            entries[order.pop()].append(GameEntry(round_number, None, None, "U"))
        for first, second in zip(order[::2], order[1::2], strict=True):
            result = rng.choices(["1", "=", "0"], weights=[45, 10, 45])[0]
            lost = rng.randint(0, 5)
            if result == "1":
                a, b = (6, lost), (lost, 6)
            elif result == "0":
                a, b = (lost, 6), (6, lost)
            else:
                a = b = (lost, lost)
            entries[first].append(GameEntry(round_number, second, "b", result, *a, "marbles"))
            entries[second].append(
                GameEntry(round_number, first, "w", MIRROR[result], *b, "marbles")
            )
    players = tuple(
        StandingsPlayer(n, f"Player {n}", 2400 - n, tuple(e)) for n, e in entries.items()
    )
    return StandingsInput(players=players, total_rounds=rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--rules", choices=RULESETS, default=DUTCH_2026)
    parser.add_argument("--stock", action="store_true", help="without tournaments.pairing.fast")
    parser.add_argument("--standings-only", action="store_true", help="time the standings only")
    args = parser.parse_args()
    if args.standings_only:
        bench_standings(args)
        return

    # Nothing installs the speed-up on import (the app does it at start-up): do it here.
    if args.stock:
        fast.uninstall()
    else:
        fast.install()
    if args.rules == DUTCH_2026:
        engine = "dutch-2026: tournaments.pairing.dutch2026"
    elif fast.is_installed():
        engine = "dutch-until-2026: py4swiss + tournaments.pairing.fast"
    else:
        engine = "dutch-until-2026: stock py4swiss"
    print(f"pairing rounds 1-{args.rounds} of a {args.players}-player Swiss ({engine}):")
    times = bench_pairing(args.players, args.seed, args.rules, args.rounds)
    slowest = max(range(len(times)), key=times.__getitem__)
    print(
        f"slowest round, {args.players} players ({engine}): round {slowest + 1}, "
        f"{times[slowest]:.2f} s (target <= 10 s); all {args.rounds} rounds {sum(times):.1f} s"
    )

    bench_standings(args)


def bench_standings(args: argparse.Namespace) -> None:
    """Every tie-break at once, and the slowest one alone."""
    progress(f"computing standings of {args.players} players after 9 rounds...")
    data = standings_input(args.players, 9, args.seed)
    started = time.perf_counter()
    rows = compute_standings(data, list(TIEBREAKS))
    standings_seconds = time.perf_counter() - started
    assert len(rows) == args.players
    print(
        f"standings with all {len(TIEBREAKS)} tie-breaks, {args.players} players, 9 rounds: "
        f"{standings_seconds:.3f} s (target <= 0.5 s)"
    )
    each = {}
    for code in TIEBREAKS:
        started = time.perf_counter()
        compute_standings(data, [code])
        each[code] = time.perf_counter() - started
    slowest = max(each, key=each.__getitem__)
    print(f"slowest tie-break alone: {slowest}, {each[slowest]:.3f} s")


if __name__ == "__main__":
    main()
