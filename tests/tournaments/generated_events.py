"""Generated event histories for testing tie-breaks: games, forfeits both ways, half-point,
full-point and zero-point byes, pairing-allocated byes, late entries and withdrawals (the
pairings are random, not a legal Swiss: tie-breaks do not care); and round-robins with
forfeits, a withdrawal and, for an odd field, a bye each round."""

import random

from tournaments.pairing import PairingPlayer, RoundEntry


def _ratings(rng: random.Random, players: int, spread: bool, unrated: int) -> dict[int, int]:
    """The ladder 1407, 1414, ... or random ratings; ``unrated`` players rated 0."""
    if not spread:
        ratings = {n: 1400 + 7 * n for n in range(1, players + 1)}
    else:
        ratings = {n: rng.randint(1000, 2400) for n in range(1, players + 1)}
    for n in rng.sample(sorted(ratings), unrated):
        ratings[n] = 0
    return ratings


def random_event(
    seed: int, players: int = 11, rounds: int = 5, *, spread: bool = False, unrated: int = 0
) -> list[PairingPlayer]:
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
    ratings = _ratings(rng, players, spread, unrated)
    return [
        PairingPlayer(n, f"Player {n}", ratings[n], tuple(history))
        for n, history in histories.items()
    ]


def random_round_robin(seed: int, players: int) -> list[PairingPlayer]:
    """Everyone meets everyone once (the circle method); results at random with some
    forfeits; one player withdraws, their remaining games forfeited; for an odd field the
    player without an opponent has a zero-point round."""
    rng = random.Random(seed)
    seats = list(range(1, players + 1)) + ([None] if players % 2 else [])
    rounds = len(seats) - 1
    withdrawn, gone_from = rng.randint(1, players), rng.randint(2, rounds)
    histories: dict[int, list[RoundEntry]] = {n: [] for n in range(1, players + 1)}
    for number in range(1, rounds + 1):
        half = len(seats) // 2
        for index in range(half):
            a, b = seats[index], seats[-1 - index]
            if a is None or b is None:
                alone = a or b
                histories[alone].append(RoundEntry(number, None, None, "Z"))
                continue
            if number % 2:
                a, b = b, a
            if withdrawn in (a, b) and number >= gone_from:
                first, second = ("-", "+") if a == withdrawn else ("+", "-")
            else:
                results = [("1", "0"), ("0", "1"), ("=", "=")] * 5 + [("+", "-"), ("-", "+")]
                first, second = rng.choice(results)
            histories[a].append(RoundEntry(number, b, "b", first))
            histories[b].append(RoundEntry(number, a, "w", second))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return [
        PairingPlayer(n, f"Player {n}", rng.randint(1000, 2400), tuple(history))
        for n, history in histories.items()
    ]
