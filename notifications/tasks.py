"""Celery tasks of notifications: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from notifications.services import email_send_due


@shared_task(name="notifications.tasks.send_due_emails", ignore_result=True, expires=14)
def send_due_emails() -> int:
    """Every 15 s (beat): e-mail the wanted notifications still unread after the delay."""
    return email_send_due(now=timezone.now())
