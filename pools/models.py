from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class PoolSeek(models.Model):
    """A player waiting in a pool (one of the clock presets) to be paired, and what came of it.

    A player waits in at most one pool at a time. The seek is kept when it ends: paired (with
    the game it became), left, or expired after ``POOL_WAIT_SECONDS``; a tab that missed the
    socket's word of its game reads it here."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PAIRED = "paired", _("Paired")
        LEFT = "left", _("Left")
        EXPIRED = "expired", _("Expired")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_seeks"
    )
    pool = models.CharField(max_length=20, help_text="a clock preset (games.options.PRESETS)")
    rating = models.IntegerField(help_text="the player's rating in the pool's category on joining")
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    joined_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="waiting"),
                name="one_waiting_seek_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool} ({self.status})"
