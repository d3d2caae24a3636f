"""Benchmark of the computer opponent (games.engine.search); run by hand:

    python bench/search.py                    # speed: nodes/s and depth in 1 s and 5 s
    python bench/search.py --cpu-speed [--depth D]   # nodes per CPU second, fixed depth
    python bench/search.py --strength [--games N] [--scale F] [--pairs 8-greedy,2-1,...]
    python bench/search.py --tactics [--count N] [--seconds S]
    python bench/search.py --conversion [--count N] [--scale F] [--cap PLIES] [--rate NODES]

``python bench/engine.py --search`` / ``--strength`` / ``--tactics`` run the same functions.

Speed: from the three starts and three middle-game positions (seeded playouts), the nodes per
second and the depth the search finishes within 1 s and 5 s.

CPU speed: searches to a fixed depth (default 4) from the speed positions and six conversion
positions (below), and the nodes per second of this process's CPU time: a figure that a busy,
shared machine disturbs far less than the wall-clock speed (each side of a comparison is best
run in turn, a few times).

Strength: each level against the one below (and level 8 against the greedy one-ply player) over a
fixed set of openings (each start, then two random plies from a seeded generator), each opening
played twice with the colours swapped, on the server's rules (6 marbles to win, threefold
repetition a draw, 400 plies a draw). Each move's thinking time is the level's own scaled by
``--scale`` (default 0.2: level 8 thinks 1 s instead of 5) so the table runs in minutes, not
hours; the levels keep their depth limits, which levels 3 to 7 reach well within their time.
Prints wins, draws and losses of the stronger side, its win rate (a draw is half) and that
rate's standard error, sqrt(p(1-p)/n), the mean length in plies and the draws by repetition.
The searching levels are given the game's earlier positions, as the server gives them. Games run on all cores; a progress line goes to stderr.

Tactics: the generated win-now and defence positions of ``games.engine.tactics``, each searched by
level 8 for ``--seconds`` (default 3), and the number it gets wrong (which must be none).

Conversion: level 8 against level 7 from ``--count`` (default 20) positions in which level 8's
side is 3 or 4 marbles up (:func:`conversion_positions`: seeded random plies from the three
starts, then 3 or 4 of the other side's marbles taken off; level 8 plays Black in half of them,
and either side may be to move). Each game is played to its end under a ``--cap`` of 200 plies
(a draw there), threefold repetition a draw, the game's earlier positions given to both
searches as on the server; thinking times as for the strength table (``--scale``, level 8 1 s).
Prints wins, draws (by the cap, by repetition) and losses, and the share won within the cap.

``--rate NODES`` (conversion: default 50,000; strength: off unless given) runs the searches on a
node clock rather than the wall clock: a second of thinking is ``NODES`` nodes searched, so the
games are the same on an idle or a busy machine (the same seeds give the same moves) and a
before/after comparison measures the code, not the machine's load. An idle core searches about
200,000-300,000 nodes a second, so the default is about a fifth of the level's time.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game, Position, apply_move, start_position  # noqa: E402
from games.engine.levels import LEVELS, best_move, greedy_move  # noqa: E402
from games.engine.search import Searcher  # noqa: E402


def middle_games() -> list:
    positions = []
    for seed, start in enumerate(("standard", "belgian", "german")):
        rng = random.Random(seed)
        position = start_position(start)
        for _ in range(30):
            position, _ = apply_move(position, rng.choice(position.legal_moves()))
        positions.append((f"{start}+30", position))
    return positions


def speed(budgets: tuple[float, ...] = (1.0, 5.0)) -> None:
    cases = [(name, start_position(name)) for name in ("standard", "belgian", "german")]
    cases += middle_games()
    print("position        budget  depth   nodes      nodes/s")
    for name, position in cases:
        for seconds in budgets:
            result = Searcher().search(position, seconds=seconds)
            rate = result.nodes / max(result.seconds, 1e-9)
            print(
                f"{name:14} {seconds:5.0f} s  {result.depth:5}  {result.nodes:8,}  {rate:10,.0f}",
                flush=True,
            )


def cpu_speed(depth: int = 4) -> float:
    """Nodes per CPU second of fixed-depth searches (see the module docstring); printed."""
    cases = [(name, start_position(name)) for name in ("standard", "belgian", "german")]
    cases += middle_games()
    cases += [(name, Position.from_string(text)) for name, text, _ in conversion_positions(6)]
    nodes, cpu = 0, 0.0
    for _, position in cases:
        searcher = Searcher(seed=1)
        started = time.process_time()
        result = searcher.search(position, seconds=600, max_depth=depth)
        cpu += time.process_time() - started
        nodes += result.nodes
    rate = nodes / max(cpu, 1e-9)
    print(f"cpu speed: depth {depth}, {len(cases)} positions, {nodes:,} nodes in {cpu:.2f} CPU s")
    print(f"cpu speed: {rate:,.0f} nodes per CPU second", flush=True)
    return rate


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


class NodeClock:
    """A stand-in for the search module's ``time``: ``perf_counter`` counts the nodes the
    current searcher has searched, ``rate`` to the second (monotonic across searches)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.searcher = None
        self._base = 0
        self._last = 0

    def perf_counter(self) -> float:
        nodes = self.searcher.nodes if self.searcher is not None else 0
        if nodes < self._last:  # a new search started counting from 0
            self._base += self._last
        self._last = nodes
        return (self._base + nodes) / self.rate


_NODE_CLOCK: NodeClock | None = None


def use_node_clock(rate: float | None) -> None:
    """Run this process's searches on a :class:`NodeClock` of ``rate`` nodes a second (None:
    the wall clock)."""
    global _NODE_CLOCK
    import games.engine.search as search_module

    _NODE_CLOCK = NodeClock(rate) if rate else None
    search_module.time = _NODE_CLOCK or time


def player_move(player, game: Game, rng: random.Random, scale: float, searcher):
    if player == "greedy":
        return greedy_move(game.position, rng)
    if _NODE_CLOCK is not None:
        _NODE_CLOCK.searcher = searcher
    seconds = LEVELS[player].seconds * scale
    history = game.positions[:-1]
    # as the server's worker does: the plies left to a move cap that draws
    plies_left = game.settings.max_plies - game.ply
    return best_move(
        game.position,
        level=player,
        seconds=seconds,
        searcher=searcher,
        rng=rng,
        history=history,
        plies_left=plies_left if game.settings.max_plies_result == "draw" else None,
    ).move


def play(args) -> tuple[float, int, str]:
    """One game: the score of ``strong`` (1, 1/2 or 0), the plies and how it ended."""
    strong, weak, opening, strong_is_black, scale, seed, rate = args
    use_node_clock(rate)
    rng = random.Random(seed)
    game = Game(opening[0])
    for notation in opening[1:]:
        game.play(notation)
    searchers = {strong: Searcher(seed=seed), weak: Searcher(seed=seed + 1)}
    while not game.is_over:
        black_to_move = game.side_to_move == "b"
        player = strong if black_to_move == strong_is_black else weak
        game.play(player_move(player, game, rng, scale, searchers[player]))
    ending = game.termination or "?"
    if game.winner is None:
        return 0.5, game.ply, ending
    return (1.0 if (game.winner == "b") == strong_is_black else 0.0), game.ply, ending


def strength(games: int, scale: float, pairs: list[tuple], rate: float | None = None) -> list[dict]:
    """Play the ``pairs`` (stronger, weaker) and print a table; returns its rows."""
    lines = openings(max(1, (games + 1) // 2))
    clock = f", a node clock of {rate:,.0f} nodes a second" if rate else ""
    print(f"strength: {games} games a pair, thinking times x{scale}{clock}, openings {len(lines)}")
    print("stronger  weaker   games  won drawn lost  win rate  error   plies  rep.")
    rows = []
    with multiprocessing.Pool() as pool:
        for strong, weak in pairs:
            started = time.perf_counter()
            jobs = [
                (strong, weak, line, black, scale, 1000 * i + black, rate)
                for i, line in enumerate(lines)
                for black in (True, False)
            ][:games]
            results = []
            for result in pool.imap_unordered(play, jobs):
                results.append(result)
                print(
                    f"\r  {strong}-{weak}: {len(results)}/{len(jobs)} games, "
                    f"{time.perf_counter() - started:.0f} s",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            print(file=sys.stderr)
            scores = [score for score, _, _ in results]
            n = len(scores)
            p = sum(scores) / n
            error = math.sqrt(p * (1 - p) / n)
            won, lost = scores.count(1.0), scores.count(0.0)
            plies = sum(ply for _, ply, _ in results) / n
            repeated = sum(1 for _, _, ending in results if ending == "repetition")
            row = {
                "stronger": strong,
                "weaker": weak,
                "games": n,
                "won": won,
                "drawn": n - won - lost,
                "lost": lost,
                "rate": p,
                "error": error,
                "plies": plies,
                "repetitions": repeated,
            }
            rows.append(row)
            print(
                f"{strong!s:8}  {weak!s:7}  {n:5}  {won:3} {n - won - lost:5} {lost:4}  "
                f"{100 * p:6.1f} %  {100 * error:4.1f} %  {plies:5.0f}  {repeated:4}   "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return rows


def _solve(args) -> tuple[str, str, bool]:
    source, position, marbles_to_win, answers, seconds = args
    result = best_move(position, level=8, seconds=seconds, marbles_to_win=marbles_to_win)
    move = result.move.notation if result.move else "-"
    return source, move, move in answers


def tactics(count: int, seconds: float, seed: int = 7) -> dict[str, int]:
    """Search ``count`` generated tactics of each kind; print and return the failures."""
    from games.engine.tactics import generate

    failures = {}
    with multiprocessing.Pool() as pool:
        for kind in ("win", "defend"):
            started = time.perf_counter()
            jobs = [
                (t.source, t.position, t.marbles_to_win, t.answers, seconds)
                for t in generate(kind, count, seed)
            ]
            wrong = 0
            for done, (source, move, ok) in enumerate(pool.imap_unordered(_solve, jobs), 1):
                if not ok:
                    wrong += 1
                    print(f"  WRONG {kind}: {source}: played {move}", flush=True)
                print(f"\r  {kind}: {done}/{len(jobs)}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            failures[kind] = wrong
            print(
                f"tactics {kind}: {len(jobs)} positions (seed {seed}), {seconds} s each, "
                f"{wrong} wrong ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return failures


def conversion_positions(count: int, seed: int = 23) -> list[tuple[str, str, str]]:
    """``count`` positions (name, position string, level 8's colour) with level 8's side 3 or 4
    marbles up: from each start in turn, 8 to 31 random plies (seeded; no push-off), then 3 or
    4 marbles of the other side, drawn by lot, taken off. Level 8 is Black in the even ones;
    the plies' parity decides who is to move, so every pairing of colour and turn occurs."""
    positions = []
    for index in range(count):
        rng = random.Random(seed * 1000 + index)
        start = ("standard", "belgian", "german")[index % 3]
        position = start_position(start)
        plies = 8 + rng.randrange(24)
        for _ in range(plies):
            moves = [m for m in position.legal_moves() if not m.pushed_off]
            position, _ = apply_move(position, rng.choice(moves))
        leader = "b" if index % 2 == 0 else "w"
        black, white = list(position.black_cells), list(position.white_cells)
        trailing = white if leader == "b" else black
        for cell in rng.sample(sorted(trailing), 3 + (index % 4 == 1)):
            trailing.remove(cell)
        position = Position.from_cells(position.side_to_move, black, white)
        assert position.has_legal_move()
        lead = position.pushed_off("w" if leader == "b" else "b") - position.pushed_off(leader)
        assert lead >= 3, (index, lead)
        positions.append((f"{start}+{plies}", position.to_string(), leader))
    return positions


def _convert(args) -> tuple[str, str, int, str]:
    """One conversion game: its name, the result for level 8 (win, draw, loss), the plies and
    how it ended."""
    name, text, leader, scale, cap, seed, rate = args
    use_node_clock(rate)
    rng = random.Random(seed)
    game = Game(text, max_plies=cap)
    searchers = {8: Searcher(seed=seed), 7: Searcher(seed=seed + 1)}
    while not game.is_over:
        player = 8 if game.side_to_move == leader else 7
        game.play(player_move(player, game, rng, scale, searchers[player]))
    outcome = "draw" if game.winner is None else "win" if game.winner == leader else "loss"
    return name, outcome, game.ply, game.termination or "?"


def conversion(
    count: int, scale: float, cap: int = 200, rate: float | None = 50_000
) -> dict[str, int]:
    """Level 8 against level 7 from ``count`` positions 3-4 marbles up; prints and returns the
    counts of wins, draws (by the cap, by repetition) and losses."""
    jobs = [
        (name, text, leader, scale, cap, 5000 + index, rate)
        for index, (name, text, leader) in enumerate(conversion_positions(count))
    ]
    print(
        f"conversion: level 8 ({LEVELS[8].seconds * scale:g} s a move) against level 7 "
        f"({LEVELS[7].seconds * scale:g} s, depth {LEVELS[7].depth}) from {len(jobs)} positions "
        f"3-4 marbles up, {cap}-ply cap"
        + (f", a node clock of {rate:,.0f} nodes a second" if rate else ", the wall clock")
    )
    started = time.perf_counter()
    results = []
    with multiprocessing.Pool() as pool:
        for name, outcome, plies, ending in pool.imap_unordered(_convert, jobs):
            results.append((outcome, plies, ending))
            print(f"  {name:14} {outcome:5} {plies:4} plies  {ending}", flush=True)
    counts = {
        "games": len(results),
        "won": sum(1 for outcome, _, _ in results if outcome == "win"),
        "lost": sum(1 for outcome, _, _ in results if outcome == "loss"),
        "move_cap": sum(1 for outcome, _, e in results if outcome == "draw" and e == "move_cap"),
        "repetition": sum(1 for o, _, e in results if o == "draw" and e == "repetition"),
    }
    won_plies = [plies for outcome, plies, _ in results if outcome == "win"]
    counts["drawn"] = counts["games"] - counts["won"] - counts["lost"]
    share = counts["won"] / max(1, counts["games"])
    print(
        f"conversion: {counts['games']} games, won {counts['won']}, drawn {counts['drawn']} "
        f"(cap {counts['move_cap']}, repetition {counts['repetition']}), lost {counts['lost']}; "
        f"won within {cap} plies: {100 * share:.0f} %"
        + (f"; mean plies of a win {sum(won_plies) / len(won_plies):.0f}" if won_plies else "")
        + f" ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    return counts


def _option(args: list[str], name: str, default: str) -> str:
    return args[args.index(name) + 1] if name in args else default


def strength_pairs(text: str | None) -> list[tuple]:
    """``8-greedy,2-1`` as pairs; None: 8 against greedy, then each level against the one below."""
    if text is None:
        return [(8, "greedy")] + [(level, level - 1) for level in range(8, 1, -1)]
    pairs = []
    for item in text.split(","):
        a, b = item.split("-")
        pairs.append((int(a), b if b == "greedy" else int(b)))
    return pairs


def main(args: list[str] | None = None) -> None:
    args = sys.argv[1:] if args is None else args
    if "--tactics" in args:
        count = int(_option(args, "--count", "100"))
        tactics(count, float(_option(args, "--seconds", "3")), int(_option(args, "--seed", "7")))
    if "--strength" in args:
        games = int(_option(args, "--games", "12"))
        scale = float(_option(args, "--scale", "0.2"))
        rate = float(_option(args, "--rate", "0")) or None
        strength(games, scale, strength_pairs(_option(args, "--pairs", "") or None), rate)
    if "--conversion" in args:
        conversion(
            int(_option(args, "--count", "20")),
            float(_option(args, "--scale", "0.2")),
            int(_option(args, "--cap", "200")),
            float(_option(args, "--rate", "50000")) or None,
        )
    if "--cpu-speed" in args:
        cpu_speed(int(_option(args, "--depth", "4")))
    if not {"--tactics", "--strength", "--conversion", "--cpu-speed"} & set(args):
        speed()


if __name__ == "__main__":
    main()
