"""Celery tasks of the analysis board: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from analysis import services


@shared_task(name="analysis.tasks.run_analysis", ignore_result=True)
def run_analysis(analysis_id: int) -> bool:
    return services.analysis_run(analysis_id=analysis_id)


@shared_task(name="analysis.tasks.recover", ignore_result=True, expires=5)
def recover() -> int:
    """Every five seconds (beat): send again the analyses lost with a message or a worker."""
    return services.analyses_recover(now=timezone.now())
