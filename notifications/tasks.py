"""Celery tasks of notifications: thin and idempotent."""

from celery import shared_task
from django.utils import timezone

from notifications.services import email_send_due, push_send, push_send_due


@shared_task(name="notifications.tasks.send_due_emails", ignore_result=True, expires=14)
def send_due_emails() -> int:
    """Every 15 s (beat): e-mail the wanted notifications still unread after the delay."""
    return email_send_due(now=timezone.now())


@shared_task(name="notifications.tasks.send_pushes", ignore_result=True)
def send_pushes(notification_id: int) -> int:
    """After a notification's commit: push it to its player's devices (each push once)."""
    return push_send(notification_id, now=timezone.now())


@shared_task(name="notifications.tasks.send_due_pushes", ignore_result=True, expires=9)
def send_due_pushes() -> int:
    """Every 10 s (beat): the pushes no task sent (a lost message, a dead process)."""
    return push_send_due(now=timezone.now())
