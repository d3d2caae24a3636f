"""Every analysis comes back (issue 24, item 1): one whose worker died while running it, or
whose message was lost (Redis down when it was asked for), is sent again by the sweep; after a
few lost attempts it fails, saying so; and a player's limit counts only analyses that can still
finish (two lost ones refused every request for good)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from analysis import services
from analysis.models import Analysis

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda name, *args: sent.append((name, args)))
    return sent


def ask(user, now, seconds=1.0):
    return services.analysis_request(user=user, now=now, position="standard", seconds=seconds)


def test_a_message_lost_on_the_way_is_sent_again(make_player, queued):
    now = timezone.now()
    analysis = ask(make_player("ann"), now)
    queued.clear()  # Redis was down: the message never reached a worker
    early = now + timedelta(seconds=services.RESEND_SECONDS - 1)
    assert services.analyses_recover(now=early) == 0  # it may be on its way
    assert services.analyses_recover(now=now + timedelta(seconds=services.RESEND_SECONDS)) == 1
    assert queued == [(services.RUN_TASK, (analysis.pk,))]
    assert services.analysis_run(analysis_id=analysis.pk) is True
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.attempts == 1


def test_one_whose_worker_died_is_run_again_and_the_dead_run_cannot_write(make_player, queued):
    now = timezone.now()
    analysis = ask(make_player("ann"), now)
    dead = services._claim(analysis.pk, now=now)  # a worker took it, then died
    assert dead is not None and dead.attempts == 1
    assert services.analyses_recover(now=now + timedelta(seconds=2)) == 0  # still alive maybe
    stale = now + timedelta(seconds=analysis.seconds + services.STALE_SECONDS + 1)
    assert services.analyses_recover(now=stale) == 1
    analysis.refresh_from_db()
    assert analysis.status == "queued"
    assert services.analysis_run(analysis_id=analysis.pk) is True
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.attempts == 2
    with pytest.raises(services.Superseded):  # the dead run wakes: it may write nothing
        services._write(dead, status=Analysis.Status.FAILED, error="late")
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.error == ""


def test_a_restarted_worker_sends_again_at_once_what_its_host_s_gone_processes_ran(
    make_player, queued
):
    """Killed during a run, a worker is restarted on its host; the new one sends again the
    analyses of processes of its host that are gone, without waiting for a stale heartbeat; a
    live process's run, or another host's, is left alone."""
    import os
    import subprocess

    from core.workers import this_host

    now = timezone.now()
    runs = [ask(make_player(name), now) for name in ("ann", "bob", "cid")]
    for analysis in runs:
        assert services._claim(analysis.pk, now=now) is not None
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process number no process has now
    host = this_host()
    owners = [f"{host}:{gone.pid}", f"{host}:{os.getpid()}", f"elsewhere:{gone.pid}"]
    for analysis, owner in zip(runs, owners, strict=True):
        Analysis.objects.filter(pk=analysis.pk).update(claimed_by=owner)
    queued.clear()
    assert services.analyses_release_dead(host=host, now=now) == 1
    assert queued == [(services.RUN_TASK, (runs[0].pk,))]
    released = Analysis.objects.get(pk=runs[0].pk)
    assert (released.status, released.claimed_by, released.attempts) == ("queued", "", 1)
    assert [Analysis.objects.get(pk=a.pk).status for a in runs[1:]] == ["running", "running"]
    assert services.analyses_release_dead(host=host, now=now) == 0  # once
    assert services.analysis_run(analysis_id=runs[0].pk) is True
    released.refresh_from_db()
    assert released.status == "done" and released.attempts == 2


def test_after_the_last_attempt_it_fails_saying_why(make_player, queued):
    now = timezone.now()
    analysis = ask(make_player("ann"), now)
    moment = now
    for _ in range(services.MAX_ATTEMPTS):
        assert services._claim(analysis.pk, now=moment) is not None
        moment += timedelta(seconds=analysis.seconds + services.STALE_SECONDS + 1)
        services.analyses_recover(now=moment)
    analysis.refresh_from_db()
    assert analysis.status == "failed" and analysis.error
    assert analysis.finished is not None


def test_the_limit_counts_only_analyses_that_can_still_finish(make_player, queued):
    ann = make_player("ann")
    now = timezone.now()
    for _ in range(services.ANALYSIS_OPEN_LIMIT):
        stuck = ask(ann, now)
        services._claim(stuck.pk, now=now)  # their workers died
    with pytest.raises(services.TooMany):
        ask(ann, now + timedelta(seconds=1))
    later = now + timedelta(seconds=3 + services.STALE_SECONDS + 1)
    assert ask(ann, later).status == "queued"  # the dead runs no longer count
