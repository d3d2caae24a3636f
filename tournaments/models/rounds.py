"""A round's pairings: the round, its boards and, in match rounds, each board's games."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.errors import engine_text
from core.messages import Text
from tournaments.models.event import NOTE_LENGTH, Entrant, Tournament
from tournaments.pairing import matches


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired")
        STARTED = "started", _("In play")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    scheduled_at = models.DateTimeField(null=True, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When a round started with the event's ``round_days`` closes: its games still in play are
    # adjudicated then (tournaments.services.rounds.rounds_close_overdue).
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Board(models.Model):
    """One line of a round: a pairing (black moves first), or a player's bye or absence."""

    class Result(models.TextChoices):
        NONE = "", _("Not played yet")
        BLACK_WINS = "1-0", "1-0"
        WHITE_WINS = "0-1", "0-1"
        DRAW = "1/2-1/2", "½-½"
        BLACK_FORFEIT_WIN = "+-", _("+/- (White forfeits)")
        WHITE_FORFEIT_WIN = "-+", _("-/+ (Black forfeits)")
        DOUBLE_FORFEIT = "--", _("-/- (both forfeit)")

    class Bye(models.TextChoices):
        NONE = "", _("Not a bye")
        PAIRING = "U", _("Pairing-allocated bye")
        HALF = "H", _("Half-point bye")
        ZERO = "Z", _("Zero-point bye / absent")
        FULL = "F", _("Full-point bye")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    black = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    white = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    bye = models.CharField(max_length=1, choices=Bye.choices, blank=True)
    result = models.CharField(max_length=7, choices=Result.choices, blank=True)
    # Marbles pushed off by each side, when known.
    black_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    white_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    #: a cup's place in its round's bracket, from 0 at the top (in the final round, 1 is the
    #: match for third place)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=16, blank=True)
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_board",
    )
    #: a team event's board: the match it belongs to (``slot``: its board number there)
    team_match = models.ForeignKey(
        "tournaments.TeamMatch",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="boards",
    )
    note = models.TextField(max_length=NOTE_LENGTH, blank=True, help_text="why this pairing")
    # The same note as texts to translate (core.messages.Text.to_data), shown in each
    # reader's language; empty for a note written before notes were kept so (shown as it is).
    note_data = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_board_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.white_id is None

    @staticmethod
    def note_fields(*texts: Text) -> dict:
        """The fields of a note saying why this pairing, as English templates (``note`` keeps
        their English, for exports; ``note_data`` the templates, shown translated)."""
        return {
            "note": " / ".join(str(text) for text in texts)[:NOTE_LENGTH],
            "note_data": [text.to_data() for text in texts],
        }

    def set_note(self, *texts: Text) -> None:
        for name, value in self.note_fields(*texts).items():
            setattr(self, name, value)

    @property
    def shown_note(self) -> str:
        """The note in the active language."""
        try:
            texts = [Text.from_data(data) for data in self.note_data or ()]
        except ValueError:
            texts = []
        if not texts:
            return self.note
        return " / ".join(engine_text(text) for text in texts)


class MatchGame(models.Model):
    """One game of a board's match in a match round (``tournaments.pairing.matches``): game
    ``number`` is played with the board's colours when odd and with them swapped when even;
    ``result``, the marbles and the termination are the game's own, from its first mover's
    side (``1-0``: the game's first mover won). The board's result is the match's."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="match_games")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="match_game",
    )
    result = models.CharField(max_length=7, choices=Board.Result.choices, blank=True)
    first_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    second_marbles = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=16, blank=True)
    #: when a director first entered the result of a game played over the board
    entered_at = models.DateTimeField(null=True, blank=True)
    #: a cup's game: of the match, or a tie-break game (``tournaments.pairing.knockout``)
    kind = models.CharField(max_length=12, default="match")

    class Meta:
        ordering = ["board", "number"]
        constraints = [
            models.UniqueConstraint(fields=["board", "number"], name="one_match_game_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.board}, game {self.number}"

    @property
    def swapped(self) -> bool:
        """Whether the board's White moves first in this game."""
        return matches.swapped(self.number)
