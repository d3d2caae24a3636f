"""Ratings benchmark: a full recompute, and the latency of the leaderboard and profile pages.

Run by hand from the repository root, with ``DATABASE_URL`` naming a PostgreSQL server and
``REDIS_URL`` the cache (the production shape; without it each web process caches in memory):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/ratings.py [--players 5000] [--games 100000] [--requests 200] \\
        [--concurrency 4] [--web-workers 2] [--keep] [--reuse]

``--keep`` leaves the bench database for a later ``--reuse`` run, which times the pages on it
without writing the data again or recomputing.

What it does:

1. creates a fresh database (``--db-name``, default ``sumito_bench_ratings``) on that server and
   migrates it;
2. writes ``--players`` players, 20 clubs and ``--games`` rated finished games straight through the
   ORM (``bulk_create``: the move services would take hours), spread over the last year across
   blitz, rapid and classical, with results drawn from hidden player strengths;
3. times ``ratings.recompute.ratings_recompute()`` (which writes every RatingChange and rating),
   then runs it again and checks that it reproduces the stored ratings exactly;
4. counts the SQL queries each page makes (``CaptureQueriesContext``), starts uvicorn on a free
   port on the bench database (DEBUG off) and measures p50/p95 of ``--requests`` GETs per page
   with ``--concurrency`` clients: the leaderboard page (overall and one club), the leaderboard
   API, the profile page and rating API of an active player, and the archive search page
   ``/archive/?player=`` when it exists;
5. prints the machine, the numbers and the targets, stops the server and drops the database.

The exit code is 0 even when a target is missed: it is a report, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import free_port, machine_facts, recreate_database  # noqa: E402
from bench.live.stack import Services, start_web, wait_for_web  # noqa: E402

TARGET_RECOMPUTE_S = 30.0
TARGET_PAGE_P95_MS = 100.0  # issue 28 (it was 150)
# name: (base seconds, increment seconds); the speed category follows from ratings.elo
TIME_CONTROLS = [(180, 2), (300, 0), (600, 0), (900, 10), (1800, 0)]
TERMINATIONS_DECISIVE = ["marbles", "marbles", "resignation", "time"]


def log(message: str) -> None:
    print(f"\r\033[K[bench] {message}", file=sys.stderr, flush=True)


def progress_bar(label: str):
    """A progress callback ``(done, total)`` drawing one line on stderr."""

    def draw(done: int, total: int) -> None:
        width = 40
        filled = int(width * done / total) if total else width
        sys.stderr.write(
            f"\r\033[K[bench] {label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return draw


# --- environment ---------------------------------------------------------------------------------


def check_environment(db_name: str) -> tuple[str, str]:
    """Return (admin database URL, bench database URL) or exit with a clear message."""
    database_url = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(database_url)
    if not database_url or parts.scheme not in ("postgres", "postgresql", "pgsql"):
        print(
            "bench/ratings.py needs DATABASE_URL naming a PostgreSQL server, e.g.\n"
            "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres",
            file=sys.stderr,
        )
        sys.exit(2)
    admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    return admin_url, urlunsplit(parts._replace(path=f"/{db_name}"))


# --- data ----------------------------------------------------------------------------------------


def generate(players: int, games: int, seed: int, now: datetime) -> dict:
    """Players, clubs and rated finished games through ``bulk_create``; returns counts."""
    from accounts.models import User
    from clubs.models import Club, Membership
    from games import engine
    from games.models import Game
    from ratings import elo

    rng = random.Random(seed)
    log(f"creating {players} players and 20 clubs")
    users = User.objects.bulk_create(
        [
            User(
                username=f"bench{index:05d}",
                password="!",  # unusable: nobody logs in, and no slow hashing
                display_name=f"Bench Player {index}" if index % 3 == 0 else "",
                date_joined=now - timedelta(days=400),
            )
            for index in range(players)
        ],
        batch_size=5000,
    )
    clubs = Club.objects.bulk_create(
        [Club(name=f"Bench Club {index}", slug=f"bench-club-{index}") for index in range(20)]
    )
    memberships = []
    for user_index, user in enumerate(users):
        club = clubs[user_index % len(clubs)]
        role = Membership.Role.OWNER if user_index < len(clubs) else Membership.Role.MEMBER
        memberships.append(Membership(club=club, user=user, role=role))
    Membership.objects.bulk_create(memberships, batch_size=5000)

    # Hidden strengths make the ratings spread; activity weights make some players play a lot.
    strength = [rng.gauss(1500, 250) for _ in users]
    activity = [rng.paretovariate(1.5) for _ in users]
    start = engine.start_position("belgian").to_string()
    year = 365 * 24 * 3600
    draw = progress_bar("games ")
    batch: list[Game] = []
    categories: dict[str, int] = {}
    for index in range(games):
        black_index, white_index = rng.choices(range(len(users)), weights=activity, k=2)
        while white_index == black_index:
            white_index = rng.randrange(len(users))
        base, increment = rng.choice(TIME_CONTROLS)
        category = elo.speed_category(base, increment)
        categories[category] = categories.get(category, 0) + 1
        expected = elo.expected_score(strength[black_index], strength[white_index])
        roll = rng.random()
        if roll < 0.08:
            result, termination = "1/2-1/2", "agreement"
        elif roll < 0.08 + 0.92 * expected:
            result, termination = "1-0", rng.choice(TERMINATIONS_DECISIVE)
        else:
            result, termination = "0-1", rng.choice(TERMINATIONS_DECISIVE)
        ended_at = now - timedelta(seconds=rng.randrange(year))
        length = timedelta(seconds=rng.randrange(60, 2 * base + 60))
        batch.append(
            Game(
                black_id=users[black_index].pk,
                white_id=users[white_index].pk,
                base_seconds=base,
                increment_seconds=increment,
                rated=True,
                start_position=start,
                position=start,
                status=Game.Status.FINISHED,
                ply=rng.randrange(2, 200),
                result=result,
                termination=termination,
                created_at=ended_at - length,
                turn_started_at=ended_at,
                ended_at=ended_at,
            )
        )
        if len(batch) == 5000 or index == games - 1:
            Game.objects.bulk_create(batch, batch_size=5000)
            batch.clear()
            draw(index + 1, games)
    return {"players": players, "clubs": len(clubs), "games": games, **categories}


def ratings_snapshot() -> list[tuple]:
    from ratings.models import PlayerRating

    return sorted(
        PlayerRating.objects.values_list(
            "user_id", "category", "rating", "games", "peak", "reached_2400", "last_game_at"
        )
    )


def time_recompute(label: str):
    from ratings.recompute import ratings_recompute

    started = time.perf_counter()
    report = ratings_recompute(progress=progress_bar(label))
    return report, time.perf_counter() - started


# --- pages ---------------------------------------------------------------------------------------


def data_present() -> dict:
    """What a kept bench database holds, in :func:`generate`'s terms."""
    from django.db.models import Count

    from accounts.models import User
    from clubs.models import Club
    from ratings.models import RatingChange

    data = {
        "players": User.objects.filter(is_guest=False).count(),
        "clubs": Club.objects.count(),
        "games": RatingChange.objects.values("game_id").distinct().count(),
    }
    by_category = RatingChange.objects.values("category").annotate(
        n=Count("game_id", distinct=True)
    )
    data.update({row["category"]: row["n"] for row in by_category})
    return data


def query_counts(pages: dict[str, str]) -> dict[str, tuple[int, float, int]]:
    """(queries, SQL milliseconds, status) of one in-process request per page."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    counts = {}
    for name, path in pages.items():
        with CaptureQueriesContext(connection) as captured:
            status = client.get(path).status_code
        sql_ms = sum(float(q["time"]) for q in captured.captured_queries) * 1000
        counts[name] = (len(captured.captured_queries), sql_ms, status)
    return counts


def measure(port: int, path: str, requests: int, concurrency: int) -> dict:
    """p50/p95/max milliseconds of ``requests`` GETs of ``path`` by ``concurrency`` clients."""
    local = threading.local()
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def one(_index: int) -> float:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = http.client.HTTPConnection("127.0.0.1", port, 30)
        started = time.perf_counter()
        try:
            connection.request("GET", path, headers={"Accept": "text/html,application/json"})
            response = connection.getresponse()
            response.read()
            status = response.status
            if response.getheader("connection", "").lower() == "close":
                connection.close()
                local.connection = None
        except (OSError, http.client.HTTPException):
            connection.close()
            local.connection = None
            status = 0
        elapsed = (time.perf_counter() - started) * 1000
        with lock:
            statuses[status] = statuses.get(status, 0) + 1
        return elapsed

    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, range(min(10, requests))))  # warm-up: imports, caches, connections
        statuses.clear()
        started = time.perf_counter()
        times = sorted(pool.map(one, range(requests)))
        wall = time.perf_counter() - started
    return {
        "p50": statistics.median(times),
        "p95": times[max(0, int(len(times) * 0.95) - 1)],
        "max": times[-1],
        "rps": requests / wall,
        "statuses": statuses,
    }


# --- main ----------------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200, help="GETs per page (200)")
    parser.add_argument("--concurrency", type=int, default=4, help="clients at once (4)")
    parser.add_argument("--web-workers", type=int, default=2, help="uvicorn workers (2)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--db-name", default="sumito_bench_ratings")
    parser.add_argument(
        "--keep", action="store_true", help="keep the bench database at the end (for --reuse)"
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the pages on the database a --keep run left (no data written, no recompute)",
    )
    return parser.parse_args(argv)


SETTINGS_OVERRIDE = '''"""Bench settings: the site's, with plain static storage (no collectstatic manifest)."""
from abalone_site.settings import *  # noqa: F403

STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
'''


def main(argv=None) -> int:
    args = parse_args(argv)
    if min(args.players, args.games, args.requests, args.concurrency, args.web_workers) < 1:
        print("every count must be >= 1", file=sys.stderr)
        return 2
    if args.players < 40:
        print("--players must be at least 40 (20 clubs, and opponents to pick)", file=sys.stderr)
        return 2
    admin_url, bench_url = check_environment(args.db_name)
    facts = machine_facts()

    def on_sigterm(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)

    # The bench database and DEBUG off, here and in the server; the override module makes pages
    # render without a collectstatic manifest. With REDIS_URL set the server keeps its cache in
    # Redis, as in production (the player's page keeps its history sections there); without it,
    # in each process's memory.
    scratch = Path(tempfile.mkdtemp(prefix="ratingsbench-"))
    (scratch / "bench_ratings_settings.py").write_text(SETTINGS_OVERRIDE)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=bench_url,
        DEBUG="False",
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + secrets.token_urlsafe(32),
        DJANGO_SETTINGS_MODULE="bench_ratings_settings",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join(
            filter(None, [str(scratch), str(ROOT), os.environ.get("PYTHONPATH")])
        ),
    )
    services: Services | None = None
    created = False
    results: dict = {}
    try:
        if not args.reuse:
            log(f"creating database {args.db_name}")
            recreate_database(admin_url, args.db_name)
            created = True
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.clear()
        os.environ.update(env)
        sys.path.insert(0, str(scratch))
        import django

        warnings.filterwarnings("ignore", message="No directory at")
        django.setup()
        from django.db import connection
        from django.utils import timezone

        if args.reuse:
            results["data"] = data_present()
            results["generate_s"] = 0.0
        else:
            now = timezone.now().astimezone(UTC)
            started = time.perf_counter()
            results["data"] = generate(args.players, args.games, args.seed, now)
            results["generate_s"] = time.perf_counter() - started
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

            first, results["recompute_s"] = time_recompute("recompute #1")
            results["first"] = first
            stored = ratings_snapshot()
            second, results["recompute2_s"] = time_recompute("recompute #2")
            results["second"] = second
            results["snapshot_equal"] = ratings_snapshot() == stored
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

        from clubs.models import Club
        from players.selectors import profile
        from ratings import selectors

        top = selectors.leaderboard(
            selectors.leaderboard_filter(category="rapid"), now=timezone.now()
        ).first()
        player = top.user.username
        rival = (
            profile.recent_games(top.user, limit=1)[0].opponent.username
            if profile.recent_games(top.user, limit=1)
            else player
        )
        club = Club.objects.order_by("slug").first().slug
        results["player"] = (player, sum(r.games for r in selectors.player_ratings(top.user)))
        pages = {
            "leaderboard page": "/ratings/",
            "leaderboard page, club": f"/ratings/?category=blitz&club={club}&days=30",
            "leaderboard page 20": "/ratings/?category=classical&page=20&days=365",
            "leaderboard API": "/api/v1/ratings/leaderboard/?category=rapid",
            "profile page": f"/players/{player}/",
            "profile page ?vs=": f"/players/{player}/?vs={rival}",
            "player ratings API": f"/api/v1/ratings/players/{player}/",
            "archive search": f"/archive/?player={player}",
        }
        results["queries"] = query_counts(pages)
        if results["queries"]["archive search"][2] == 404:
            results["archive_note"] = "skipped: /archive/ answers 404 (not built yet)"
            del pages["archive search"]

        port = free_port()
        log(f"starting uvicorn x{args.web_workers} on :{port}")
        services = Services(env, scratch)
        web = start_web(services, port, args.web_workers)
        wait_for_web(web, port)
        time.sleep(1.0)  # the other workers
        results["latency"] = {}
        for name, path in pages.items():
            log(f"{args.requests} x GET {path}")
            results["latency"][name] = measure(port, path, args.requests, args.concurrency)
        results["server_errors"] = web.log_path.read_text(errors="replace").count("Traceback")
    except KeyboardInterrupt:
        log("interrupted")
    finally:
        if services is not None:
            services.stop()
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if created and not args.keep:
            log(f"dropping database {args.db_name}")
            recreate_database(admin_url, args.db_name, drop_only=True)
        shutil.rmtree(scratch, ignore_errors=True)
    report(args, facts, results)
    return 0


def report(args, facts: dict, results: dict) -> None:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    print()
    print("Sumito ratings benchmark")
    print(f"machine    nproc {facts['nproc']}, {facts['cpu']}, {facts['memory']}")
    print(f"           Python {facts['python']}, {facts['platform']}")
    if "data" not in results:
        print("(no results)")
        return
    data = results["data"]
    print(
        f"data       {data['players']} players, {data['clubs']} clubs, {data['games']} rated games "
        f"(blitz {data.get('blitz', 0)}, rapid {data.get('rapid', 0)}, "
        f"classical {data.get('classical', 0)}), written in {results['generate_s']:.1f} s"
    )
    if "first" in results:
        first = results["first"]
        print(
            f"recompute  {results['recompute_s']:.1f} s for {first.results} results, "
            f"{first.changes_written} rating changes, {first.players} players "
            f"(target <= {TARGET_RECOMPUTE_S:.0f} s: {verdict(results['recompute_s'] <= TARGET_RECOMPUTE_S)})"
        )
    if "second" in results:
        second = results["second"]
        same = second.changes_that_differed == 0 and results["snapshot_equal"]
        print(
            f"again      {results['recompute2_s']:.1f} s; {second.changes_that_differed} differed, "
            f"stored ratings {'identical' if results['snapshot_equal'] else 'CHANGED'} "
            f"({verdict(same)})"
        )
    if "player" in results:
        print(
            f"profile of {results['player'][0]} (top of the rapid leaderboard), "
            f"{results['player'][1]} rated games"
        )
    if "queries" in results:
        print("queries    (one in-process request each)")
        for name, (count, sql_ms, status) in results["queries"].items():
            print(f"  {name:<24} {count:>3} queries, {sql_ms:6.1f} ms SQL, HTTP {status}")
    if "latency" in results:
        print(
            f"latency    uvicorn x{args.web_workers}, DEBUG off, {args.requests} GETs per page, "
            f"{args.concurrency} at once (target p95 <= {TARGET_PAGE_P95_MS:.0f} ms)"
        )
        for name, row in results["latency"].items():
            statuses = ", ".join(f"{code}: {n}" for code, n in sorted(row["statuses"].items()))
            print(
                f"  {name:<24} p50 {row['p50']:6.1f} ms  p95 {row['p95']:6.1f} ms  "
                f"max {row['max']:6.1f} ms  {row['rps']:5.1f} req/s  [{statuses}]  "
                f"{verdict(row['p95'] <= TARGET_PAGE_P95_MS and set(row['statuses']) == {200})}"
            )
        if results.get("archive_note"):
            print(f"  {'archive search':<24} {results['archive_note']}")
        print(f"server     {results.get('server_errors', 0)} tracebacks in the server log")


if __name__ == "__main__":
    sys.exit(main())
