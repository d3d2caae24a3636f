"""An analysis asked for by a player: a position searched for a few seconds, or a finished game
evaluated after each move. The worker writes its progress here; the page reads it."""

from django.conf import settings
from django.db import models


class Analysis(models.Model):
    class Kind(models.TextChoices):
        POSITION = "position", "Position"
        GAME = "game", "Game"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="analyses"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    position = models.TextField(blank=True)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="analyses"
    )
    seconds = models.FloatField(default=3.0)
    marbles_to_win = models.PositiveSmallIntegerField(default=6)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # lines (depth, score, pv, nodes), best, evaluations, drops, as the API shows them
    result = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)
    # When its task was last sent to a worker (a sweep sends it again when that was long ago
    # and no worker took it: the message was lost).
    sent_at = models.DateTimeField(null=True, blank=True)
    # Runs begun: a worker's claim is its attempt number, and only that run may write; when
    # its worker stops beating (heartbeat_at: the claim, then each depth or ten plies) the
    # sweep sends it again, up to services.MAX_ATTEMPTS.
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The process running it (``host:pid``, core.workers): a worker that starts on that host
    # sends again at once the analyses of its host's gone processes.
    claimed_by = models.CharField(max_length=120, blank=True, default="")

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["requested_by", "-created"], name="analysis_by_user"),
            models.Index(fields=["status"], name="analysis_by_status"),
        ]

    def __str__(self) -> str:
        return f"analysis {self.pk} ({self.kind}, {self.status})"
