"""Celery tasks of quick play: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from pools import services


@shared_task(name="pools.tasks.pair", ignore_result=True, expires=5)
def pair() -> int:
    """Every two seconds (beat): expire old seeks, pair the pools again."""
    return services.pools_sweep(now=timezone.now())
