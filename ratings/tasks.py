"""Celery tasks of ratings: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from ratings.recompute import ratings_recompute_requested


@shared_task(name="ratings.tasks.recompute_requested", ignore_result=True)
def recompute_requested() -> int:
    """Replay the ratings that corrected results asked for; sent after each correction and
    run by beat every minute too, so a message lost on the way is caught up. Returns how many
    results were replayed (0: nothing was waiting)."""
    report = ratings_recompute_requested(now=timezone.now())
    return report.results if report is not None else 0
