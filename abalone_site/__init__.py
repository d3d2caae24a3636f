"""Site wiring for Sumito: settings, URLs, ASGI application and the Celery app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
