"""The Celery application: Redis is the broker in production (``REDIS_URL``).

Tasks are thin: they fetch by id and call a service, and every one is idempotent, because the
Redis transport can deliver a message twice. Enqueue through ``core.jobs.enqueue`` so the
message leaves after the transaction commits, and so the embedded default runs it in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "abalone_site.settings")

app = Celery("abalone_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
