"""A club's teams: "Ghent 1", "Ghent 2", each with a captain and a roster in board order.

The roster is the team's board order (``TeamMember.board``, 1 the first board), by rating
unless the captain set it, its reserves after the regulars. A player is on at most one team of
a club (the club's guest players included: the entries of a real event). The team events, the
leagues and the team cups that field these teams read the roster through
:mod:`teams.selectors`."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from ratings.elo import CATEGORIES

CATEGORY_CHOICES = [(category, category) for category in CATEGORIES]


class Team(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=80, unique=True)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captained_teams",
    )
    #: the rating category the roster is ordered by (when not set by hand)
    category = models.CharField(max_length=16, choices=CATEGORY_CHOICES, default="rapid")
    #: True once the captain (or a club admin) set the board order by hand
    order_set_by_hand = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club__name", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="one_team_name_per_club")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("team-detail", kwargs={"slug": self.slug})


class TeamMember(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_memberships"
    )
    #: the player's place in the team's board order (1: the first board)
    board = models.PositiveSmallIntegerField()
    reserve = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    #: the club the team belongs to, kept here so that a player is on one team per club
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["team", "board"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_team_per_club_player"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.board}. {self.user}"

    @property
    def label(self) -> str:
        return self.user.shown_name
