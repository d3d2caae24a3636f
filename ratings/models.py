from django.conf import settings
from django.db import models


class PlayerRating(models.Model):
    """A player's current rating in one speed category."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    category = models.CharField(max_length=16)
    rating = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    reached_2400 = models.BooleanField(default=False)
    peak = models.IntegerField()
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "category"], name="one_rating_per_category")
        ]
        indexes = [models.Index(fields=["category", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.category} {self.rating}"

    @property
    def provisional(self) -> bool:
        return self.provisional_after(self.games)

    @staticmethod
    def provisional_after(games: int) -> bool:
        """:attr:`provisional` of a rating read as values: fewer rated games than Elo's
        provisional period."""
        from ratings.elo import PROVISIONAL_GAMES

        return games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """One player's rating change from one rated game (a server game, an over-the-board board
    or an over-the-board game of a match); exactly one per player and game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="rating_changes"
    )
    board = models.ForeignKey(
        "tournaments.Board",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_changes",
    )
    #: a game of a match played over the board (``tournaments.MatchGame`` without a server game)
    match_game = models.ForeignKey(
        "tournaments.MatchGame",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_changes",
    )
    category = models.CharField(max_length=16)
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    opponent_rating = models.IntegerField()
    score = models.DecimalField(max_digits=2, decimal_places=1)
    played_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["played_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"],
                name="one_change_per_game",
                condition=models.Q(game__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["user", "board"],
                name="one_change_per_board",
                condition=models.Q(board__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["user", "match_game"],
                name="one_change_per_match_game",
                condition=models.Q(match_game__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.category} {self.rating_before}→{self.rating_after}"

    @property
    def delta(self) -> int:
        return self.rating_after - self.rating_before


class RecomputeRequest(models.Model):
    """The ratings must be replayed from ``since``: a director corrected a rated result.

    The replay runs in a background job (``ratings.tasks.recompute_requested``), never inside the
    web request; until it has run, ``done_at`` is empty and the pages say that ratings are
    being updated.
    """

    since = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    requested_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        state = "done" if self.done_at else "pending"
        return f"recompute from {self.since:%Y-%m-%d %H:%M} ({state})"


class TableRatingChange(models.Model):
    """One player's rating change from one rated table of three or four players (category
    ``multi``, pairwise Elo from the ranking), exactly once per player and table. Written by
    ``ratings.services.rating_apply_table``; the table says the result, ratings keep the rows.

    The rows were the multiplayer app's before ratings wrote them all: the table keeps its name."""

    table = models.ForeignKey(
        "multiplayer.Table", on_delete=models.CASCADE, related_name="rating_changes"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    played_at = models.DateTimeField()

    class Meta:
        db_table = "multiplayer_tableratingchange"
        ordering = ["played_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_change_per_table")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} {self.user_id} {self.rating_before}→{self.rating_after}"
