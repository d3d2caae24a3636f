"""Generated event histories for testing tie-breaks: games, forfeits both ways, half-point,
full-point and zero-point byes, pairing-allocated byes, late entries and withdrawals (the
pairings are random, not a legal Swiss: tie-breaks do not care)."""

import random

from tournaments.pairing import PairingPlayer, RoundEntry


def random_event(seed: int, players: int = 11, rounds: int = 5) -> list[PairingPlayer]:
    rng = random.Random(seed)
    histories: dict[int, list[RoundEntry]] = {n: [] for n in range(1, players + 1)}
    withdrawn = {n: rng.randint(2, rounds) for n in rng.sample(list(histories), players // 8)}
    late = {n: rng.randint(2, rounds) for n in rng.sample(list(histories), players // 10)}
    for number in range(1, rounds + 1):
        order = list(histories)
        rng.shuffle(order)
        gone = [n for n in order if withdrawn.get(n, rounds + 1) <= number]
        not_yet = [n for n in order if late.get(n, 0) > number and n not in gone]
        rest = [n for n in order if n not in gone and n not in not_yet]
        byes = rest[: rng.randint(0, max(1, players // 12))]
        rest = rest[len(byes) :]
        for n in gone + not_yet:
            histories[n].append(RoundEntry(number, None, None, "Z"))
        for n in byes:
            histories[n].append(RoundEntry(number, None, None, rng.choice("HHFZ")))
        if len(rest) % 2:
            histories[rest.pop()].append(RoundEntry(number, None, None, "U"))
        for a, b in zip(rest[::2], rest[1::2], strict=True):
            results = [("1", "0"), ("0", "1"), ("=", "=")] * 4 + [("+", "-"), ("-", "+")]
            first, second = rng.choice(results)
            histories[a].append(RoundEntry(number, b, "b", first))
            histories[b].append(RoundEntry(number, a, "w", second))
    return [
        PairingPlayer(n, f"Player {n}", 1400 + 7 * n, tuple(history))
        for n, history in histories.items()
    ]
