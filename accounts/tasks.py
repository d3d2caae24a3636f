from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone


@shared_task(name="accounts.tasks.purge_expired_sessions")
def purge_expired_sessions() -> int:
    """Delete expired sessions; harmless to run twice."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
