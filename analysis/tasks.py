"""Celery tasks of the analysis board: thin and idempotent."""

from celery import shared_task

from analysis import services


@shared_task(name="analysis.tasks.run_analysis", ignore_result=True)
def run_analysis(analysis_id: int) -> bool:
    return services.analysis_run(analysis_id=analysis_id)
