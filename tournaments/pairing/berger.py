"""Round-robin schedules by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Public API:

- :func:`berger_rounds` ``(n_players, *, double=False) -> int``;
- :func:`berger_pairings` ``(n_players, round_number, *, double=False,
  swap_last_two_rounds=False) -> list[tuple[int, int | None]]``.

With N players (N even; an odd field gets a dummy number N, and meeting the dummy is the bye),
players i and j (both < N) meet in round r when i + j = r + 1 (mod N - 1); the player x with
2x = r + 1 (mod N - 1) meets N.  N has the first move in even rounds; otherwise the lower number
moves first when j - i is odd, the higher number when it is even.  Pairs are returned in the
tables' board order: board 1 holds N's game, the next boards pair the players just after and
just before N's opponent in the cyclic order 1..N-1, and so on outwards.  This reproduces the
published tables (checked in the tests for 4, 6, 8, 10, 12 and 14 players).

Pairs are (first mover, second mover); in Abalone the first mover is Black.  A bye is
returned as ``(player, None)``, last, since it is no board.

Double round-robin: rounds N..2(N-1) repeat the first cycle with colours reversed.  The
Handbook's Berger tables (C.05, Annex 1) recommend, for a double round-robin, reversing the
order of the last two rounds of the first cycle, to avoid a third consecutive game with the same
colour at the turn of the cycles (quoted so by the Vega manual's appendix C and others); pass
``swap_last_two_rounds=True`` to apply it, as the site's events do unless made before it was
their default (the second cycle then mirrors the swapped order, so each player's colours still
reverse game by game).
"""

from __future__ import annotations

from tournaments.pairing.model import PairingError


def berger_rounds(n_players: int, *, double: bool = False) -> int:
    """Number of rounds: N - 1 for N = n_players rounded up to even, twice that if double."""
    if n_players < 2:
        raise PairingError("a round-robin needs at least two players")
    table_size = n_players + n_players % 2
    return (table_size - 1) * (2 if double else 1)


def _single_cycle_round(table_size: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1..N-1) of the Berger table for N = ``table_size`` players, in
    board order, first mover first."""
    n = table_size
    modulus = n - 1
    target = (round_number + 1) % modulus
    # The player who meets N.
    x = next(i for i in range(1, n) if (2 * i) % modulus == target)
    boards: list[tuple[int, int]] = []
    boards.append((n, x) if round_number % 2 == 0 else (x, n))
    # The other boards, walking the table's rotation: board 2 pairs the players just after x
    # and just before it (in the cyclic order 1..N-1), and so on outwards.
    for step in range(1, n // 2):
        i = (x - 1 + step) % modulus + 1
        j = (x - 1 - step) % modulus + 1
        low, high = min(i, j), max(i, j)
        first, second = (low, high) if (high - low) % 2 == 1 else (high, low)
        boards.append((first, second))
    return boards


def berger_pairings(
    n_players: int,
    round_number: int,
    *,
    double: bool = False,
    swap_last_two_rounds: bool = False,
) -> list[tuple[int, int | None]]:
    """The pairs of one round of a round-robin among players numbered 1..n_players.

    Raises :class:`PairingError` for fewer than two players or a round outside
    ``1..berger_rounds(n_players, double=double)``.
    """
    total = berger_rounds(n_players, double=double)
    if not 1 <= round_number <= total:
        raise PairingError(f"round {round_number} is outside 1..{total}")
    table_size = n_players + n_players % 2
    cycle = table_size - 1
    in_cycle = (round_number - 1) % cycle + 1
    second_cycle = round_number > cycle
    if double and swap_last_two_rounds and cycle >= 2 and in_cycle >= cycle - 1:
        in_cycle = (2 * cycle - 1) - in_cycle  # cycle-1 <-> cycle
    boards = _single_cycle_round(table_size, in_cycle)
    if second_cycle:
        boards = [(second, first) for first, second in boards]
    pairs: list[tuple[int, int | None]] = []
    bye: list[tuple[int, int | None]] = []
    for first, second in boards:
        if n_players % 2 and table_size in (first, second):
            bye.append((second if first == table_size else first, None))
        else:
            pairs.append((first, second))
    return pairs + bye
