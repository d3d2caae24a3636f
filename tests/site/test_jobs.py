"""The in-process runner of the embedded default, with a controlled clock."""

import pytest
from celery import shared_task

from core.jobs import InProcessRunner, enqueue, runner

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
        enqueue("tests.record_call", "x")
    assert len(callbacks) == 1
    assert len(runner().pending()) == before  # nothing handed over before the commit
    callbacks[0]()
    assert len(runner().pending()) == before + 1


def test_every_periodic_job_of_the_schedule_is_a_registered_task(settings):
    from core.jobs import registered_task

    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert registered_task(entry["task"]).name == entry["task"]


@pytest.mark.django_db(transaction=True)
def test_the_embedded_runner_adjudicates_a_flagged_game(make_player, settings):
    """The beat schedule run in-process ends a game nobody is watching."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Game
    from games.options import GameOptions

    game = services.game_create(
        black=make_player("eb"),
        white=make_player("ew"),
        now=timezone.now() - timedelta(seconds=10),
        options=GameOptions(60, 0, 6, "belgian", True),
        first_move_seconds=1,
    )
    clock = FakeClock()
    jobs = InProcessRunner(settings.CELERY_BEAT_SCHEDULE, clock=clock)
    clock.now += 1.0
    jobs.run_due()
    game.refresh_from_db()
    assert (game.status, game.termination) == ("finished", "abandoned")
    assert Game.objects.filter(status="started").count() == 0


def test_enqueue_names_the_task_and_an_unknown_name_fails_at_the_call(settings):
    from celery.exceptions import NotRegistered

    settings.EMBEDDED = True
    with pytest.raises(NotRegistered):
        enqueue("games.tasks.no_such_task", 1)


def registered_late():
    """A task registered only when the task modules are imported (see below)."""


def test_threads_naming_a_task_at_once_all_find_it(monkeypatch):
    """Celery's discovery gives nothing to a thread that calls it while another is importing
    (its race protection); registered_task must still find the task for both."""
    import threading
    import time

    from abalone_site.celery import app
    from core import jobs

    name = "tests.registered_late"
    importing = threading.Event()

    def slow_import():
        if importing.is_set():  # Celery's race protection: the second caller gets nothing
            return []
        importing.set()
        time.sleep(0.2)
        app.task(name=name)(registered_late)
        return []

    monkeypatch.setattr(app.loader, "import_default_modules", slow_import)
    found, errors = [], []

    def name_it():
        try:
            found.append(jobs.registered_task(name).name)
        except Exception as error:  # noqa: BLE001 - the failure this test is about
            errors.append(error)

    threads = [threading.Thread(target=name_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    app.tasks.pop(name, None)
    assert errors == [] and found == [name] * 4


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_cannot_take_the_message_does_not_fail_the_committed_change(
    settings, monkeypatch
):
    """The change has committed; a lost message is logged and the periodic jobs catch up."""
    from core import jobs
    from core.jobs import registered_task

    logged = []
    # (the logger itself: a Celery worker started by an earlier test reconfigures logging)
    monkeypatch.setattr(jobs.logger, "warning", lambda *args: logged.append(args[0] % args[1:]))

    settings.EMBEDDED = False
    task = registered_task("tests.record_call")

    def broker_down(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(task, "apply_async", broker_down)
    from django.db import transaction

    with transaction.atomic():
        enqueue("tests.record_call", "lost")
    assert logged and logged[0].startswith(
        "could not send task tests.record_call('lost',) to the broker"
    )
