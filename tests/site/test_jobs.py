"""The in-process runner of the embedded default, with a controlled clock."""

import pytest
from celery import shared_task

from abalone_site.jobs import InProcessRunner, enqueue, runner

pytestmark = pytest.mark.django_db

calls: list = []


@shared_task(name="tests.record_call")
def record_call(value):
    calls.append(value)


@shared_task(name="tests.tick")
def tick():
    calls.append("tick")


@shared_task(name="tests.explode")
def explode():
    raise RuntimeError("boom")


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture(autouse=True)
def _clear():
    calls.clear()


def test_runs_jobs_when_due_in_order():
    clock = FakeClock()
    jobs = InProcessRunner(clock=clock)
    jobs.submit(record_call, ("later",), countdown=5)
    jobs.submit(record_call, ("now",))
    assert jobs.run_due() == 1 and calls == ["now"]
    clock.now += 4.9
    assert jobs.run_due() == 0
    clock.now += 0.2
    assert jobs.run_due() == 1 and calls == ["now", "later"]


def test_periodic_schedule_repeats():
    clock = FakeClock()
    jobs = InProcessRunner({"tick": {"task": "tests.tick", "schedule": 2}}, clock=clock)
    assert jobs.pending() == ["tick"]
    assert jobs.run_due() == 0
    clock.now += 2
    assert jobs.run_due() == 1
    clock.now += 2
    assert jobs.run_due() == 1
    assert calls == ["tick", "tick"]
    assert jobs.pending() == ["tick"]


def test_a_failing_job_does_not_stop_the_runner():
    clock = FakeClock()
    jobs = InProcessRunner(clock=clock)
    jobs.submit(explode)
    jobs.submit(record_call, ("after",))
    assert jobs.run_due() == 2
    assert calls == ["after"]


def test_thread_runs_submitted_job():
    import time

    jobs = InProcessRunner()
    jobs.start()
    try:
        jobs.submit(record_call, ("threaded",))
        deadline = time.monotonic() + 5
        while not calls and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        jobs.stop()
    assert calls == ["threaded"]


@pytest.mark.django_db
def test_enqueue_waits_for_commit(settings, django_capture_on_commit_callbacks):
    settings.EMBEDDED = True
    before = len(runner().pending())
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        enqueue(record_call, "x")
    assert len(callbacks) == 1
    assert len(runner().pending()) == before  # nothing handed over before the commit
    callbacks[0]()
    assert len(runner().pending()) == before + 1
