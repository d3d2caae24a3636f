"""Notifications benchmark of the production shape; run by hand from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/notifications.py [--listeners 200] [--events 600] \\
        [--event-rate 20] [--games 100] [--rate 300] [--idle 1000]

What it does (the stack is bench/games.py's: a fresh database, Redis flushed, uvicorn with
``--web-workers`` workers, one Celery worker, one beat):

1. ``--listeners`` players each open ``/ws/me/`` (a tab on any page of the site, logged in by
   its session cookie) and wait for its snapshot;
2. ``--idle`` more sockets open and stay idle (visitors' home pages, ``/ws/me/?topics=site``):
   the web processes' resident memory before and after, divided by the count, is the memory
   of an idle connection;
3. then, while the move bench's ``--games`` games play at ``--rate`` moves/s (paced, as in
   bench/games.py, in a thread of their own), ``--events`` challenges are sent through the API
   at ``--event-rate`` per second, each from one listener to another: the challenged
   player's ``challenge_received`` notification must reach their socket. The delay counts from
   the moment the POST was sent to the moment the socket received it (the target: p99 under
   1 s);
4. prints the delays (p50, p95, p99, max), how many never arrived, the moves' p99 meanwhile,
   and the memory per idle connection; stops everything and drops the database.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import games  # noqa: E402
from bench.common import free_port, machine_facts, recreate_database  # noqa: E402
from bench.live.client import Connection, make_players, wait_until_ready  # noqa: E402
from bench.live.phases import moves_phase  # noqa: E402
from bench.live.report import percentile, verdict  # noqa: E402
from bench.live.stack import (  # noqa: E402
    BenchError,
    Services,
    check_environment,
    log,
    migrate_and_set_up_django,
    stack_env,
    start_stack,
    tail,
)

TARGET_P99_S = 1.0


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of these processes and all their descendants."""
    seen, total, todo = set(), 0, list(pids)
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


async def listen(port: int, player, arrived: dict, ready: asyncio.Event, stop: asyncio.Event):
    """A tab of ``player``: record when each notification about a challenge arrives."""
    from websockets.asyncio.client import connect

    async with connect(
        f"ws://127.0.0.1:{port}/ws/me/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={player.session}"},
        ping_interval=None,
        max_size=None,
    ) as socket:
        await asyncio.wait_for(socket.recv(), 30)  # the snapshot: in the group from now on
        ready.set()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            at = time.perf_counter()
            message = orjson.loads(raw)
            if message.get("type") == "notification":
                subjects = message["notification"].get("subjects") or {}
                challenge = subjects.get("challenge")
                if challenge is not None:
                    arrived.setdefault(challenge, at)


async def idle_sockets(port: int, count: int, opened: list, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async def one():
        async with connect(
            f"ws://127.0.0.1:{port}/ws/me/?topics=site",
            origin=f"http://127.0.0.1:{port}",
            ping_interval=None,
        ) as socket:
            opened.append(socket)
            await stop.wait()

    await asyncio.gather(*(one() for _ in range(count)), return_exceptions=True)


async def notify_phase(args, port: int, listeners, web_pids, start_moves, moves_done):
    arrived: dict[int, float] = {}
    sent: dict[int, float] = {}
    errors: dict[str, int] = {}
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in listeners]
    tasks = [
        asyncio.create_task(listen(port, p, arrived, r, stop))
        for p, r in zip(listeners, readies, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    log(f"{len(listeners)} player sockets open")

    memory = None
    if args.idle:
        time.sleep(1.0)
        before = rss_bytes(web_pids)
        opened: list = []
        idle_stop = asyncio.Event()
        idle_task = asyncio.create_task(idle_sockets(port, args.idle, opened, idle_stop))
        deadline = time.monotonic() + 120
        while len(opened) < args.idle and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)
        after = rss_bytes(web_pids)
        memory = (before, after, len(opened))
        log(f"{len(opened)} idle sockets: web RSS {before / 2**20:.1f} -> {after / 2**20:.1f} MiB")

    start_moves()
    await asyncio.sleep(5.0)  # the games started and warmed up: the events come while they play
    rng = random.Random(args.seed)
    connections = [Connection("127.0.0.1", port) for _ in listeners]
    gap = 1.0 / args.event_rate
    start = time.perf_counter()
    locks = [asyncio.Lock() for _ in listeners]

    async def challenge(a: int, b: int) -> None:
        body = {"opponent": listeners[b].username, "base_seconds": 300, "increment_seconds": 0}
        async with locks[a]:  # one keep-alive connection per player: its requests in turn
            t0 = time.perf_counter()
            try:
                status, data = await connections[a].request(
                    "POST", "/api/v1/challenges/", token=listeners[a].key, body=body
                )
            except OSError as error:
                errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                return
        if status != 201:
            key = f"{status} {data.get('error')}"
            errors[key] = errors.get(key, 0) + 1
            return
        sent[data["id"]] = (t0, time.perf_counter())

    pending = []
    for index in range(args.events):
        due = start + index * gap
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        a, b = rng.sample(range(len(listeners)), 2)
        pending.append(asyncio.create_task(challenge(a, b)))
    await asyncio.gather(*pending)
    await asyncio.sleep(3.0)  # the last ones on their way
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    if args.idle:
        idle_stop.set()
        await idle_task
    for connection in connections:
        await connection.close()
    during_moves = moves_done.is_alive()
    delays = [(arrived[c] - t0, arrived[c] - t1) for c, (t0, t1) in sent.items() if c in arrived]
    missing = sum(1 for c in sent if c not in arrived)
    return delays, missing, errors, memory, during_moves


def report(args, facts, delays, missing, errors, memory, moves, during_moves) -> None:
    print()
    print("== Sumito notifications benchmark ==")
    print(f"machine: {facts.get('cpu')} · {facts.get('memory')} · python {sys.version.split()[0]}")
    print(
        f"stack: uvicorn x{args.web_workers}, 1 Celery worker, 1 beat; PostgreSQL, Redis; "
        f"{args.listeners} players with /ws/me/ open"
    )
    print(
        f"events: {args.events} challenges at {args.event_rate:g}/s through the API, "
        f"{'while' if during_moves else 'NOT all while'} {args.games} games played at "
        f"{args.rate:g} moves/s"
    )
    if delays:
        after = sorted(d for _, d in delays)
        ordered = sorted(d for d, _ in delays)
        p = lambda f: percentile(ordered, f) * 1000  # noqa: E731
        print(
            f"notification reached the tab: p50 {p(0.5):.0f} ms, p95 {p(0.95):.0f} ms, "
            f"p99 {p(0.99):.0f} ms, max {ordered[-1] * 1000:.0f} ms "
            f"({len(delays)} delivered, {missing} missing), from the POST sent"
        )
        print(
            f"  of which after the POST's answer: p50 {percentile(after, 0.5) * 1000:.0f} "
            f"ms, p99 {percentile(after, 0.99) * 1000:.0f} ms (the push itself)"
        )
        outcome = verdict(percentile(ordered, 0.99) < TARGET_P99_S and not missing)
        print(f"target p99 < {TARGET_P99_S:g} s, none lost: {outcome}")
    if errors:
        print(f"refused requests: {errors}")
    latencies, move_errors = moves
    if latencies:
        ordered = sorted(latencies)
        print(
            f"moves meanwhile: {len(ordered)} answered, p50 {percentile(ordered, 0.5):.0f} "
            f"ms, p99 {percentile(ordered, 0.99):.0f} ms, errors {move_errors}"
        )
    if memory is not None:
        before, after, count = memory
        per = (after - before) / count if count else 0
        print(
            f"memory: {count} idle sockets took the web processes from {before / 2**20:.1f} to "
            f"{after / 2**20:.1f} MiB: {per / 1024:.1f} KiB per idle connection"
        )


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listeners", type=int, default=200, help="players with /ws/me/ open")
    parser.add_argument("--events", type=int, default=600, help="challenges sent (600)")
    parser.add_argument("--event-rate", type=float, default=20.0, help="challenges a second")
    parser.add_argument("--idle", type=int, default=1000, help="idle sockets for the memory")
    parser.add_argument("--games", type=int, default=100, help="games played meanwhile")
    parser.add_argument("--moves-per-game", type=int, default=40)
    parser.add_argument("--rate", type=float, default=300.0, help="their moves a second")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="sumito_bench_notify")
    parser.add_argument("--allow-redis-db0", action="store_true")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    admin_url, bench_url, redis_url = check_environment(args.db_name, args.allow_redis_db0)
    facts = machine_facts()

    def on_sigterm(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    scratch = Path(tempfile.mkdtemp(prefix="sumito-bench-notify-"))
    # the events are challenges; this is not a throttle test
    env = stack_env(bench_url, redis_url, THROTTLE_CHALLENGES="1000000/m")
    services = Services(env, scratch)
    created = False
    try:
        recreate_database(admin_url, args.db_name)
        created = True
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        migrate_and_set_up_django(env)
        port = free_port()
        web = start_stack(services, port, args.web_workers, scratch)
        log("creating players")
        listeners = make_players(args.listeners, "note", sessions=True)
        movers = make_players(2 * args.games, "bench")
        wait_until_ready(services, port)

        move_args = games.parse_args(
            ["--games", str(args.games), "--moves-per-game", str(args.moves_per_game),
             "--rate", str(args.rate), "--no-closed-loop"]
        )  # fmt: skip
        # The games are played by a process of their own (forked here), so that this one's
        # 1200 sockets and the games' HTTP client do not share one interpreter lock.
        from django.db import connections

        connections.close_all()
        context = multiprocessing.get_context("fork")
        results = context.Queue()

        def play():
            stats = moves_phase(move_args, port, movers, lambda: 0, services, rate=args.rate)
            results.put((stats.latencies_ms, dict(stats.errors)))

        player = context.Process(target=play, name="moves", daemon=True)
        delays, missing, errors, memory, during = asyncio.run(
            notify_phase(args, port, listeners, [web.process.pid], player.start, player)
        )
        moves = results.get(timeout=600)
        player.join(30)
        services.check_alive()
        report(args, facts, delays, missing, errors, memory, moves, during)
        problems = services.log_problems()
        if any(problems.values()):
            print(f"log problems: {problems}")
        return 0
    except KeyboardInterrupt:
        return 130
    except (BenchError, subprocess.CalledProcessError) as error:
        log(f"failed: {error}")
        for service in services.services:
            log(f"{service.name}:\n{tail(service.log_path, 30)}")
        return 1
    finally:
        services.stop()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if created:
            recreate_database(admin_url, args.db_name, drop_only=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
