"""Serve the site in one process: the ASGI app under uvicorn (with its deadline watcher), plus
(in the embedded default) the in-process runner of background and periodic jobs."""

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand

from core.jobs import runner


class Command(BaseCommand):
    help = "Serve the site (ASGI) and, in the embedded default, run background jobs in-process."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--reload", action="store_true", help="reload on code changes")

    def handle(self, *args, host, port, reload, **options):
        if settings.BACKGROUND_JOBS_IN_PROCESS:
            runner().start()
            self.stdout.write("Background jobs and periodic sweeps run in this process.")
        else:
            self.stdout.write(
                "Background jobs go to Celery at REDIS_URL: run workers and one beat."
            )
        self.stdout.write(f"Serving Sumito on http://{host}:{port}/")
        uvicorn.run(
            "abalone_site.asgi:application",
            host=host,
            port=port,
            reload=reload,
            lifespan="on",
            ws="websockets-sansio",  # deflate bounded per socket (docs/deploy.md)
            log_level="info",
        )
