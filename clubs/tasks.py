from celery import shared_task

from .services import join_request_admins_notify


@shared_task(name="clubs.tasks.notify_join_request")
def notify_join_request(request_id: int) -> bool:
    return join_request_admins_notify(request_id=request_id)
