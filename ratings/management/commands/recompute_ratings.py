"""Recompute every rating from the game history, with a progress bar."""

import sys
import time

from django.core.management.base import BaseCommand

from ratings.recompute import ratings_recompute


class Command(BaseCommand):
    help = "Replay every rated result in order and store the ratings; reports any difference."

    def handle(self, *args, **options):
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            width = 40
            filled = int(width * done / total) if total else width
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} results")
            sys.stderr.flush()

        report = ratings_recompute(progress=progress)
        sys.stderr.write("\n")
        elapsed = time.monotonic() - started
        self.stdout.write(
            f"{report.results} rated results for {report.players} players replayed in "
            f"{elapsed:.1f} s; {report.changes_written} rating changes written; "
            f"{report.changes_that_differed} differed from the stored ratings."
        )
