"""The production shape: PostgreSQL, a real Celery worker through Redis, the Redis channel layer.

Skipped, with the reason, unless DATABASE_URL names PostgreSQL and REDIS_URL is set.
"""

import time

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection

from clubs import services
from clubs.models import Club, JoinRequest
from tests.support import wait_for


def test_settings_are_the_production_shape():
    assert connection.vendor == "postgresql"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.EMBEDDED is False
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
        "channels_redis.pubsub.RedisPubSubChannelLayer"
    )


@pytest.mark.django_db(transaction=True)
def test_a_task_goes_through_redis_to_a_real_worker_and_writes_postgres(
    make_player, celery_worker_thread
):
    owner, applicant = make_player("owner", email="owner@example.org"), make_player("applicant")
    club = services.club_create(owner=owner, name="Wiring Club", admission=Club.Admission.REQUEST)
    request = services.club_join(user=applicant, club=club, message="please")
    # club_join enqueued notify_join_request after its commit; only the worker can set this.
    assert wait_for(
        lambda: JoinRequest.objects.filter(
            pk=request.pk, admins_notified_at__isnull=False
        ).exists(),
        timeout=20.0,
    ), "the worker did not run the task"
    assert [m.to for m in mail.outbox] == [["owner@example.org"]]


@pytest.mark.django_db(transaction=True)
def test_a_duplicate_delivery_changes_nothing(make_player, celery_worker_thread):
    from clubs.tasks import notify_join_request

    owner, applicant = make_player("owner"), make_player("applicant")
    club = services.club_create(owner=owner, name="Twice Club", admission=Club.Admission.REQUEST)
    request = services.club_join(user=applicant, club=club)
    assert wait_for(
        lambda: JoinRequest.objects.get(pk=request.pk).admins_notified_at is not None, timeout=20.0
    )
    first = JoinRequest.objects.get(pk=request.pk).admins_notified_at
    notify_join_request.delay(request.pk)
    notify_join_request.delay(request.pk)
    time.sleep(1.0)
    assert JoinRequest.objects.get(pk=request.pk).admins_notified_at == first
    assert len(mail.outbox) == 1


def test_redis_channel_layer_delivers_across_connections():
    from channels.layers import get_channel_layer

    async def roundtrip():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("wiring-test", channel)
        await layer.group_send("wiring-test", {"type": "game.event", "ply": 7})
        message = await layer.receive(channel)
        await layer.group_discard("wiring-test", channel)
        return message

    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    # A fresh thread and loop: the test runner's own thread may host another event loop.
    with ThreadPoolExecutor(max_workers=1) as pool:
        message = pool.submit(asyncio.run, roundtrip()).result(timeout=10)
    assert message == {"type": "game.event", "ply": 7}


def test_the_worker_health_check_pings_the_worker(celery_worker_thread):
    from django.core.management import CommandError, call_command

    call_command("health", "worker", "--name", celery_worker_thread.hostname)
    with pytest.raises(CommandError, match="did not answer a ping"):
        call_command("health", "worker", "--name", "celery@nobody-here")
