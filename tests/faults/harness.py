"""The production shape in processes of its own, to break on purpose.

:class:`Stack` runs, on the test database: a Redis server on a free port (its own, so killing it
harms nobody), uvicorn with two web processes, a Celery worker and one beat, each logging to a
file. A supervisor thread restarts any of them that exits, after ``restart_delay`` seconds, as
``Restart=always`` does in ``deploy/systemd`` (uvicorn's own parent restarts a dead web process).
A test can hold a service down (:meth:`Stack.hold`) to decide itself when it comes back.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = "/usr/bin/redis-server"


def database_url() -> str:
    """The test database (PostgreSQL), as the stack's processes reach it."""
    from django.db import connection

    params = connection.settings_dict
    user = params.get("USER") or "postgres"
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Service:
    name: str
    command: list[str]
    log: Path
    process: subprocess.Popen | None = None
    held: bool = False
    restarts: int = 0
    started_at: list[float] = field(default_factory=list)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Stack:
    def __init__(
        self,
        scratch: Path,
        database_url: str,
        *,
        web_workers: int = 2,
        restart_delay: float = 1.0,
        redis_keeps_data: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        self.scratch = scratch
        self.redis_port, self.web_port = free_port(), free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.base_url = f"http://127.0.0.1:{self.web_port}"
        self.restart_delay = restart_delay
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": self.redis_url,
            "SECRET_KEY": "fault-suite-" + "k3yZ" * 12,
            "DJANGO_SETTINGS_MODULE": "abalone_site.settings",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DB_POOL_SIZE": "4",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        redis_dir = scratch / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if redis_keeps_data
            else ["--appendonly", "no"]
        )
        python = sys.executable
        self.services = {
            "redis": Service(
                "redis",
                [
                    REDIS_SERVER,
                    "--port",
                    str(self.redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--dir",
                    str(redis_dir),
                    *persistence,
                ],
                scratch / "redis.log",
            ),
            "web": Service(
                "web",
                [
                    python,
                    "-m",
                    "uvicorn",
                    "abalone_site.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.web_port),
                    "--workers",
                    str(web_workers),
                    "--lifespan",
                    "on",
                    "--ws",
                    "websockets-sansio",
                    "--log-level",
                    "warning",
                ],
                scratch / "web.log",
            ),
            "worker": Service(
                "worker",
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "abalone_site",
                    "worker",
                    "-c",
                    "2",
                    "--loglevel=info",
                    "--without-mingle",
                    "--without-gossip",
                ],
                scratch / "worker.log",
            ),
            "beat": Service(
                "beat",
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "abalone_site",
                    "beat",
                    "--loglevel=info",
                    "--schedule",
                    str(scratch / "beat-schedule"),
                ],
                scratch / "beat.log",
            ),
        }
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._supervisor = threading.Thread(target=self._supervise, daemon=True)

    # --- life ----------------------------------------------------------------------------------

    def start(self) -> Stack:
        for service in self.services.values():
            self._launch(service)
        self.wait_until_up()
        self._supervisor.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for service in reversed(list(self.services.values())):
            self._terminate(service)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def wait_until_up(self, timeout: float = 60.0) -> None:
        """Until Redis answers, the web answers /healthz and the worker is ready."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.redis_up() and self.web_up() and self.worker_ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"the stack did not come up:\n{self.tails()}")

    def redis_up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def web_up(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=1.0) as answer:
                return answer.status == 200
        except OSError:
            return False

    def worker_ready(self, times: int = 1) -> bool:
        """Whether the worker has said it is ready ``times`` times (once per start)."""
        return self.services["worker"].log.read_text(errors="replace").count(" ready.") >= times

    # --- faults --------------------------------------------------------------------------------

    def kill(self, name: str, sig: int = signal.SIGKILL) -> int:
        """Send ``sig`` to the service's process (its whole group); its pid."""
        service = self.services[name]
        pid = service.pid
        os.killpg(pid, sig)
        return pid

    def hold(self, name: str) -> None:
        """Keep the supervisor from restarting ``name`` until :meth:`release`."""
        self.services[name].held = True

    def release(self, name: str) -> None:
        self.services[name].held = False

    def down(self, name: str) -> None:
        """Hold ``name`` and kill it (SIGKILL); wait until it is gone."""
        self.hold(name)
        self.kill(name)
        self.services[name].process.wait(10)

    def web_process_pids(self) -> list[int]:
        """The uvicorn worker processes: the parent's children that multiprocessing spawned
        (not its resource tracker)."""
        parent = self.services["web"].pid
        children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        workers = []
        for pid in children:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                workers.append(int(pid))
        return workers

    # --- supervision ---------------------------------------------------------------------------

    def _supervise(self) -> None:
        while not self._stop.wait(0.2):
            for service in self.services.values():
                with self._lock:
                    if service.held or service.alive():
                        continue
                time.sleep(self.restart_delay)
                with self._lock:
                    if not service.held and not service.alive() and not self._stop.is_set():
                        service.restarts += 1
                        self._launch(service)

    def _launch(self, service: Service) -> None:
        log = service.log.open("ab")
        service.process = subprocess.Popen(
            service.command,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: a kill reaches its children too
        )
        service.started_at.append(time.monotonic())

    def _terminate(self, service: Service) -> None:
        if not service.alive():
            return
        try:
            os.killpg(service.pid, signal.SIGTERM)
            service.process.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(service.pid, signal.SIGKILL)
            service.process.wait(5)

    def tails(self, lines: int = 30) -> str:
        parts = []
        for service in self.services.values():
            text = service.log.read_text(errors="replace") if service.log.exists() else ""
            parts.append(f"--- {service.name} ---\n" + "\n".join(text.splitlines()[-lines:]))
        return "\n".join(parts)
