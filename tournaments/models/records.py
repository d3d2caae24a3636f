"""What the event keeps besides its pairings: prizes, players' result reports, result changes
and the directors' audit trail."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import prizes
from tournaments.models.event import Tournament
from tournaments.models.rounds import Board


class Prize(models.Model):
    """A prize of the event, in the director's order of priority (``position``): an overall
    place or a category's (``tournaments.prizes`` gives them out)."""

    class Kind(models.TextChoices):  # the categories of the pure engine, named
        OVERALL = prizes.OVERALL, _("Overall place")
        RATING_BELOW = prizes.RATING_BELOW, _("Best rated under")
        AGE_UNDER = prizes.AGE_UNDER, _("Best younger than")
        AGE_OVER = prizes.AGE_OVER, _("Best aged at least")
        WOMEN = prizes.WOMEN, _("Best woman")
        CLUB = prizes.CLUB, _("Best of a club")
        UNRATED = prizes.UNRATED, _("Best unrated")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.OVERALL)
    threshold = models.PositiveSmallIntegerField(null=True, blank=True)
    club = models.CharField(max_length=80, blank=True)
    amount = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    label = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "position"], name="one_prize_a_position")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.position} of {self.tournament}"


class ResultReport(models.Model):
    """A player's report of an over-the-board result (``tournaments.services.reports``): the
    opponent confirms it (the result is entered) or disputes it (an arbiter decides); an arbiter
    may enter the result at any time, which closes the report."""

    class State(models.TextChoices):
        REPORTED = "reported", _("Waiting for the opponent")
        CONFIRMED = "confirmed", _("Confirmed by the opponent")
        DISPUTED = "disputed", _("Disputed: the arbiter decides")
        DECIDED = "decided", _("Decided by an arbiter")

    board = models.OneToOneField("Board", on_delete=models.CASCADE, related_name="report")
    result = models.CharField(max_length=7)
    black_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    white_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reported_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.REPORTED)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.result} reported for {self.board}"

    @property
    def open(self) -> bool:
        return self.state in (self.State.REPORTED, self.State.DISPUTED)


class ResultChange(models.Model):
    """The audit trail: every result entered or corrected by a director."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="changes")
    #: the game of the board's match (over the board) whose result changed; None: the board's
    game = models.PositiveSmallIntegerField(null=True, blank=True)
    old_result = models.CharField(max_length=7, blank=True)
    new_result = models.CharField(max_length=7, blank=True)
    old_marbles = models.CharField(max_length=7, blank=True)
    new_marbles = models.CharField(max_length=7, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    changed_at = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-changed_at"]

    def __str__(self) -> str:
        return f"{self.board}: {self.old_result or '—'} → {self.new_result} by {self.changed_by}"


class AuditEntry(models.Model):
    """The audit trail of what directors did beyond results (those are :class:`ResultChange`):
    an entry that overrode the event's rules, a granted bye, a board edit, a withdrawal."""

    class What(models.TextChoices):
        ENTRY_OVERRIDE = "entry_override", _("Entry against the event's rules")
        BYE_GRANTED = "bye_granted", _("Bye granted")
        BOARD_EDITED = "board_edited", _("Board edited")
        WITHDRAWN = "withdrawn", _("Player withdrawn by a director")
        ROUND_UNPAIRED = "round_unpaired", _("Round unpaired")
        GUEST_CLAIMED = "guest_claimed", _("Guest player claimed by an account")
        RESULT_REPORTED = "result_reported", _("Result reported by a player")
        RESULT_CONFIRMED = "result_confirmed", _("Result confirmed by the opponent")
        RESULT_DISPUTED = "result_disputed", _("Result disputed")
        LOTS_DRAWN = "lots_drawn", _("Lots drawn for a cup's pairing")
        ARMAGEDDON_NAMED = "armageddon", _("A team cup's Armageddon player nominated")
        LINEUP_CORRECTED = "lineup_corrected", _("Line-up corrected by a director")
        MATCH_POSTPONED = "match_postponed", _("Team match postponed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField()
    what = models.CharField(max_length=20, choices=What.choices)
    detail = models.CharField(max_length=500)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_what_display()} by {self.actor}"

    @staticmethod
    def board_edit_prefix(round_number: int) -> str:
        """How a board edit's detail begins (written by ``services.boards``, looked for by
        ``selectors.round_hand_edited``)."""
        return f"Round {round_number}, board "
