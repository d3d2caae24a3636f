"""Benchmark of the rules engine; run by hand: ``python bench/engine.py [--quick]``.

The computer opponent's numbers come from the same command with an option (the code is in
``bench/search.py``):

- ``--search``: nodes per second and the depth the search finishes in 1 s and 5 s, from the three
  starts and three middle-game positions;
- ``--strength [--games N] [--scale F] [--pairs 8-greedy,8-7,...]``: each level against the one
  below (and level 8 against the greedy one-ply player) over fixed openings, both colours, on the
  server's rules: won, drawn, lost, the win rate and its standard error;
- ``--tactics [--count N] [--seconds S]``: the generated win-now and defence positions, and how
  many level 8 gets wrong in ``S`` seconds each.

Prints the median microseconds per full legal-move generation (a list of Move values whose
notations are ready) over a fixed set of opening, middle-game and end-game positions, the median
microseconds per parse + validate + apply of one move given as text, and the wall time of perft(4)
from the standard start (which must count 5,045,110).  ``--quick`` skips perft(4); ``--full`` also
runs perft(4) from the two daisy starts against the reference table.

Positions come from seeded random playouts, so every run measures the same positions.  The
end-game playouts prefer pushes so that marbles actually leave the board.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Position, apply_move, legal_moves, parse_move, perft, start_position

PERFT4 = {"standard": 5_045_110, "belgian": 8_270_666, "german": 38_240_570}


def playout(start: str, plies: int, seed: int, prefer_pushes: bool) -> Position:
    """A position reached by ``plies`` random moves from a start (deterministic per seed)."""
    rng = random.Random(seed)
    position = start_position(start)
    for _ in range(plies):
        moves = legal_moves(position)
        if not moves:
            break
        if prefer_pushes:
            pushes = [move for move in moves if move.pushed_off] or [m for m in moves if m.pushed]
            if pushes and rng.random() < 0.8:
                moves = pushes
        next_position, _ = apply_move(position, rng.choice(moves))
        if max(next_position.pushed_off("b"), next_position.pushed_off("w")) >= 5:
            break
        position = next_position
    return position


def bench_positions() -> list[tuple[str, Position]]:
    """A fixed list of (phase, position): 6 openings, 6 middle games, 6 end games."""
    positions = []
    for index, start in enumerate(("standard", "belgian", "german") * 2):
        positions.append(("opening", playout(start, 2 + index, seed=index, prefer_pushes=False)))
    for index, start in enumerate(("standard", "belgian", "german") * 2):
        positions.append(
            ("middle", playout(start, 30 + 5 * index, seed=100 + index, prefer_pushes=False))
        )
    for index, start in enumerate(("standard", "belgian", "german") * 2):
        positions.append(("end", playout(start, 400, seed=200 + index, prefer_pushes=True)))
    return positions


def time_per_call(function, argument, repeats: int = 7, number: int = 200) -> float:
    """Best-of-median microseconds per call of ``function(argument)``."""
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(number):
            function(argument)
        samples.append((time.perf_counter() - started) / number * 1e6)
    return statistics.median(samples)


def main() -> None:
    if {"--search", "--strength", "--tactics"} & set(sys.argv[1:]):
        from bench import search as search_bench

        if "--search" in sys.argv[1:]:
            search_bench.speed()
        if "--tactics" in sys.argv[1:] or "--strength" in sys.argv[1:]:
            search_bench.main(sys.argv[1:])
        return
    quick = "--quick" in sys.argv[1:]
    full = "--full" in sys.argv[1:]
    positions = bench_positions()
    print(f"{len(positions)} positions (opening, middle game, end game)")

    def generate(position: Position) -> list[str]:
        return [move.notation for move in legal_moves(position)]

    generation = []
    for phase, position in positions:
        micros = time_per_call(generate, position)
        generation.append(micros)
        lost = f"{position.pushed_off('b')}-{position.pushed_off('w')}"
        print(f"  {phase:8} {len(legal_moves(position)):3} moves  lost {lost}  {micros:6.1f} us")
    print(f"legal-move generation: median {statistics.median(generation):.1f} us per position")

    cases = []
    for _, position in positions:
        moves = legal_moves(position)
        rng = random.Random(position.to_string())
        for move in rng.sample(moves, min(5, len(moves))):
            cases.append((position, move.notation.upper()))

    def parse_and_apply(case: tuple[Position, str]) -> None:
        position, text = case
        apply_move(position, parse_move(position, text))

    applying = [time_per_call(parse_and_apply, case, repeats=5, number=100) for case in cases]
    print(
        f"parse + validate + apply: median {statistics.median(applying):.1f} us per move "
        f"({len(cases)} moves)"
    )

    multiplayer(time_per_call)

    starts = [] if quick else ["standard", "belgian", "german"] if full else ["standard"]
    for start in starts:
        started = time.perf_counter()
        count = perft(start_position(start), 4)
        elapsed = time.perf_counter() - started
        status = "ok" if count == PERFT4[start] else f"WRONG, expected {PERFT4[start]:,}"
        print(f"perft(4) {start}: {count:,} ({status}) in {elapsed:.2f} s")


def multiplayer(time_per_call) -> None:
    """Move generation for three players (each for themself) and four (teams, whose partner
    columns are found by a second, pure-Python pass): the start and a position after 30 random
    plies; and one placement's cost."""
    from games.engine.multi_game import MultiGame

    for players in (3, 4):
        game = MultiGame(players=players, max_plies=1000)
        rng = random.Random(players)
        samples = [game.position]
        for _ in range(30):
            game.play(rng.choice(game.legal_moves()))
        samples.append(game.position)
        micros = [time_per_call(lambda p: p.legal_moves(), p) for p in samples]
        print(
            f"{players} players: legal moves {', '.join(f'{m:.1f}' for m in micros)} us "
            "(start, after 30 plies)"
        )


if __name__ == "__main__":
    main()
