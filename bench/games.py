"""Live-games benchmark of the production shape; run by hand from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/games.py [--games 100] [--moves-per-game 40] [--flag-games 50] \\
        [--web-workers 4] [--rate 500] [--no-closed-loop] [--moves-over socket|http] [--watch] \\
        [--spectators 1]

What it does:

1. creates a fresh PostgreSQL database (``--db-name``, default ``sumito_bench``) on the server
   ``DATABASE_URL`` names, migrates it, and FLUSHES the Redis database ``REDIS_URL`` names;
2. starts the production shape as separate processes: uvicorn with ``--web-workers`` workers, one
   Celery worker (concurrency 2) and exactly one Celery beat, all on that database and Redis;
3. creates players and API tokens through the ORM; then, for each moves phase, starts
   ``--games`` games through the HTTP API, each player on their own keep-alive connection (as
   two browsers are), plays the first 2 plies of every game as an unmeasured warm-up, and then
   the rest up to ``--moves-per-game`` (each side picks a seeded random legal move from the last
   state), measuring the latency of every move and the CPU of every process. With
   ``--moves-over socket`` (the default) both players hold the game's WebSocket, as the game
   page does, send their moves on it and wait for the ack; the next player moves once their
   own socket has heard the move. With ``--moves-over http`` each move is a
   ``POST /api/v1/games/<id>/moves/``, as bots send them. Phase one is a closed loop (each game
   sends its next move as soon as it has the answer: the capacity, target 1,000 moves/s);
   phase two is paced (the games together offer ``--rate`` moves/s, 500 by default: the
   target is that rate served with p99 under 100 ms);
4. starts ``--flag-games`` games with a 2 s clock, makes both first moves, then reads only the
   database until every game is adjudicated: delay = ``ended_at`` - ``flag_deadline``;
5. prints a report with the machine, the numbers and the targets, stops every process it started
   and drops the database.  The exit code is 0 even when a target is missed: it is a report.

With ``--watch`` (implied by ``--moves-over socket``) both players of every game also hold the
game's WebSocket, as browsers do (logged in by a session cookie), and each moves phase also
reports how long a move took to reach the opponent's socket, counted from the moment it was
sent. With ``--spectators N`` every game of the moves phases also has N spectators' sockets (not
logged in, as a visitor watching), and the report counts every move's arrival at each of them
and prints the web processes' resident memory before and after all the phase's sockets were
opened, divided by their number (the memory a connection costs the server): the 1,000 games'
run is ``--games 1000 --spectators 1 --flag-games 0``. Every phase prints the CPU a move of every process (web, worker, beat, PostgreSQL, Redis,
the bench client) and their sum divided by the speed probe, which compares runs on hosts of
different speeds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import free_port, machine_facts, recreate_database  # noqa: E402
from bench.live.client import make_players, wait_until_ready  # noqa: E402
from bench.live.phases import (  # noqa: E402
    FLAG_BASE_SECONDS,
    FLAG_SPREAD_SECONDS,
    flag_setup,
    flag_wait,
    moves_phase,
)
from bench.live.report import TARGET_MOVES_PER_SECOND, queries_per_move, report  # noqa: E402
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

# --- main ------------------------------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (100)")
    parser.add_argument("--moves-per-game", type=int, default=40, help="plies per game (40)")
    parser.add_argument("--flag-games", type=int, default=50, help="games left to flag (50)")
    parser.add_argument(
        "--web-workers", type=int, default=4, help="uvicorn workers (4: two per core)"
    )
    parser.add_argument("--base-seconds", type=int, default=600, help="clock of the move games")
    parser.add_argument("--increment-seconds", type=int, default=5, help="their increment")
    parser.add_argument(
        "--rate",
        type=float,
        default=float(TARGET_MOVES_PER_SECOND),
        help="moves/s the paced phase offers over its games (the target's 500); 0 skips it",
    )
    parser.add_argument(
        "--no-closed-loop",
        action="store_true",
        help="skip the closed-loop phase (every game sends its next move on the answer)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="both players also hold their game's WebSocket, as browsers do; measures how long "
        "a move takes to reach the opponent's socket",
    )
    parser.add_argument(
        "--moves-over",
        choices=("socket", "http"),
        default="socket",
        help="how players send their moves: on the game's WebSocket, as the game page does "
        "(socket, the default: both players hold it), or by the HTTP API as bots do (http)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectators' sockets (not logged in) on every game of the moves phases, with "
        "--moves-over socket (0); each move's arrival at each is counted",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the move choices (1)")
    parser.add_argument("--db-name", default="sumito_bench", help="database created and dropped")
    parser.add_argument(
        "--allow-redis-db0", action="store_true", help="allow flushing Redis database 0"
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the process logs")
    args = parser.parse_args(argv)
    if args.moves_over == "socket":
        args.watch = True  # the players' sockets are where the moves go
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.games < 1 or args.moves_per_game < 1 or args.flag_games < 0 or args.web_workers < 1:
        print("--games, --moves-per-game and --web-workers must be >= 1", file=sys.stderr)
        return 2
    if args.spectators < 0 or (args.spectators and args.moves_over != "socket"):
        print("--spectators needs --moves-over socket and a count >= 0", file=sys.stderr)
        return 2
    admin_url, bench_url, redis_url = check_environment(args.db_name, args.allow_redis_db0)
    facts = machine_facts()

    def on_sigterm(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)

    scratch = Path(tempfile.mkdtemp(prefix="sumito-bench-"))
    env = stack_env(bench_url, redis_url)
    services = Services(env, scratch)
    database_created = False
    try:
        log(f"creating database {args.db_name}")
        recreate_database(admin_url, args.db_name)
        database_created = True
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        log(f"flushed Redis {redis_url}")
        migrate_and_set_up_django(env)

        port = free_port()
        log(f"starting uvicorn x{args.web_workers} on :{port}, a Celery worker and one beat")
        start_stack(services, port, args.web_workers, scratch)
        log("creating players and API tokens through the ORM")
        players = make_players(2 * max(args.games, args.flag_games), "bench", sessions=args.watch)
        wait_until_ready(services, port)
        queries = queries_per_move()
        log(f"SQL per move POST: {queries}")

        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as monitor:

            def connections_probe() -> int:
                row = monitor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (args.db_name,)
                ).fetchone()
                return int(row[0])

            phases = []
            if not args.no_closed_loop:
                moves = moves_phase(args, port, players, connections_probe, services, rate=None)
                phases.append(
                    (
                        "closed",
                        "moves, closed loop (each game sends its next move as soon as it has the "
                        f"answer, so mean latency ~ {args.games} / throughput)",
                        moves,
                    )
                )
            if args.rate:
                moves = moves_phase(
                    args, port, players, connections_probe, services, rate=args.rate
                )
                phases.append(
                    (
                        "paced",
                        f"moves, paced: {args.games} games offering {args.rate:.0f} moves/s "
                        f"(each game moves every {args.games / args.rate * 1000:.0f} ms on "
                        "average, 0.5-1.5x)",
                        moves,
                    )
                )
        services.check_alive()

        flags = None
        if args.flag_games:
            flag_errors: Counter = Counter()
            deadlines = asyncio.run(flag_setup(args, port, players, flag_errors))
            log("first moves made; now only the database is read")
            flags = flag_wait(deadlines, timeout=FLAG_SPREAD_SECONDS + FLAG_BASE_SECONDS + 30)
            flags.setup_errors = flag_errors
        services.check_alive()
        report(args, facts, phases, flags, services.log_problems(), queries)
        return 0
    except KeyboardInterrupt:
        log("interrupted: stopping")
        return 130
    except (BenchError, subprocess.CalledProcessError) as error:
        log(f"failed: {error}")
        for service in services.services:
            log(f"last lines of the {service.name} log:\n{tail(service.log_path, 40)}")
        return 1
    finally:
        log("stopping processes")
        services.stop()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if database_created:
            log(f"dropping database {args.db_name}")
            with contextlib.suppress(Exception):
                recreate_database(admin_url, args.db_name, drop_only=True)
        if args.keep_logs:
            log(f"logs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
