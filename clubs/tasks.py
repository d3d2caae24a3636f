"""Celery tasks of clubs: thin and idempotent (an admin is e-mailed about a request once)."""

from celery import shared_task
from django.utils import timezone

from .services import join_request_admins_notify, join_requests_notify_pending


@shared_task(name="clubs.tasks.notify_join_request", ignore_result=True)
def notify_join_request(request_id: int) -> bool:
    return join_request_admins_notify(request_id=request_id)


@shared_task(name="clubs.tasks.notify_pending_join_requests", ignore_result=True, expires=50)
def notify_pending_join_requests() -> int:
    """Every minute (beat): the requests whose notice was never sent (its message lost)."""
    return join_requests_notify_pending(now=timezone.now())
