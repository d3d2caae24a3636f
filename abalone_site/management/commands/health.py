"""``manage.py health web|worker|beat``: the supervisor's health check of one process kind.

Exit status 0 when healthy, 1 otherwise, with the reason on stderr (deploy/: the systemd health
timer and the compose file's healthchecks call this).

- ``web [--url URL]``: the web process answers ``/healthz`` with 200 (it reaches the database).
- ``worker [--name NAME]``: the Celery worker answers a ping through Redis within 5 s.
- ``beat --schedule PATH [--max-age SECONDS]``: beat has written its schedule file lately (it
  writes it after every task it sends, CELERY_BEAT_SYNC_EVERY = 1, and sends one a second).
"""

from __future__ import annotations

import socket
import time
import urllib.request
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Exit 0 if the web process, the Celery worker or beat is healthy, 1 if not."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=["web", "worker", "beat"])
        parser.add_argument("--url", default="http://127.0.0.1:8000/healthz")
        parser.add_argument("--name", default=f"celery@{socket.gethostname()}")
        parser.add_argument("--schedule", default="celerybeat-schedule")
        parser.add_argument("--max-age", type=float, default=30.0)

    def handle(self, *args, kind, url, name, schedule, max_age, **options):
        problem = getattr(self, f"_{kind}")(url=url, name=name, schedule=schedule, max_age=max_age)
        if problem:
            raise CommandError(f"{kind} unhealthy: {problem}")
        self.stdout.write(f"{kind} healthy")

    def _web(self, *, url, **_):
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return None if answer.status == 200 else f"{url} answered {answer.status}"
        except OSError as error:
            return f"{url}: {error}"

    def _worker(self, *, name, **_):
        from abalone_site.celery import app

        try:
            replies = app.control.ping(destination=[name], timeout=5)
        except Exception as error:  # noqa: BLE001 - the broker itself is unreachable
            return f"cannot ask {name}: {error!r}"
        return None if replies else f"{name} did not answer a ping within 5 s"

    def _beat(self, *, schedule, max_age, **_):
        files = [p for p in Path(schedule).parent.glob(Path(schedule).name + "*") if p.is_file()]
        if not files:
            return f"no schedule file at {schedule}"
        age = time.time() - max(p.stat().st_mtime for p in files)
        return None if age <= max_age else f"its schedule was last written {age:.0f} s ago"
