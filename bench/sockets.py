"""Socket memory benchmark: does a web process give back what its WebSockets took?

Run by hand from the repository root (it starts its own web process on a fresh database):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/sockets.py [--connections 50000] [--concurrency 100] \\
        [--compression on|off|both]

What it does: creates a game, starts uvicorn (one process, the production shape's settings) and
opens ``--connections`` spectator sockets to the game's page, ``--concurrency`` at a time, each
as a browser does (with permessage-deflate when compression is on), reads the state the socket
sends on connect, and closes. It prints the web process's resident memory (RSS) at the start,
after every tenth of the connections, and ``--settle-seconds`` after the last one closed (by
default one memory collection later: ``core/memory.py`` runs every ``MEMORY_COLLECT_SECONDS``,
30 s), with and/or without compression. Memory that grows with the count and is not given back
is a leak; memory that stays flat is what issue 24 asks for. A report: the exit code is 0
whatever it finds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import free_port, machine_facts, recreate_database  # noqa: E402
from bench.live.stack import (  # noqa: E402
    Services,
    check_environment,
    log,
    migrate_and_set_up_django,
    stack_env,
    start_web,
    wait_for_web,
)


def tree_rss_mib(root_pid: int) -> float:
    """Resident memory (MiB) of ``root_pid`` and its descendants (uvicorn's worker)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            status = (entry / "status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            parents[int(entry.name)] = int(fields["PPid"].strip())
            rss[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0])
    wanted = {root_pid}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in wanted and pid not in wanted:
                wanted.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in wanted) / 1024


async def open_and_close(url: str, origin: str, compression: bool, errors: dict) -> None:
    from websockets.asyncio.client import connect

    try:
        async with connect(
            url,
            origin=origin,
            compression="deflate" if compression else None,
            ping_interval=None,
            max_size=None,
            open_timeout=30,
        ) as socket:
            await asyncio.wait_for(socket.recv(), timeout=30)
    except Exception as error:  # noqa: BLE001 - counted in the report
        errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1


async def run_phase(
    url: str, origin: str, *, count: int, concurrency: int, compression: bool, web_pid: int
) -> tuple[list[tuple[int, float]], dict, float]:
    """Open and close ``count`` sockets; the RSS after every tenth, the errors, the wall time."""
    errors: dict = {}
    samples = [(0, tree_rss_mib(web_pid))]
    step = max(1, count // 10)
    done = 0
    started = time.perf_counter()
    semaphore = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with semaphore:
            await open_and_close(url, origin, compression, errors)

    while done < count:
        batch = min(step, count - done)
        await asyncio.gather(*(one() for _ in range(batch)))
        done += batch
        samples.append((done, tree_rss_mib(web_pid)))
        print(f"\r[bench] {done}/{count} sockets, RSS {samples[-1][1]:.0f} MiB", end="", flush=True)
    print()
    return samples, errors, time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=50_000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--compression", choices=("on", "off", "both"), default="both")
    parser.add_argument(
        "--ws",
        default=None,
        help="uvicorn's WebSocket implementation (websockets, websockets-sansio, wsproto); "
        "the production shape's unless set",
    )
    parser.add_argument(
        "--collect-seconds",
        type=float,
        default=None,
        help="MEMORY_COLLECT_SECONDS of the web process (0: never; the site's default unless set)",
    )
    parser.add_argument("--settle-seconds", type=float, default=None)
    parser.add_argument("--db-name", default="sumito_bench_sockets")
    parser.add_argument("--allow-redis-db0", action="store_true")
    args = parser.parse_args(argv)
    admin_url, bench_url, redis_url = check_environment(args.db_name, args.allow_redis_db0)
    facts = machine_facts()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    scratch = Path(tempfile.mkdtemp(prefix="sumito-sockets-"))
    extra = (
        {}
        if args.collect_seconds is None
        else {"MEMORY_COLLECT_SECONDS": str(args.collect_seconds)}
    )
    env = stack_env(bench_url, redis_url, **extra)
    collect_seconds = float(env.get("MEMORY_COLLECT_SECONDS", 30.0))
    if args.settle_seconds is None:
        args.settle_seconds = (collect_seconds or 0) + 5.0
    results = []
    try:
        recreate_database(admin_url, args.db_name)
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        migrate_and_set_up_django(env)
        from django.utils import timezone

        from accounts.models import User
        from games.options import GameOptions
        from games.services import game_create

        black = User.objects.create_user(username="sockets_black", password="x" * 12)
        white = User.objects.create_user(username="sockets_white", password="x" * 12)
        game = game_create(
            black=black,
            white=white,
            options=GameOptions(6 * 3600, 0, 6, "belgian", False),
            now=timezone.now(),
            first_move_seconds=6 * 3600,
        )
        phases = {"on": [True], "off": [False], "both": [True, False]}[args.compression]
        for compression in phases:
            services = Services(env, scratch)
            port = free_port()
            label = "compression on" if compression else "compression off"
            log(f"{label}: uvicorn on :{port}, {args.connections} spectator sockets")
            web = start_web(services, port, 1, ws=args.ws)
            try:
                wait_for_web(web, port)
                url = f"ws://127.0.0.1:{port}/ws/games/{game.pk}/"
                origin = f"http://127.0.0.1:{port}"
                asyncio.run(open_and_close(url, origin, compression, {}))  # warm up
                samples, errors, wall = asyncio.run(
                    run_phase(
                        url,
                        origin,
                        count=args.connections,
                        concurrency=args.concurrency,
                        compression=compression,
                        web_pid=web.process.pid,
                    )
                )
                time.sleep(args.settle_seconds)
                settled = tree_rss_mib(web.process.pid)
                results.append((label, samples, settled, errors, wall))
            finally:
                services.stop()
    except KeyboardInterrupt:
        log("interrupted")
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        recreate_database(admin_url, args.db_name, drop_only=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print("\nSumito socket memory benchmark")
    print(f"machine    nproc {facts['nproc']}, {facts['cpu']}, {facts['memory']}")
    print(
        f"web        uvicorn, 1 process, WebSockets: {args.ws or 'websockets-sansio'}"
        f", memory collected every {collect_seconds:g} s (0: never)"
    )
    for label, samples, settled, errors, wall in results:
        first = samples[0][1]
        grown = max(rss for _, rss in samples) - first
        print(f"{label}: {samples[-1][0]} sockets in {wall:.0f} s, errors {errors or 'none'}")
        print("  sockets  " + "  ".join(f"{count:>7}" for count, _ in samples))
        print("  RSS MiB  " + "  ".join(f"{rss:>7.0f}" for _, rss in samples))
        print(
            f"  start {first:.0f} MiB, peak +{grown:.0f} MiB, {settled:.0f} MiB "
            f"{args.settle_seconds:.0f} s after the last socket closed "
            f"({(settled - first) * 1024 / max(1, samples[-1][0]):.1f} KiB a socket kept)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
