"""Web hosts for the multi-host rehearsal (bench/hosts.py): network namespaces on a bridge (or
process groups on their own loopback addresses), each running the site's processes, and HAProxy's
configuration in front of them (docs/deploy.md, "Several web hosts")."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.live.client import Connection
from bench.live.stack import BenchError, Services, celery_argv, tail

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
HOST_COOKIE = "SUMITO_HOST"
WEB_PORT = 8001
BRIDGE = "sumito-br"
NAMESPACE = "sumito-h{}"
SUBNET = "10.77.0"


# --- the hosts -------------------------------------------------------------------------------


@dataclass
class Host:
    name: str  # h1, h2, ...
    address: str
    namespace: str | None
    services: Services
    killed_at: float | None = None

    def argv(self, argv: list[str]) -> list[str]:
        """``argv`` run on this host (in its namespace, when it has one)."""
        if self.namespace is None:
            return argv
        return ["ip", "netns", "exec", self.namespace, *argv]

    def kill(self) -> None:
        """The host dies: every process on it is killed at once (no clean shutdown)."""
        self.killed_at = time.monotonic()
        pids = [service.process.pid for service in self.services.services]
        if self.namespace is not None:
            listed = subprocess.run(
                ["ip", "netns", "pids", self.namespace], capture_output=True, text=True
            ).stdout.split()
            pids += [int(pid) for pid in listed]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


class Network:
    """Hosts as network namespaces on a bridge, or as loopback addresses."""

    def __init__(self, count: int, loopback: bool):
        self.count = count
        self.namespaces = not loopback
        self.made = False

    @property
    def services_address(self) -> str:
        """Where the hosts reach PostgreSQL and Redis."""
        return f"{SUBNET}.1" if self.namespaces else "127.0.0.1"

    def address(self, index: int) -> str:
        return f"{SUBNET}.1{index}" if self.namespaces else f"127.0.0.1{index}"

    def namespace(self, index: int) -> str | None:
        return NAMESPACE.format(index) if self.namespaces else None

    def up(self) -> None:
        if not self.namespaces:
            return
        self.down()  # what a run that was killed may have left
        steps = [
            ["ip", "link", "add", BRIDGE, "type", "bridge"],
            ["ip", "addr", "add", f"{SUBNET}.1/24", "dev", BRIDGE],
            ["ip", "link", "set", BRIDGE, "up"],
        ]
        for index in range(1, self.count + 1):
            namespace = self.namespace(index)
            outer = f"sumito-v{index}"
            steps += [
                ["ip", "netns", "add", namespace],
                [
                    "ip",
                    "link",
                    "add",
                    outer,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    "eth0",
                    "netns",
                    namespace,
                ],
                ["ip", "link", "set", outer, "master", BRIDGE, "up"],
                ["ip", "-n", namespace, "addr", "add", f"{self.address(index)}/24", "dev", "eth0"],
                ["ip", "-n", namespace, "link", "set", "eth0", "up"],
                ["ip", "-n", namespace, "link", "set", "lo", "up"],
            ]
        self.made = True
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode:
                raise BenchError(f"{' '.join(step)}: {done.stderr.strip()}")

    def down(self) -> None:
        if not self.namespaces:
            return
        for index in range(1, self.count + 1):
            namespace = self.namespace(index)
            pids = subprocess.run(
                ["ip", "netns", "pids", namespace], capture_output=True, text=True
            ).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
            subprocess.run(["ip", "link", "del", f"sumito-v{index}"], capture_output=True)
        subprocess.run(["ip", "link", "del", BRIDGE], capture_output=True)


def namespaces_allowed() -> bool:
    probe = f"sumito-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True)
    if made.returncode:
        return False
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return True


def with_host(url: str, address: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    hostport = netloc[-1].replace(parts.hostname or "", address, 1)
    return urlunsplit(parts._replace(netloc="@".join([*netloc[:-1], hostport])))


def haproxy_config(front_port: int, network: Network) -> str:
    """The balancer: the site's hosts (health-checked, WebSockets passed through, a browser kept
    on its host by a cookie while the host lives); in namespaces, also PostgreSQL and Redis
    forwarded to the hosts from the bridge's end (where a database host's address would be)."""
    servers = "\n".join(
        f"    server h{index} {network.address(index)}:{WEB_PORT} check cookie h{index}"
        for index in range(1, network.count + 1)
    )
    config = f"""global
    maxconn 4000

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-request 10s
    option redispatch 1
    retries 3

frontend site
    bind 127.0.0.1:{front_port}
    option forwardfor
    default_backend hosts

backend hosts
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
    cookie {HOST_COOKIE} insert indirect nocache
    default-server inter 1s fall 2 rise 2
    http-response set-header X-Sumito-Host %[srv_name]
{servers}
"""
    if network.namespaces:
        for name, port in (("postgres", 5432), ("redis", 6379)):
            config += f"""
listen {name}
    mode tcp
    bind {network.services_address}:{port}
    timeout client 1h
    timeout server 1h
    server {name} 127.0.0.1:{port}
"""
    return config


def start_hosts(
    network: Network, env: dict[str, str], scratch: Path, bench_url: str, redis_url: str
) -> list[Host]:
    bin_dir = Path(sys.executable).parent
    hosts = []
    for index in range(1, network.count + 1):
        name = f"h{index}"
        address = network.address(index)
        host_env = dict(
            env,
            DATABASE_URL=with_host(bench_url, network.services_address),
            REDIS_URL=with_host(redis_url, network.services_address),
            ALLOWED_HOSTS="127.0.0.1,localhost," + address,
        )
        host_scratch = scratch / name
        host_scratch.mkdir()
        host = Host(name, address, network.namespace(index), Services(host_env, host_scratch))
        host.services.start(
            f"{name}-web",
            host.argv(
                [
                    str(bin_dir / "uvicorn"),
                    "abalone_site.asgi:application",
                    "--host",
                    address,
                    "--port",
                    str(WEB_PORT),
                    "--lifespan",
                    "on",
                    "--no-access-log",
                    "--log-level",
                    "warning",
                    "--ws",
                    "websockets-sansio",
                    "--proxy-headers",
                    "--forwarded-allow-ips",
                    network.services_address,
                ]
            ),
        )
        if index <= 2:  # Celery workers on two hosts
            worker = celery_argv("worker", name=f"worker@{name}")
            host.services.start(f"{name}-worker", host.argv(worker))
        if index == network.count:  # exactly one beat
            beat = celery_argv("beat", schedule=host_scratch / "beat-schedule")
            host.services.start(f"{name}-beat", host.argv(beat))
        hosts.append(host)
    return hosts


def conn_on(front_port: int, host: str) -> Connection:
    """An HTTP connection through the balancer on ``front_port``, pinned to ``host`` by its
    cookie."""
    conn = Connection("127.0.0.1", front_port)
    conn.headers = [f"Cookie: {HOST_COOKIE}={host}"]
    return conn


async def wait_for_balancer(
    front_port: int, hosts: list[Host], balancer: Services, timeout: float = 90.0
) -> None:
    """Until every host answers through the balancer (each pinned by its cookie)."""
    deadline = time.monotonic() + timeout
    pending = {host.name for host in hosts}
    while pending and time.monotonic() < deadline:
        for host in hosts:
            host.services.check_alive()
        balancer.check_alive()
        for name in list(pending):
            conn = conn_on(front_port, name)
            with contextlib.suppress(OSError, Exception):
                status, _ = await conn.request("GET", "/healthz")
                if status == 200 and conn.response_headers.get("x-sumito-host") == name:
                    pending.discard(name)
            await conn.close()
        await asyncio.sleep(0.3)
    if pending:
        logs = "\n".join(
            f"--- {s.name}\n{tail(s.log_path)}" for h in hosts for s in h.services.services
        )
        raise BenchError(f"hosts {sorted(pending)} not up behind the balancer:\n{logs}")
