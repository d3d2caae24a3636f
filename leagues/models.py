"""A league over a season (issue 27): a club organises it, its divisions are team round-robins
(single or double, Berger tables) whose match days fall on fixed dates, each match at the home
team's club; promotion and relegation marks on the tables."""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse


class League(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    season = models.CharField(max_length=20, help_text="e.g. 2026-27")
    slug = models.SlugField(max_length=120, unique=True)
    description = models.TextField(max_length=2000, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name", "season"], name="one_league_name_per_club_season"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    def get_absolute_url(self) -> str:
        return reverse("league-detail", args=[self.slug])


class Division(models.Model):
    """One division of a league: a team round-robin (its ``tournament``) whose rounds are match
    days ``days_between`` apart from ``first_day`` at ``match_time``; the first ``promote``
    teams go up (none from the top level) and the last ``relegate`` go down."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)
    level = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(9)]
    )
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="division"
    )
    promote = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(4)])
    relegate = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(4)])
    first_day = models.DateField()
    match_time = models.TimeField(default=time(20, 0))
    days_between = models.PositiveSmallIntegerField(
        default=14, validators=[MinValueValidator(1), MaxValueValidator(60)]
    )

    class Meta:
        ordering = ["level", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="one_division_name_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("league-division", args=[self.league.slug, self.pk])
