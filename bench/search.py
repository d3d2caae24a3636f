"""Benchmark of the computer opponent (games.engine.search); run by hand:

    python bench/search.py                    # speed: nodes/s and depth in 1 s and 5 s
    python bench/search.py --strength [--games N] [--scale F] [--pairs 8-greedy,2-1,...]

Speed: from the three starts and three middle-game positions (seeded playouts), the nodes per
second and the depth the search finishes within 1 s and 5 s.

Strength: each level against the one below (and level 8 against the greedy one-ply player) over a
fixed set of openings (each start, then two random plies from a seeded generator), both colours,
on the server's rules (6 marbles to win, threefold repetition a draw, 400 plies a draw). Each
move's thinking time is the level's own scaled by ``--scale`` (default 0.2: level 8 thinks 1 s
instead of 5) so the table runs in minutes, not hours; the levels keep their depth limits. Prints the win rate (a draw is half) of the stronger
side with its standard error, sqrt(p(1-p)/n). Games run on all cores.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game, apply_move, start_position  # noqa: E402
from games.engine.search import LEVELS, Searcher, best_move, greedy_move  # noqa: E402


def middle_games() -> list:
    positions = []
    for seed, start in enumerate(("standard", "belgian", "german")):
        rng = random.Random(seed)
        position = start_position(start)
        for _ in range(30):
            position, _ = apply_move(position, rng.choice(position.legal_moves()))
        positions.append((f"{start}+30", position))
    return positions


def speed() -> None:
    cases = [(name, start_position(name)) for name in ("standard", "belgian", "german")]
    cases += middle_games()
    print("position        budget  depth   nodes      nodes/s")
    for name, position in cases:
        for seconds in (1.0, 5.0):
            result = Searcher().search(position, seconds=seconds)
            rate = result.nodes / max(result.seconds, 1e-9)
            print(
                f"{name:14} {seconds:5.0f} s  {result.depth:5}  {result.nodes:8,}  {rate:10,.0f}",
                flush=True,
            )


def openings(count: int) -> list[list[str]]:
    rng = random.Random(2026)
    lines = []
    for index in range(count):
        start = ("standard", "belgian", "german")[index % 3]
        game = Game(start)
        line = [start]
        for _ in range(2):
            move = rng.choice(game.legal_moves())
            game.play(move)
            line.append(move.notation)
        lines.append(line)
    return lines


def player_move(player, game: Game, rng: random.Random, scale: float, searcher):
    if player == "greedy":
        return greedy_move(game.position, rng)
    seconds = LEVELS[player].seconds * scale
    return best_move(game.position, level=player, seconds=seconds, searcher=searcher, rng=rng).move


def play(args) -> float:
    """One game; the score of ``strong`` (1, 1/2 or 0)."""
    strong, weak, opening, strong_is_black, scale, seed = args
    rng = random.Random(seed)
    game = Game(opening[0])
    for notation in opening[1:]:
        game.play(notation)
    searchers = {strong: Searcher(seed=seed), weak: Searcher(seed=seed + 1)}
    while not game.is_over:
        black_to_move = game.side_to_move == "b"
        player = strong if black_to_move == strong_is_black else weak
        game.play(player_move(player, game, rng, scale, searchers[player]))
    if game.winner is None:
        return 0.5
    return 1.0 if (game.winner == "b") == strong_is_black else 0.0


def strength(games: int, scale: float, pairs: list[tuple]) -> None:
    lines = openings(max(1, (games + 1) // 2))
    print(f"strength: {games} games a pair, thinking times x{scale}, openings {len(lines)}")
    print("stronger  weaker   games  score   win rate  error")
    with multiprocessing.Pool() as pool:
        for strong, weak in pairs:
            started = time.perf_counter()
            jobs = [
                (strong, weak, line, black, scale, 1000 * i + black)
                for i, line in enumerate(lines)
                for black in (True, False)
            ][:games]
            scores = pool.map(play, jobs)
            n = len(scores)
            p = sum(scores) / n
            error = math.sqrt(p * (1 - p) / n)
            print(
                f"{strong!s:8}  {weak!s:7}  {n:5}  {sum(scores):5.1f}  {100 * p:7.1f} %  "
                f"{100 * error:4.1f} %   ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )


def main() -> None:
    args = sys.argv[1:]
    if "--strength" not in args:
        speed()
        return
    games = int(args[args.index("--games") + 1]) if "--games" in args else 12
    scale = float(args[args.index("--scale") + 1]) if "--scale" in args else 0.2
    pairs = [(8, "greedy")] + [(level, level - 1) for level in range(8, 1, -1)]
    if "--pairs" in args:
        pairs = []
        for item in args[args.index("--pairs") + 1].split(","):
            a, b = item.split("-")
            pairs.append((int(a), b if b == "greedy" else int(b)))
    strength(games, scale, pairs)


if __name__ == "__main__":
    main()
