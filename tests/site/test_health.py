"""/healthz and ``manage.py health``: what the supervisors ask."""

import os
import time

import pytest
from django.core.management import CommandError, call_command

from abalone_site import views


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_cannot_be_reached(client, monkeypatch):
    monkeypatch.setattr(views, "_database_ok", lambda: "down")
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.json()["status"] == "unavailable"


def test_the_web_check_asks_healthz(live_server):
    call_command("health", "web", "--url", f"{live_server.url}/healthz")
    with pytest.raises(CommandError, match="web unhealthy"):
        call_command("health", "web", "--url", f"{live_server.url}/no-such-page")


def test_the_beat_check_reads_the_age_of_its_schedule(tmp_path):
    schedule = tmp_path / "beat-schedule"
    schedule.write_bytes(b"")
    call_command("health", "beat", "--schedule", str(schedule))
    old = time.time() - 120
    os.utime(schedule, (old, old))
    with pytest.raises(CommandError, match="last written 1[12][0-9] s ago"):
        call_command("health", "beat", "--schedule", str(schedule))
    with pytest.raises(CommandError, match="no schedule file"):
        call_command("health", "beat", "--schedule", str(tmp_path / "missing"))
