"""Background jobs in both shapes of the site.

``enqueue("app.tasks.name", ...)`` is the one way code schedules work. It names the task (so a
service never imports the tasks module that imports it back), always waits for the current
transaction to commit (a worker must never read before the write is visible), then:

* production (``REDIS_URL`` set): sends the task to the Celery broker; the workers run it and the
  one Celery beat runs ``CELERY_BEAT_SCHEDULE``;
* embedded default: hands it to ``InProcessRunner``, one daemon thread inside the web process that
  runs due jobs and the same beat schedule. There is no fake broker: a job lost when the process
  stops is acceptable because every periodic job re-derives its work from the database.

Tasks must be idempotent in both shapes.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any, **kwargs: Any) -> None:
    """Run the Celery task registered as ``task_name`` with ``args``/``kwargs`` after the
    current transaction commits (at once outside a transaction). An unknown name fails here,
    at the call, not in a worker.

    Best effort: the change has committed, so a broker that cannot take the message (Redis
    down) is logged and nothing more; every task's work is also found in the database by a
    periodic job, which catches up. There is no countdown on purpose: a message held by a
    worker until its time is lost, or stops the worker, when Redis drops; what is due later is
    written in the database (a game's deadline, a tournament's next round) and found then.
    """
    task = registered_task(task_name)
    if settings.EMBEDDED:
        transaction.on_commit(lambda: runner().submit(task, args, kwargs))
    else:
        transaction.on_commit(lambda: _send(task, args, kwargs))


def _send(task, args, kwargs) -> None:
    try:
        task.apply_async(args=args, kwargs=kwargs)
    except Exception as error:  # the broker is down: the periodic jobs will catch up
        logger.warning("could not send task %s%r to the broker: %r", task.name, args, error)


@dataclass(order=True)
class _Job:
    due: float
    sequence: int
    run: Callable[[], None] = field(compare=False)
    name: str = field(compare=False)


class InProcessRunner:
    """A single thread that runs submitted jobs when due and the periodic schedule.

    ``clock`` is injectable so the scheduling can be tested without sleeping.
    """

    def __init__(self, schedule: dict[str, dict] | None = None, clock=time.monotonic):
        self._clock = clock
        self._queue: list[_Job] = []
        self._sequence = itertools.count()
        self._wakeup = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        for name, entry in (schedule or {}).items():
            self._schedule_periodic(name, entry["task"], float(entry["schedule"]))

    def submit(self, task, args=(), kwargs=None, *, countdown: float | None = None) -> None:
        kwargs = kwargs or {}
        self._push(
            (countdown or 0.0),
            lambda: task.apply(args=args, kwargs=kwargs, throw=True),
            task.name,
        )

    def _schedule_periodic(self, name: str, task_name: str, every: float) -> None:
        def run_and_reschedule():
            try:
                _run_quietly(name, registered_task(task_name))
            finally:
                self._push(every, run_and_reschedule, name)

        self._push(every, run_and_reschedule, name)

    def _push(self, delay: float, run: Callable[[], None], name: str) -> None:
        with self._wakeup:
            heapq.heappush(
                self._queue, _Job(self._clock() + delay, next(self._sequence), run, name)
            )
            self._wakeup.notify()

    def run_due(self) -> int:
        """Run every job whose time has come; return how many ran."""
        ran = 0
        while True:
            with self._wakeup:
                if not self._queue or self._queue[0].due > self._clock():
                    return ran
                job = heapq.heappop(self._queue)
            close_old_connections()
            try:
                job.run()
            except Exception:
                logger.exception("background job %s failed", job.name)
            finally:
                close_old_connections()
            ran += 1

    def pending(self) -> list[str]:
        with self._wakeup:
            return [job.name for job in sorted(self._queue)]

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="sumito-jobs", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._wakeup:
            self._stopping = True
            self._wakeup.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        while True:
            with self._wakeup:
                if self._stopping:
                    return
                timeout = self._queue[0].due - self._clock() if self._queue else 1.0
                if timeout > 0:
                    self._wakeup.wait(timeout=min(timeout, 1.0))
            self.run_due()


def _run_quietly(name: str, task) -> None:
    """Run a periodic task in this thread and log only what it did.

    The flag sweep runs every second: through Celery's ``apply`` each run logged a "Task ...
    succeeded" line, so the console of ``make run`` was that line, twice a second. Called
    directly the task's body runs alone (exceptions reach ``run_due``, which logs them), and a
    line is written only when the job did something: every periodic task answers how many
    things it handled (games adjudicated, challenges expired, e-mails sent...).
    """
    handled = task()
    if isinstance(handled, int) and not isinstance(handled, bool) and handled > 0:
        logger.info("periodic job %s: %d handled", name, handled)


_import_lock = threading.Lock()


def registered_task(name: str):
    """The Celery task called ``name``, importing every app's ``tasks`` module on first use.

    A worker imports them when it starts; a web process or the embedded default's runner does
    it here, the first time a task is named. Under a lock: Celery's discovery returns at once,
    having imported nothing, to a second thread that calls it while a first is still importing
    (``celery.loaders.base.autodiscover_tasks``' race protection), which made a move answer 500
    after it had been saved.
    """
    app = import_string(settings.JOBS_CELERY_APP)
    if name not in app.tasks:
        with _import_lock:
            if name not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks[name]


_runner: InProcessRunner | None = None
_runner_lock = threading.Lock()


def runner() -> InProcessRunner:
    """The process-wide runner of the embedded default (created on first use)."""
    global _runner
    with _runner_lock:
        if _runner is None:
            _runner = InProcessRunner(settings.CELERY_BEAT_SCHEDULE)
        return _runner
