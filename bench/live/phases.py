"""The measured phases: moves (closed loop or paced) and flags left to fall."""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from bench.common import speed_probe
from bench.live.client import (
    Connection,
    GameSocket,
    MoveStats,
    Pace,
    Player,
    gather_limited,
    options,
    pick_move,
    play_game,
    play_game_over_sockets,
    progress_line,
    start_game,
    watch_game,
)
from bench.live.stack import CpuSample, log, process_tree_rss

FLAG_BASE_SECONDS = 2
FLAG_SPREAD_SECONDS = 3.0


WARMUP_PLIES = 2


def web_memory(services) -> int:
    """Resident memory (bytes) of the web server and its worker processes."""
    return process_tree_rss([s.process.pid for s in services.services if s.name == "web"])


def moves_phase(
    args, port: int, players: list[Player], connections_probe, services, *, rate: float | None
) -> MoveStats:
    """One moves phase (see :func:`_moves_phase`), with this process's cyclic garbage collector
    off: its pauses (this process holds every game's last state) would be counted as the
    server's latency. Nothing the phase allocates needs it; it runs again right after."""
    gc.collect()
    gc.disable()
    try:
        return asyncio.run(
            _moves_phase(args, port, players, connections_probe, services, rate=rate)
        )
    finally:
        gc.enable()
        gc.collect()


async def _moves_phase(
    args, port: int, players: list[Player], connections_probe, services, *, rate: float | None
) -> MoveStats:
    """Start ``args.games`` games, play WARMUP_PLIES in each unmeasured (every web process
    then has its code loaded and its connections open), then measure up to
    ``args.moves_per_game`` plies at the ``rate`` given (None: as fast as the server answers)."""
    settings = options(args.base_seconds, args.increment_seconds)
    stats = MoveStats()
    label = f"paced at {rate:.0f} moves/s" if rate else "closed loop"
    log(f"{label}: starting {args.games} games through the API (challenge + accept)")
    conns = [
        {"b": Connection("127.0.0.1", port), "w": Connection("127.0.0.1", port)}
        for _ in range(args.games)
    ]
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(args.games)]
    states = await gather_limited(
        (
            start_game(c["b"], b, w, settings, stats.setup_errors)
            for c, (b, w) in zip(conns, pairs, strict=True)
        ),
        20,
    )
    games = [
        (conn, state, {"b": black, "w": white})
        for conn, state, (black, white) in zip(conns, states, pairs, strict=True)
        if state is not None
    ]
    stats.games_started = len(games)
    if stats.setup_errors:
        log(f"{args.games - len(games)} games did not start: {dict(stats.setup_errors)}")
    watchers: list[tuple[asyncio.Task, asyncio.Event]] = []
    sockets: list[dict[str, GameSocket]] = []  # --moves-over socket: both players', per game
    spectators: list[GameSocket] = []  # --spectators: those of every game
    try:
        warm = Pace(None, len(games))
        states = await asyncio.gather(
            *(
                play_game(conn, state, who, WARMUP_PLIES, random.Random(-index), None, warm)
                for index, (conn, state, who) in enumerate(games)
            )
        )
        games = [(conn, state, who) for (conn, _, who), state in zip(games, states, strict=True)]

        def probe():
            stats.peak_connections = max(stats.peak_connections, connections_probe())

        if args.moves_over == "socket":
            log(f"{label}: opening both players' sockets on each game (moves go over them)")
            memory_before = web_memory(services)
            sockets = [
                {
                    colour: GameSocket(port, state["id"], colour, player, stats)
                    for colour, player in who.items()
                }
                for _conn, state, who in games
            ]
            await gather_limited((s.open() for pair in sockets for s in pair.values()), 50)
            stats.sockets = 2 * len(sockets)
            if args.spectators:
                log(f"{label}: opening {args.spectators} spectator socket(s) on each game")
                for _conn, state, _who in games:
                    labels = [f"s{index}" for index in range(args.spectators)]
                    stats.spectators[state["id"]] = labels
                    spectators.extend(
                        GameSocket(port, state["id"], label, None, stats) for label in labels
                    )
                await gather_limited((s.open() for s in spectators), 50)
                stats.spectator_sockets = len(spectators)
            await asyncio.sleep(1.0)  # the last connections settled in the web processes
            stats.web_memory = (memory_before, web_memory(services))
        elif args.watch:
            log(f"{label}: opening both players' sockets on each game")
            for _conn, state, who in games:
                for colour, player in who.items():
                    opened = asyncio.Event()
                    task = asyncio.create_task(
                        watch_game(port, state["id"], colour, player, stats, opened)
                    )
                    watchers.append((task, opened))
            await asyncio.gather(*(opened.wait() for _, opened in watchers))
            stats.sockets = len(watchers) - sum(stats.socket_errors.values())

        plies = min(args.moves_per_game, 400)
        total = sum(max(0, plies - state["version"]) for _, state, _ in games)
        stop = asyncio.Event()
        progress = asyncio.create_task(
            progress_line(label, lambda: len(stats.latencies_ms), total, stop, probe)
        )
        pace = Pace(rate, len(games))
        speed_before = speed_probe()
        before = CpuSample.take(services)
        try:
            seeds = [random.Random(args.seed * 100_003 + index) for index in range(len(games))]
            if sockets:
                plays = [
                    play_game_over_sockets(pair, plies, rng, stats, pace)
                    for pair, rng in zip(sockets, seeds, strict=True)
                ]
            else:
                plays = [
                    play_game(conn, state, who, plies, rng, stats, pace)
                    for (conn, state, who), rng in zip(games, seeds, strict=True)
                ]
            await asyncio.gather(*plays)
        finally:
            stats.cpu = CpuSample.take(services).since(before)
            stop.set()
            await progress
            stats.speed_ms = (speed_before, speed_probe())
        if watchers or sockets:
            await asyncio.sleep(1.0)  # the last events on their way
    finally:
        for socket in [s for pair in sockets for s in pair.values()] + spectators:
            await socket.close()
        for task, _ in watchers:
            task.cancel()
        await asyncio.gather(*(task for task, _ in watchers), return_exceptions=True)
        for pair in conns:
            for conn in pair.values():
                await conn.close()
    return stats


async def flag_setup(
    args, port: int, players: list[Player], errors: Counter
) -> list[tuple[int, datetime]]:
    """Start the flag games, make both first moves spread over a few seconds, and record each
    game's deadline from the database right after its last move.  A game the server refuses to
    start or move is left out and counted in ``errors``."""
    from asgiref.sync import sync_to_async

    from games.models import Game

    @sync_to_async(thread_sensitive=True)
    def deadline_of(game_id: int) -> datetime | None:
        return Game.objects.filter(pk=game_id).values_list("flag_deadline", flat=True).first()

    settings = options(FLAG_BASE_SECONDS, 0)
    conns = [Connection("127.0.0.1", port) for _ in range(args.flag_games)]
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(args.flag_games)]
    log(f"starting {args.flag_games} flag games ({FLAG_BASE_SECONDS} s clock, no increment)")
    states = await gather_limited(
        (start_game(c, b, w, settings, errors) for c, (b, w) in zip(conns, pairs, strict=True)),
        10,
    )
    if errors:
        log(f"{sum(errors.values())} flag games did not start: {dict(errors)}")
    rng = random.Random(args.seed)
    began = time.monotonic()

    async def first_moves(index: int, conn: Connection, state: dict, black, white):
        await asyncio.sleep(
            max(0.0, began + index * FLAG_SPREAD_SECONDS / len(states) - time.monotonic())
        )
        for player in (black, white):
            status, answer = await conn.request(
                "POST",
                f"/api/v1/games/{state['id']}/moves/",
                token=player.key,
                body={"move": pick_move(state, rng), "ply": state["version"]},
            )
            if status != 200:
                errors[f"first move {status} {answer.get('error', '?')}"] += 1
                await conn.close()
                return None
            state = answer
        deadline = await deadline_of(state["id"])
        await conn.close()
        if deadline is None:
            errors["no deadline after both first moves"] += 1
            return None
        return state["id"], deadline

    results = await asyncio.gather(
        *(
            first_moves(i, c, s, b, w)
            for i, (c, s, (b, w)) in enumerate(zip(conns, states, pairs, strict=True))
            if s is not None
        )
    )
    return [result for result in results if result is not None]


@dataclass
class FlagResult:
    delays_s: list[float]
    unfinished: list[int]
    wrong: list[str]
    deadline_spread_s: float
    waited_s: float
    setup_errors: Counter = field(default_factory=Counter)


def flag_wait(deadlines: list[tuple[int, datetime]], timeout: float) -> FlagResult:
    """Read only the database until every flag game is over; then check it stayed over once."""
    from games.models import Game, Move

    wanted = dict(deadlines)
    seen: dict[int, tuple] = {}
    started = time.monotonic()
    if not wanted:
        return FlagResult([], [], [], 0.0, 0.0)
    last_deadline = max(wanted.values())
    while len(seen) < len(wanted) and time.monotonic() - started < timeout:
        pending = [pk for pk in wanted if pk not in seen]
        for row in (
            Game.objects.filter(pk__in=pending)
            .exclude(ended_at=None)
            .values_list("pk", "status", "result", "termination", "ended_at", "ply")
        ):
            seen[row[0]] = row[1:]
        print(
            f"\r\033[K[bench] adjudicated {len(seen)}/{len(wanted)}  "
            f"{time.monotonic() - started:5.1f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
        time.sleep(0.1)
    print(file=sys.stderr, flush=True)
    waited = time.monotonic() - started
    # let every duplicate path run (the deadline task, the 1 s sweep) then check nothing changed
    pause = max(0.0, (last_deadline - datetime.now(last_deadline.tzinfo)).total_seconds()) + 2.5
    time.sleep(pause)
    wrong = []
    after = {
        row[0]: row[1:]
        for row in Game.objects.filter(pk__in=list(wanted)).values_list(
            "pk", "status", "result", "termination", "ended_at", "ply"
        )
    }
    move_counts = Counter(
        Move.objects.filter(game_id__in=list(wanted)).values_list("game_id", flat=True)
    )
    delays = []
    for pk, deadline in wanted.items():
        if pk not in seen:
            continue
        status, result, termination, ended_at, ply = seen[pk]
        if after.get(pk) != seen[pk]:
            wrong.append(f"game {pk} changed after it ended: {seen[pk]} -> {after.get(pk)}")
        if (status, result, termination) != ("finished", "0-1", "time"):
            wrong.append(f"game {pk} ended as {status} {result} {termination}, not 0-1 on time")
        if ply != 2 or move_counts[pk] != 2:
            wrong.append(f"game {pk} has ply {ply} and {move_counts[pk]} moves, not 2")
        if ended_at < deadline:
            wrong.append(f"game {pk} ended {ended_at} before its deadline {deadline}")
        delays.append((ended_at - deadline).total_seconds())
    values = list(wanted.values())
    return FlagResult(
        delays_s=delays,
        unfinished=[pk for pk in wanted if pk not in seen],
        wrong=wrong,
        deadline_spread_s=(max(values) - min(values)).total_seconds(),
        waited_s=waited,
    )
