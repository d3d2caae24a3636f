"""A player's own archive: games imported from published records (``archive.services``).

An imported game is not a server :class:`games.models.Game`: its players are names from the
record, not accounts, and it is private to the player who imported it. It is unrated by nature:
nothing in ``ratings`` reads it. The canonical record (``record``, written by the engine from
what was read) is what the replay and the download use; the other fields are kept for lists.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

#: Room kept for one header shown in a list; the full value stays in ``headers``.
NAME_LENGTH = 200


class ImportedGame(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_games"
    )
    black_name = models.CharField(max_length=NAME_LENGTH)
    white_name = models.CharField(max_length=NAME_LENGTH)
    event = models.CharField(max_length=NAME_LENGTH, blank=True)
    date = models.CharField(max_length=NAME_LENGTH, blank=True, help_text="as the record has it")
    start = models.CharField(
        max_length=16, help_text="standard, belgian, german, placement, or custom"
    )
    start_position = models.CharField(max_length=200, help_text="position string")
    marbles_to_win = models.PositiveSmallIntegerField(default=6)
    notations = models.JSONField(default=list, help_text="the moves in ply order")
    plies = models.PositiveIntegerField(default=0)
    position = models.CharField(max_length=200, help_text="the position the record reaches")
    result = models.CharField(max_length=8, blank=True, help_text="blank: not finished (*)")
    termination = models.CharField(max_length=20, blank=True)
    headers = models.JSONField(
        default=list, help_text="[[tag, value], ...] in the record's order, missing ones filled"
    )
    filled_headers = models.JSONField(
        default=list, help_text="the required tags the text did not give"
    )
    record = models.TextField(help_text="the record as the engine writes it")
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["owner", "-created_at"], name="imported_owner_newest")]

    def __str__(self) -> str:
        return f"{self.black_name} – {self.white_name} (#{self.pk}, {self.owner})"

    def get_absolute_url(self) -> str:
        return reverse("archive-imported-replay", args=[self.pk])
