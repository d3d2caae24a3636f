"""The production shape the live benchmarks start: a fresh database, Redis flushed, uvicorn with
N workers, one Celery worker and one beat, as separate processes (bench/games.py,
bench/notifications.py; bench/ratings.py starts the web alone); and the machine's CPU as they
run."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import resource
import secrets
import signal
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]


class BenchError(Exception):
    """Something the bench cannot go on without (a process that does not start, a bad env)."""


def log(message: str) -> None:
    print(f"\r\033[K[bench] {message}", file=sys.stderr, flush=True)


# --- environment -----------------------------------------------------------------------------


def check_environment(db_name: str, allow_redis_db0: bool) -> tuple[str, str, str]:
    """Return (admin database URL, bench database URL, Redis URL) or exit with a clear message."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    problems = []
    parts = urlsplit(database_url)
    if not database_url:
        problems.append(
            "DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)"
        )
    elif parts.scheme not in ("postgres", "postgresql", "pgsql", "postgis"):
        problems.append(f"DATABASE_URL must name PostgreSQL, not '{parts.scheme}:'")
    redis_parts = urlsplit(redis_url)
    if not redis_url:
        problems.append("REDIS_URL is not set (e.g. redis://127.0.0.1:6379/11)")
    elif redis_parts.scheme not in ("redis", "rediss"):
        problems.append(f"REDIS_URL must be a redis:// URL, not '{redis_parts.scheme}:'")
    elif redis_parts.path.strip("/") in ("", "0") and not allow_redis_db0:
        problems.append(
            "REDIS_URL names Redis database 0, which this bench would FLUSH: name another "
            "database (e.g. redis://127.0.0.1:6379/11) or pass --allow-redis-db0"
        )
    if problems:
        print("bench/games.py needs the production wiring:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        sys.exit(2)
    admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    bench_url = urlunsplit(parts._replace(path=f"/{db_name}"))
    return admin_url, bench_url, redis_url


# --- processes -------------------------------------------------------------------------------


@dataclass
class Service:
    name: str
    process: subprocess.Popen
    log_path: Path


class Services:
    """The web, worker and beat processes; each in its own session so it is stopped whole."""

    def __init__(self, env: dict[str, str], scratch: Path):
        self.env = env
        self.scratch = scratch
        self.services: list[Service] = []

    def start(self, name: str, argv: list[str]) -> Service:
        log_path = self.scratch / f"{name}.log"
        handle = open(log_path, "wb")  # noqa: SIM115 (the child owns it)
        process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()
        service = Service(name, process, log_path)
        self.services.append(service)
        return service

    def check_alive(self) -> None:
        for service in self.services:
            if service.process.poll() is not None:
                raise BenchError(
                    f"{service.name} exited with {service.process.returncode}:\n"
                    + tail(service.log_path)
                )

    def stop(self) -> None:
        for service in reversed(self.services):
            if service.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(service.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for service in reversed(self.services):
            try:
                service.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(service.process.pid, signal.SIGKILL)
                service.process.wait(timeout=5)
            # the group may still hold children (uvicorn/celery workers) that outlived the parent
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(service.process.pid, signal.SIGKILL)

    def log_problems(self) -> dict[str, int]:
        """Tracebacks and ERROR/CRITICAL lines per process log (there should be none)."""
        found = {}
        for service in self.services:
            with contextlib.suppress(OSError):
                text = service.log_path.read_text(errors="replace")
                found[service.name] = len(
                    re.findall(r"Traceback|\bERROR\b|\bCRITICAL\b|Exception in ASGI", text)
                )
        return found


def tail(path: Path, lines: int = 30) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


def _process_tree(root_pids: list[int], read) -> float:
    """The sum of ``read(pid)`` over the given processes and all their descendants (a
    process gone, or unreadable, counts nothing)."""
    parents: dict[int, int] = {}
    values: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
            values[int(entry.name)] = read(entry, fields)
    wanted = set(root_pids)
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in wanted and pid not in wanted:
                wanted.add(pid)
                changed = True
    return sum(values.get(pid, 0.0) for pid in wanted)


def process_tree_cpu(root_pids: list[int]) -> float:
    """CPU seconds (user + system) of the given processes and all their descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    # utime + stime, and cutime + cstime of children already gone (threads are inside)
    return _process_tree(
        root_pids, lambda _entry, fields: sum(int(f) for f in fields[11:15]) / ticks
    )


def process_tree_rss(root_pids: list[int]) -> int:
    """Resident memory (bytes) of the given processes and all their descendants."""
    page = os.sysconf("SC_PAGE_SIZE")
    return int(
        _process_tree(
            root_pids, lambda entry, _fields: int((entry / "statm").read_text().split()[1]) * page
        )
    )


def named_process_cpu(name: str) -> float:
    """CPU seconds of every process whose command name is ``name`` (e.g. the postgres server)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            raw = (entry / "stat").read_text()
            comm = raw[raw.index("(") + 1 : raw.rindex(")")]
            if comm.startswith(name):
                fields = raw.rsplit(")", 1)[1].split()
                # with cutime + cstime: the postmaster collects its exited backends' time
                total += sum(int(f) for f in fields[11:15]) / ticks
    return total


def machine_busy_cpu() -> float:
    """CPU seconds every core of the machine spent not idle (all processes, ours or not)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class CpuSample:
    web: float
    worker: float
    beat: float
    postgres: float
    redis: float
    bench: float
    machine: float
    at: float

    @classmethod
    def take(cls, services: Services) -> CpuSample:
        by_name = {s.name: s.process.pid for s in services.services}
        return cls(
            web=process_tree_cpu([by_name["web"]]),
            worker=process_tree_cpu([by_name["worker"]]),
            beat=process_tree_cpu([by_name["beat"]]),
            postgres=named_process_cpu("postgres"),
            redis=named_process_cpu("redis-server"),
            bench=own_cpu(),
            machine=machine_busy_cpu(),
            at=time.monotonic(),
        )

    def since(self, earlier: CpuSample) -> dict[str, float]:
        return {
            name: getattr(self, name) - getattr(earlier, name)
            for name in ("web", "worker", "beat", "postgres", "redis", "bench", "machine")
        }


def stack_env(bench_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of the stack's processes: the production shape on the bench's database
    and Redis, this tree's code."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=bench_url,
        REDIS_URL=redis_url,
        DEBUG="False",
        SECRET_KEY=env.get("SECRET_KEY") or "bench-" + secrets.token_urlsafe(32),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        # the code of the tree this file is in, whatever an editable install points at
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        **extra,
    )
    return env


def migrate_and_set_up_django(env: dict[str, str]) -> None:
    """Migrate the bench database, then set this process up on it (players are made through
    the ORM)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY")})
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "abalone_site.settings")
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()


def start_web(services: Services, port: int, web_workers: int, *, ws: str | None = None) -> Service:
    """uvicorn with ``web_workers`` workers on ``port``, as the production shape runs it
    (``ws``: another WebSocket implementation than the production shape's, to compare)."""
    return services.start(
        "web",
        [
            str(Path(sys.executable).parent / "uvicorn"),
            "abalone_site.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(web_workers),
            "--no-access-log",
            "--log-level",
            "warning",
            "--ws",
            ws or "websockets-sansio",
        ],
    )


def wait_for_web(web: Service, port: int, timeout: float = 30.0) -> None:
    """Until ``/healthz`` answers on ``port`` (the web process's own check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if web.process.poll() is not None:
            raise BenchError(f"{web.name} exited:\n{tail(web.log_path)}")
        with contextlib.suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status < 500:
                return
        time.sleep(0.2)
    raise BenchError(f"{web.name} did not answer within {timeout:.0f} s:\n{tail(web.log_path)}")


def celery_argv(
    kind: str, *, concurrency: int = 1, name: str = "", schedule: Path | None = None
) -> list[str]:
    """The command of a Celery ``worker`` (``concurrency`` processes, named ``name``) or of the
    ``beat`` (its ``schedule`` file), as deploy/systemd runs them."""
    argv = [str(Path(sys.executable).parent / "celery"), "-A", "abalone_site", kind]
    argv.append("--loglevel=warning")
    if kind == "worker":
        argv += ["--concurrency", str(concurrency)] + (["--hostname", name] if name else [])
    elif schedule is not None:
        argv += ["--schedule", str(schedule)]
    return argv


def start_stack(services: Services, port: int, web_workers: int, scratch: Path) -> Service:
    """uvicorn with ``web_workers`` workers on ``port``, one Celery worker and one beat; the
    web service."""
    web = start_web(services, port, web_workers)
    services.start("worker", celery_argv("worker", concurrency=2, name=f"bench-{os.getpid()}@%h"))
    services.start("beat", celery_argv("beat", schedule=scratch / "beat-schedule"))
    return web
