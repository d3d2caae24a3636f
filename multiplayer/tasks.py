"""Celery tasks of tables: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from multiplayer import services


@shared_task(name="multiplayer.tasks.sweep_flags", ignore_result=True, expires=5)
def sweep_flags() -> int:
    """Every second (beat): adjudicate fallen flags, abort open tables nobody filled."""
    return services.tables_sweep(now=timezone.now())
