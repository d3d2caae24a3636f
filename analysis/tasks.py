"""Celery tasks of the analysis board: thin and idempotent."""

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from analysis import services
from core.workers import this_host


@shared_task(name="analysis.tasks.run_analysis", ignore_result=True)
def run_analysis(analysis_id: int) -> bool:
    return services.analysis_run(analysis_id=analysis_id)


@shared_task(name="analysis.tasks.recover", ignore_result=True, expires=5)
def recover() -> int:
    """Every two seconds (beat): send again the analyses lost with a message or a worker."""
    return services.analyses_recover(now=timezone.now())


@worker_ready.connect
def release_dead_claims(**_kwargs) -> None:
    """A worker starting (a killed one restarted on its host) sends again at once the analyses
    a gone process of this host was running."""
    try:
        sent = services.analyses_release_dead(host=this_host(), now=timezone.now())
    except Exception:  # the database away: the sweep sends them when their heartbeats go stale
        logging.getLogger(__name__).exception("the analyses of gone processes")
        return
    if sent:
        logging.getLogger(__name__).warning("sent again %s analyses of gone processes", sent)
