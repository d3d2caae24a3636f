"""Helpers shared by the benchmarks that start the production shape."""

from __future__ import annotations

import contextlib
import os
import platform
import socket
from pathlib import Path


def recreate_database(admin_url: str, db_name: str, *, drop_only: bool = False) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db_name))
        )
        if not drop_only:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db_name)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def machine_facts() -> dict[str, str]:
    cpu, memory = "unknown", "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "memory": memory,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def speed_probe() -> float:
    """Milliseconds for a fixed pure-Python workload (the best of five runs).

    This machine's speed drifts by a third from one minute to the next (its host is shared),
    and every process's CPU per request drifts with it. Printed beside a benchmark's numbers,
    it tells a slow machine from slow code.
    """
    import time

    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        total = 0
        for i in range(300_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - started)
    return best * 1000
