"""A team event's rows (``Tournament.is_team_event``): the teams entered, each round's matches
between two of them and the line-ups their captains submit. A match's boards are the round's
:class:`Board` rows whose ``team_match`` is the match (``slot``: the board's number in the
match); a board one team left empty is no game and keeps its forfeit in ``TeamMatch.forfeits``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Tournament
from tournaments.models.rounds import Round


class TeamEntry(models.Model):
    """A club's team in the event: ``number`` is its pairing number (by the team's rating when
    the event starts), ``name`` the team's name then."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="team_entries"
    )
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="entries")
    name = models.CharField(max_length=60)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    #: the average rating of the team's first boards when it entered, then when the event began
    rating = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "number", "-rating", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="one_entry_per_team"),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_team_pairing_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament}"


class TeamMatch(models.Model):
    """One match of a round: ``first`` has Black (the first mover) on board 1, the colours
    alternating by board; ``second`` None is the pairing-allocated bye. ``forfeits`` holds, per
    board, the result the line-ups decided (``+-``, ``-+``, ``--``) or ``""`` where two players
    met, from the board's Black's side; empty until the round starts."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveSmallIntegerField()
    first = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        TeamEntry, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    forfeits = models.JSONField(default=list, blank=True)
    #: a team cup's: the bracket slot (from 0; the match for third place is slot 1 of the
    #: final round) and, for a match still tied after every criterion, the lot's winner
    #: (``first``/``second``, :mod:`tournaments.pairing.team_cup`)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    lot = models.CharField(max_length=6, blank=True, default="")
    #: a team cup's match still level after board-by-board elimination, decided by an
    #: Armageddon game: the players its captains nominated from the line-ups
    #: (``{"first": user id, "second": user id}``); the game is the match's board N+1
    armageddon_players = models.JSONField(default=dict, blank=True)
    #: a league's match moved by its director from the round's match day to this time
    #: (:func:`leagues.services.fixture_postpone`); None: played on the round's day
    postponed_to = models.DateTimeField(null=True, blank=True)
    #: when its boards were made from the line-ups: the round's start, or a postponed match's
    #: own time (:func:`tournaments.services.rounds.team_match_begin`); None: line-ups open
    begun_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_team_match_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} match {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None


class TeamLineup(models.Model):
    """The players a team fields in a match, board 1 first (user ids, ``None`` for a board left
    empty); ``by_default`` when nobody submitted one before the round began and the roster's
    first players were fielded."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="lineups")
    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="lineups")
    players = models.JSONField(default=list)
    by_default = models.BooleanField(default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "entry"], name="one_lineup_per_team")
        ]

    def __str__(self) -> str:
        return f"{self.entry.name}'s line-up, {self.match}"


class TeamMatchReport(models.Model):
    """A captain's report of an over-the-board match's results (``tournaments.services
    .team_reports``): each board's result from its Black's side (``""`` for a board decided by
    the line-ups); the other team's captain confirms it (the results are entered) or disputes
    it (a director decides), as players report their own boards' results."""

    class State(models.TextChoices):
        REPORTED = "reported", _("Waiting for the other captain")
        CONFIRMED = "confirmed", _("Confirmed by the other captain")
        DISPUTED = "disputed", _("Disputed: a director decides")
        DECIDED = "decided", _("Decided by a director")

    match = models.OneToOneField(TeamMatch, on_delete=models.CASCADE, related_name="report")
    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="+")
    results = models.JSONField(default=list)
    state = models.CharField(max_length=10, choices=State.choices, default=State.REPORTED)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reported_at = models.DateTimeField()
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"{self.entry.name}'s report of {self.match}"
