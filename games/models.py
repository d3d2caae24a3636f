from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.clock import ClockState, TimeControl, per_move_days

#: The starts a game may have: the rule books' Standard (the default of casual play), the two
#: tournament daisies, the placement variant (an empty board; the players place their marbles
#: one at a time first) and a custom position (a position string, games.options).
START_CHOICES = [
    ("standard", _("Standard")),
    ("belgian", _("Belgian Daisy")),
    ("german", _("German Daisy")),
    ("placement", _("Placement")),
    ("custom", _("Custom position")),
]


def time_control_label(tc: TimeControl) -> str:
    """A clock as the pages name it: "3+2", "no clock", or a correspondence clock's days a move
    in the reader's language."""
    days = tc.days_per_move
    if days:
        return ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days}
    if not tc.has_clock:
        return str(_("no clock"))
    return tc.label()


class Termination(models.TextChoices):
    """How a game ended, a two-player game's or a table's (``multiplayer``): one list, so that an
    end is named the same wherever it is shown. Each model's field allows the ends its games can
    have (:meth:`subset`)."""

    MARBLES = "marbles", _("Marbles pushed off")
    RESIGNATION = "resignation", _("Resignation")
    TIME = "time", _("Time")
    AGREEMENT = "agreement", _("Draw agreed")
    REPETITION = "repetition", _("Threefold repetition")
    MOVE_CAP = "move_cap", _("Move limit")
    ADJUDICATED = "adjudicated", _("Adjudicated at the round's deadline")
    NO_LEGAL_MOVES = "no_legal_moves", _("No legal move")
    ABANDONED = "abandoned", _("Abandoned before the first moves")
    FORFEIT = "forfeit", _("Forfeit")
    ABORTED = "aborted", _("Aborted")
    EXPIRED = "expired", _("Not enough players came")

    @classmethod
    def subset(cls, *ends: "Termination") -> list[tuple[str, str]]:
        """The choices of a field that allows these ends, in this order."""
        return [(end.value, end.label) for end in ends]


class TimeControlFields(models.Model):
    """Settings shared by a challenge and the game it becomes."""

    base_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="empty: no clock")
    increment_seconds = models.PositiveIntegerField(default=0)
    marbles_to_win = models.PositiveSmallIntegerField(default=6)
    start = models.CharField(max_length=16, default="standard", choices=START_CHOICES)
    rated = models.BooleanField(default=True)

    class Meta:
        abstract = True

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.base_seconds, self.increment_seconds)

    @property
    def days_per_move(self) -> int | None:
        """A correspondence clock's days a move (``games.clock``); None for a live clock."""
        return per_move_days(self.base_seconds)

    @property
    def time_control_label(self) -> str:
        """The clock as the pages name it, in the reader's language (the API and the live
        state keep ``time_control.label()``, the same in every language)."""
        return time_control_label(self.time_control)


class Challenge(TimeControlFields):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    class Colour(models.TextChoices):
        BLACK = "black", _("Black (moves first)")
        WHITE = "white", _("White")
        RANDOM = "random", _("Random")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    # Empty: an open seek any player may accept.
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    colour = models.CharField(max_length=6, choices=Colour.choices, default=Colour.RANDOM)
    # start "custom": the position string the game starts from (canonical); blank otherwise.
    start_position = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    game = models.OneToOneField(
        "Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    # A rematch: the finished game it replays, colours swapped (games.services.challenge_rematch).
    rematch_of = models.ForeignKey(
        "Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        target = self.opponent or "anyone"
        return f"{self.challenger} → {target} ({self.time_control_label}, {self.status})"


class Game(TimeControlFields):
    class Status(models.TextChoices):
        STARTED = "started", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    Termination = Termination

    black = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_as_black"
    )
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_as_white"
    )
    start_position = models.TextField(help_text="position string of the start")
    threefold_repetition = models.BooleanField(default=True)
    max_plies = models.PositiveIntegerField(default=400)
    max_plies_result = models.CharField(max_length=8, default="draw")
    first_move_seconds = models.PositiveIntegerField(default=60)
    # A first move not made in time loses by forfeit (a game of an event, whose board then
    # records a forfeit) instead of abandoning the game (rated) or aborting it (casual).
    forfeit_if_unplayed = models.BooleanField(default=False)
    # Chat on the game's page (games.services.chat); a tournament's directors may turn it off.
    chat_enabled = models.BooleanField(default=True)
    # The rating pool of a rated game: blank, the speed category of its clock; "bot", the bots'
    # own pool (a bot played it and settings.BOT_GAMES_RATED is on; docs/bots.md).
    rating_pool = models.CharField(max_length=8, blank=True)

    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.STARTED, db_index=True
    )
    position = models.TextField(help_text="current position string")
    # The version clients send back: the number of moves played.
    ply = models.PositiveIntegerField(default=0)
    # Clock, as of the start of the current turn (see games.clock).
    black_ms = models.BigIntegerField(default=0)
    white_ms = models.BigIntegerField(default=0)
    turn_started_at = models.DateTimeField()
    # When the side to move runs out; empty when no clock runs. Not indexed: every move changes
    # it, and an indexed column changed keeps PostgreSQL from updating the row in place
    # (migration 0003). The sweep finds the games in progress through ``status``.
    flag_deadline = models.DateTimeField(null=True, blank=True)
    draw_offer = models.CharField(max_length=1, blank=True, help_text="b or w: who offers")

    result = models.CharField(max_length=7, blank=True)
    termination = models.CharField(
        max_length=16,
        choices=Termination.subset(
            Termination.MARBLES,
            Termination.RESIGNATION,
            Termination.TIME,
            Termination.AGREEMENT,
            Termination.REPETITION,
            Termination.MOVE_CAP,
            Termination.NO_LEGAL_MOVES,
            Termination.ABANDONED,
            Termination.FORFEIT,
            Termination.ABORTED,
            Termination.ADJUDICATED,
        ),
        blank=True,
    )
    created_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(fields=["status", "-ended_at"], name="game_archive_idx"),
            models.Index(fields=["black", "-ended_at"], name="game_black_ended_idx"),
            models.Index(fields=["white", "-ended_at"], name="game_white_ended_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(black=models.F("white")), name="game_two_players"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.black} vs {self.white} ({self.result or self.status})"

    def get_absolute_url(self) -> str:
        return reverse("game-detail", kwargs={"game_id": self.pk})

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.STARTED

    @property
    def aborted_unplayed(self) -> bool:
        """Over before any move was played: Black's first move was not made in time (or the
        game was aborted). Whatever result it carries (a rated game's abandonment, a
        tournament board's forfeit), it is no win, draw or loss in a player's record and is
        shown as aborted, as lichess does. A game in which Black moved is not: White's missed
        first move is a result. ``games.selectors.ABORTED_UNPLAYED`` is the same test as a
        query filter (tests/games/test_aborted_record.py keeps the two in step).
        """
        return self.unplayed(self.ply, self.termination)

    @classmethod
    def unplayed(cls, ply: int, termination: str) -> bool:
        """:attr:`aborted_unplayed` of a game's ply and termination read as values."""
        return ply == 0 and termination in (
            cls.Termination.ABANDONED,
            cls.Termination.FORFEIT,
            cls.Termination.ABORTED,
        )

    def colour_of(self, user) -> str | None:
        if user.pk == self.black_id:
            return "b"
        if user.pk == self.white_id:
            return "w"
        return None

    @property
    def side_to_move(self) -> str:
        return self.position[0]

    @property
    def player_to_move_id(self) -> int:
        return self.black_id if self.side_to_move == "b" else self.white_id

    @property
    def clock(self) -> ClockState:
        return ClockState(
            black_ms=self.black_ms,
            white_ms=self.white_ms,
            increment_ms=self.increment_seconds * 1000,
            side_to_move=self.side_to_move,
            turn_started_at=self.turn_started_at,
            ply=self.ply,
            first_move_ms=self.first_move_seconds * 1000,
            running=self.flag_deadline is not None,
            per_move_ms=(self.base_seconds or 0) * 1000 if self.days_per_move else 0,
        )


class ComputerTurn(models.Model):
    """The computer's move asked for (``games.computer``): written before its task is sent, so
    a task lost with the broker, or with a worker killed while it thought, is sent again by the
    sweep. A worker takes the turn by writing ``claimed_until`` (its thinking time and a margin);
    another finds it taken until then. Deleted when the move is played."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    ply = models.PositiveIntegerField(help_text="the ply the computer is to play")
    sent_at = models.DateTimeField(help_text="when its task was last sent")
    claimed_until = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(
        max_length=100, blank=True, help_text="host:pid of the process thinking on it"
    )
    sends = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"the computer's turn in game {self.game_id} at ply {self.ply}"


class Move(models.Model):
    # No index of its own: the unique (game, ply) index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    ply = models.PositiveIntegerField()
    notation = models.CharField(max_length=6)
    played_at = models.DateTimeField()
    # The mover's main-clock time after the move (increment included), milliseconds.
    clock_ms = models.BigIntegerField()
    # How long the mover thought, milliseconds.
    spent_ms = models.BigIntegerField(default=0)
    position_after = models.TextField()
    pushed_off = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.ply} {self.notation}"


class ChatMessage(models.Model):
    """A line of a game's chat: the players' room (the two players only, kept with the game and
    shown to them in the replay) or the spectators' room."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    room = models.CharField(max_length=10, choices=Room.choices)
    text = models.CharField(max_length=300)
    created = models.DateTimeField()

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["game", "room", "created"], name="chat_by_game_room")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.room} {self.user_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """``user`` muted ``muted`` in ``game``'s players' room: ``muted`` may not write there."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "muted"], name="chat_mute_once")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.user_id} muted {self.muted_id}"


class Vacation(models.Model):
    """A player's correspondence vacation (``docs/correspondence.md``): from ``started_at`` to
    ``ends_at`` (planned when it begins, from what is left of the year's allowance; brought
    forward when the player ends it). Meanwhile the clocks of their correspondence games stop on
    their turn; ``resumed``: once over, those clocks were started again with what they had left
    (``games.services.vacation``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    resumed = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-ends_at"]),
            models.Index(
                fields=["ends_at"], condition=models.Q(resumed=False), name="vacations_to_resume"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.started_at:%Y-%m-%d %H:%M} to {self.ends_at:%Y-%m-%d %H:%M}"


class ConditionalMoves(models.Model):
    """A player's conditional moves in a correspondence game ("if he plays X, I play Y"):
    ``lines`` of moves (the opponent's and the answer, in turn; :mod:`games.conditional`) from
    the position after ``ply``, saved on the opponent's turn. When the opponent plays a move
    they foresaw, the answer is played at once (``games.services.moves.conditional_follow``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conditional_moves")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    lines = models.JSONField(default=list)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_conditional_set")
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}, player {self.player_id}: {len(self.lines)} lines"
