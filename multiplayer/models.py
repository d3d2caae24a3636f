"""Games of three or four players ("tables"): the rules are games.engine.multi and multi_game.

A table is created with one seat taken; open seats are filled by whoever joins; the game starts
when every seat is taken. Each seat keeps its own clock (``clock_ms`` as of the start of the
current turn): only the seat to move is charged, from ``turn_started_at``.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Termination


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        STARTED = "started", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Variant(models.TextChoices):
        THREE = "three", _("Three players")
        TEAMS = "teams", _("Four players in two teams")

    Termination = Termination

    #: The table's state as the change that returned it published it, built inside that
    #: change's transaction (multiplayer.events.table_changed): what the API answers with, so
    #: that no read after the commit can fail the answer. Set by the services; not a field.
    document: dict | None = None

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables_created"
    )
    players = models.PositiveSmallIntegerField(default=3)
    variant = models.CharField(max_length=8, choices=Variant.choices, default=Variant.THREE)
    placement = models.BooleanField(default=False)
    base_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="empty: no clock")
    increment_seconds = models.PositiveIntegerField(default=0)
    marbles_to_win = models.PositiveSmallIntegerField(default=6)
    rated = models.BooleanField(default=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    start_position = models.TextField()
    position = models.TextField()
    # The version clients send back: the number of plies played.
    ply = models.PositiveIntegerField(default=0)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the seat to move runs out; empty when no clock runs.
    flag_deadline = models.DateTimeField(null=True, blank=True)
    termination = models.CharField(
        max_length=16,
        choices=Termination.subset(
            Termination.MARBLES,
            Termination.RESIGNATION,
            Termination.TIME,
            Termination.NO_LEGAL_MOVES,
            Termination.MOVE_CAP,
            Termination.REPETITION,
            Termination.EXPIRED,
        ),
        blank=True,
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(help_text="an open table not full by then is aborted")
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"], name="table_status_idx")]

    def __str__(self) -> str:
        return f"table #{self.pk} ({self.players} players, {self.status})"

    def get_absolute_url(self) -> str:
        return reverse("table-detail", kwargs={"table_id": self.pk})

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.STARTED


class Seat(models.Model):
    """One player's place at a table: the colour (turn order), the clock, the final place."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(
        help_text="turn order: 0 Black, 1 White, 2 Red, 3 Green"
    )
    colour = models.CharField(max_length=1)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    clock_ms = models.BigIntegerField(default=0)
    pushed_off = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    out = models.BooleanField(default=False, help_text="resigned or ran out of time")
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_player",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.index} ({self.colour}): {self.user or 'open'}"


class TableMove(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    colour = models.CharField(max_length=1)
    notation = models.CharField(max_length=6)
    played_at = models.DateTimeField()
    clock_ms = models.BigIntegerField(help_text="the mover's clock after the move")
    spent_ms = models.BigIntegerField(default=0)
    position_after = models.TextField()
    pushed_off = models.CharField(max_length=1, blank=True, help_text="colour pushed off")

    class Meta:
        ordering = ["table", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["table", "ply"], name="one_table_move_per_ply")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}:{self.ply} {self.notation}"
