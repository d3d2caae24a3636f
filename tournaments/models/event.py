"""The event: its settings, its arbiters, its entrants, their bye requests and forbidden pairs."""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from games.clock import TimeControl, per_move_days
from games.models import START_CHOICES, time_control_label
from tournaments.pairing import knockout

NOTE_LENGTH = 1000
#: The longest a correspondence event's round may last, in days.
ROUND_DAYS_MAX = 120

DEFAULT_TIEBREAKS = ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"]
#: A round-robin's: everybody meets everybody, so Buchholz says nothing (FIDE C.07 13).
ROUND_ROBIN_TIEBREAKS = ["sonneborn_berger", "direct_encounter", "wins"]


#: A team event's tie-breaks (codes of tournaments.tiebreaks.team.TEAM_TIEBREAKS): the other
#: score, direct encounter, the opponents' match points times the game points scored against
#: them, the board count.
DEFAULT_TEAM_TIEBREAKS = ["secondary_score", "direct_encounter", "esb_mg", "board_count"]


def default_tiebreaks(format: str) -> list[str]:
    """The tie-break order an event of ``format`` starts with."""
    if format.startswith("team_"):
        return list(DEFAULT_TEAM_TIEBREAKS)
    return list(DEFAULT_TIEBREAKS if format == "swiss" else ROUND_ROBIN_TIEBREAKS)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss (FIDE Dutch)")
        ROUND_ROBIN = "round_robin", _("Round-robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round-robin")
        KNOCKOUT = "knockout", _("Knockout cup")
        TEAM_SWISS = "team_swiss", _("Team Swiss (FIDE C.04.6)")
        TEAM_ROUND_ROBIN = "team_round_robin", _("Team round-robin")
        TEAM_DOUBLE_ROUND_ROBIN = "team_double_rr", _("Team double round-robin")
        TEAM_KNOCKOUT = "team_cup", _("Team knockout cup")

    class PlayMode(models.TextChoices):
        SERVER = "server", _("On the server")
        OTB = "otb", _("Over the board")

    class Entry(models.TextChoices):
        MEMBERS = "members", _("Club members only")
        OPEN = "open", _("Open to everyone")

    class RoundStart(models.TextChoices):
        AUTO = "auto", _("Automatically, a pause after the previous round")
        SCHEDULED = "scheduled", _("At scheduled times")
        MANUAL = "manual", _("When the director starts it")

    class PairingRules(models.TextChoices):
        # tournaments.pairing.dutch.RULESETS
        DUTCH_2026 = "dutch-2026", _("FIDE Dutch (C.04.3 in force from 1 February 2026)")
        DUTCH_UNTIL_2026 = (
            "dutch-until-2026",
            _("Dutch until 2026 (the 2017 text, for events begun under it)"),
        )

    class Acceleration(models.TextChoices):  # tournaments.pairing.acceleration
        NONE = "", _("None")
        BAKU = "baku", _("Baku acceleration (C.04.5.1): virtual points for the top half")

    class MatchScoring(models.TextChoices):  # tournaments.pairing.matches.SCORINGS
        GAME_POINTS = "game", _("Game points: a match won 1½-½ scores 1½")
        MATCH_POINTS = "match", _("Match points: 1 for a match won, ½ for a match drawn")

    class CupDecider(models.TextChoices):  # tournaments.pairing.knockout.DECIDERS
        ARMAGEDDON = "armageddon", _("An Armageddon game: a draw goes to its second mover")
        HIGHER_SEED = "higher_seed", _("The higher seed goes through")
        LOT = "lot", _("The director draws lots")

    class TiebreakRules(models.TextChoices):  # tournaments.tiebreaks.RULES
        FIDE_2026 = "fide-2026", _("FIDE C.07 as amended in March 2026")
        FIDE_2023 = "fide-2023", _("FIDE C.07, the 2023 text (for an event begun under it)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=110, unique=True)
    description = models.TextField(max_length=4000, blank=True)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    pairing_rules = models.CharField(
        max_length=20,
        choices=PairingRules.choices,
        default=PairingRules.DUTCH_2026,
        help_text="Swiss only: the text of the FIDE Dutch system the rounds are paired by",
    )
    # Swiss only: virtual points for the top group in the first half of the rounds, for pairing.
    acceleration = models.CharField(
        max_length=10, choices=Acceleration.choices, default=Acceleration.NONE, blank=True
    )
    # Swiss: the number of rounds; round-robin: set when the tournament starts.
    rounds = models.PositiveSmallIntegerField(default=5)
    # A double round-robin plays the last two rounds of its first cycle in reverse order, as
    # FIDE's Berger tables recommend (C.05, Annex 1), so that nobody has the same colour three
    # games running at the turn of the cycles. Events made before this keep the plain order.
    berger_swap = models.BooleanField(default=True)
    base_seconds = models.PositiveIntegerField(null=True, blank=True, default=600)
    increment_seconds = models.PositiveIntegerField(default=0)
    marbles_to_win = models.PositiveSmallIntegerField(default=6)
    # The start of the event's games: Belgian Daisy, the usual competitive start, unless the
    # directors choose another; "custom" plays from ``custom_position`` (a position string).
    start_position = models.CharField(max_length=16, default="belgian", choices=START_CHOICES)
    custom_position = models.CharField(
        max_length=200,
        blank=True,
        help_text="start_position custom only: the position string, e.g. b|a1,a2,a3|i7,i8,i9 "
        "(side to move, Black's cells, White's cells); checked when set (else 422)",
    )
    max_plies_result = models.CharField(
        max_length=8,
        default="draw",
        choices=[("draw", _("Draw")), ("marbles", _("Won by more marbles pushed off"))],
    )
    rated = models.BooleanField(default=True)
    # Match rounds (tournaments.pairing.matches): each pairing a match of this many games, the
    # colours alternating; 1 is a round of single games.
    match_games = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    match_scoring = models.CharField(
        max_length=5, choices=MatchScoring.choices, default=MatchScoring.GAME_POINTS
    )
    # Knockout cups (tournaments.pairing.knockout): a pairing tied after its ``match_games``
    # plays ``cup_rapid_matches`` tie-break matches of ``cup_rapid_games`` games, then up to
    # ``cup_sudden_death`` games, then the ``cup_decider``; tie-break games at the faster clock.
    cup_rapid_matches = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(4)]
    )
    cup_rapid_games = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    cup_sudden_death = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(10)]
    )
    cup_decider = models.CharField(
        max_length=12, choices=CupDecider.choices, default=CupDecider.ARMAGEDDON
    )
    cup_tiebreak_base_seconds = models.PositiveIntegerField(
        default=180, validators=[MinValueValidator(15), MaxValueValidator(86400)]
    )
    cup_tiebreak_increment_seconds = models.PositiveIntegerField(
        default=2, validators=[MaxValueValidator(600)]
    )
    cup_third_place = models.BooleanField(default=True)
    # Team events (tournaments.tiebreaks.team, tournaments.pairing.team_swiss): boards a match,
    # match points for a match won, drawn, lost, the score that ranks first, and the team
    # Swiss's colour model (C.04.6 art. 1.7: "A", "B" or "none").
    team_boards = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(1), MaxValueValidator(16)]
    )
    team_match_win = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    team_match_draw = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(10)]
    )
    team_match_loss = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(10)]
    )
    team_primary = models.CharField(
        max_length=5,
        default="match",
        choices=[("match", _("Match points")), ("game", _("Game points"))],
    )
    team_colour_model = models.CharField(
        max_length=4,
        default="A",
        choices=[
            ("A", _("Type A: colour preferences by the first boards' colours")),
            ("B", _("Type B: colour preferences kept strictly")),
            ("none", _("No colour preferences")),
        ],
    )
    play_mode = models.CharField(max_length=6, choices=PlayMode.choices, default=PlayMode.SERVER)
    entry = models.CharField(max_length=8, choices=Entry.choices, default=Entry.MEMBERS)
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    round_start = models.CharField(
        max_length=10, choices=RoundStart.choices, default=RoundStart.MANUAL
    )
    round_pause_seconds = models.PositiveIntegerField(default=60)
    # A server game of the event is lost by forfeit when its first move is not made this long
    # after the game started, which is when its players were notified (notifications).
    first_move_seconds = models.PositiveIntegerField(
        default=180, validators=[MinValueValidator(10), MaxValueValidator(3600)]
    )
    # Correspondence events: the days a round may last from its start; its games still in play
    # then are adjudicated by ``max_plies_result`` (tournaments.services.rounds). Empty: none.
    round_days = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(ROUND_DAYS_MAX)]
    )
    # Chat on the pages of the event's server games (games.services.chat); the directors may
    # change it at any time, games in play included.
    chat_enabled = models.BooleanField(default=True)
    # Scheduled round starts: ISO date-times, one per round (round_start = scheduled).
    schedule = models.JSONField(default=list, blank=True)
    tiebreaks = models.JSONField(default=list)
    tiebreak_rules = models.CharField(
        max_length=10, choices=TiebreakRules.choices, default=TiebreakRules.FIDE_2026
    )
    # The rating the event's regulations give unrated players (rating 0) for the rating-based
    # tie-breaks (C.07 10); empty: those tie-breaks count for no one once a player is unrated.
    unrated_rating = models.PositiveIntegerField(null=True, blank=True)
    # Points for a pairing-allocated bye: 1, 0.5 or 0.
    bye_points = models.DecimalField(max_digits=2, decimal_places=1, default=1)
    # Half-point byes a player may ask for (Swiss): at most this many (empty: half the rounds,
    # rounded down), and none in the last ``bye_requests_closed_rounds`` rounds. An absence
    # announced (a zero-point bye) is never capped.
    bye_requests_max = models.PositiveSmallIntegerField(null=True, blank=True)
    bye_requests_closed_rounds = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    # A round being paired by a background job (large fields), since when, and why the last
    # attempt failed.
    pairing_requested_round = models.PositiveSmallIntegerField(null=True, blank=True)
    pairing_requested_at = models.DateTimeField(null=True, blank=True)
    pairing_error = models.CharField(max_length=500, blank=True)
    # Automatic round start: when the next round is to be paired and started (the pause after
    # the last game of a round). The periodic job moves the tournament on then; see
    # tournaments.services.tournaments_move_on.
    next_round_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Where and when, as the director announces them (TRF 022, 032, 042, 052); the round times
    # of ``schedule`` are entered and shown in ``time_zone`` (blank: the site's).
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=80, blank=True)
    country = CountryField(blank=True)
    time_zone = models.CharField(max_length=64, blank=True)
    # How prizes go to players on equal points: by the tie-breaks, or shared equally
    # (tournaments.prizes).
    prize_ties = models.CharField(
        max_length=8,
        default="tiebreak",
        choices=[("tiebreak", _("decided by the tie-breaks")), ("split", _("shared equally"))],
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament-detail", kwargs={"slug": self.slug})

    @property
    def has_matches(self) -> bool:
        """Whether each pairing plays a match of several games (a cup's pairing always may:
        its tie-break games)."""
        return self.match_games > 1 or self.is_knockout

    @property
    def is_round_robin(self) -> bool:
        return self.format in (self.Format.ROUND_ROBIN, self.Format.DOUBLE_ROUND_ROBIN)

    @property
    def is_knockout(self) -> bool:
        return self.format == self.Format.KNOCKOUT

    @property
    def is_team_event(self) -> bool:
        return self.format in TEAM_FORMATS

    @property
    def is_team_cup(self) -> bool:
        return self.format == self.Format.TEAM_KNOCKOUT

    @property
    def has_bracket(self) -> bool:
        """A knockout cup, individual or team."""
        return self.is_knockout or self.is_team_cup

    @property
    def is_team_round_robin(self) -> bool:
        return self.format in (self.Format.TEAM_ROUND_ROBIN, self.Format.TEAM_DOUBLE_ROUND_ROBIN)

    @property
    def field_fixed_at_start(self) -> bool:
        """A round-robin or a cup: no late entries and no byes once it has begun."""
        return self.format != self.Format.SWISS

    @property
    def cup_rule(self) -> knockout.TieBreakRule:
        return knockout.TieBreakRule(
            games=self.match_games,
            rapid_matches=self.cup_rapid_matches,
            rapid_games=self.cup_rapid_games,
            sudden_death=self.cup_sudden_death,
            decider=self.cup_decider,
        )

    @property
    def zone(self) -> ZoneInfo:
        """The event's time zone (its round times are entered and shown in it)."""
        try:
            return ZoneInfo(self.time_zone or settings.TIME_ZONE)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo(settings.TIME_ZONE)

    def round_time(self, number: int) -> datetime | None:
        """When round ``number`` starts by the schedule (a time kept without an offset is read
        in the event's time zone), else ``None``."""
        times = self.schedule or []
        when = times[number - 1] if 1 <= number <= min(len(times), self.rounds) else ""
        if not when:
            return None
        try:
            moment = datetime.fromisoformat(when)
        except (TypeError, ValueError):
            return None
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=self.zone)

    @property
    def bye_requests_allowed(self) -> int:
        """How many byes a player may ask for."""
        if self.bye_requests_max is not None:
            return self.bye_requests_max
        return self.rounds // 2

    @property
    def days_per_move(self) -> int | None:
        """A correspondence event's days a move (``games.clock``); None for a live clock."""
        return per_move_days(self.base_seconds)

    @property
    def time_control_label(self) -> str:
        """As the games write it: ``5+0`` (minutes + seconds)."""
        return time_control_label(
            TimeControl(self.base_seconds or None, self.increment_seconds or 0)
        )


#: The formats whose entries are teams.
TEAM_FORMATS = frozenset(
    {
        Tournament.Format.TEAM_SWISS,
        Tournament.Format.TEAM_ROUND_ROBIN,
        Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN,
        Tournament.Format.TEAM_KNOCKOUT,
    }
)


class Arbiter(models.Model):
    """An arbiter of one event: they pair, enter and correct results, not change the club. The
    chief arbiter (at most one) heads the TRF's ``102`` line, deputies its ``112`` lines."""

    class Role(models.TextChoices):
        CHIEF = "chief", _("Chief arbiter")
        DEPUTY = "deputy", _("Deputy arbiter")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="arbiters")
    role = models.CharField(max_length=6, choices=Role.choices, default=Role.DEPUTY)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arbiter_of"
    )
    appointed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    appointed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_arbiter_role"),
            models.UniqueConstraint(
                fields=["tournament"], condition=models.Q(role="chief"), name="one_chief_arbiter"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} arbiter of {self.tournament}"


class Entrant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    rating = models.PositiveIntegerField(default=1500, help_text="rating when the event began")
    pairing_number = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # First round the player is paired in (late entry); earlier rounds get `late_bye`.
    first_round = models.PositiveSmallIntegerField(default=1)
    late_bye = models.CharField(
        max_length=1, default="Z", choices=[("Z", _("Zero-point bye")), ("H", _("Half-point bye"))]
    )
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    # Who they are on the entry list (TRF 001: title, federation, birth date, sex), entered by
    # the director or copied from the profile; ``represents`` is the club they play for.
    title = models.CharField(max_length=3, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    sex = models.CharField(max_length=1, blank=True, choices=[("m", _("Man")), ("w", _("Woman"))])
    represents = models.CharField(max_length=80, blank=True)
    # The name the entry list gave, shown for an account without a display name.
    listed_name = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["tournament", "pairing_number", "-rating", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
            models.UniqueConstraint(
                fields=["tournament", "pairing_number"], name="unique_pairing_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def name(self) -> str:
        """The name read on the event's pages: the display name, else the name the entry list
        gave, else the username."""
        return self.user.display_name or self.listed_name or self.user.username

    @property
    def label(self) -> str:
        """The name with the title before it (``GM Ann Smith``)."""
        return f"{self.title} {self.name}" if self.title else self.name


class ByeRequest(models.Model):
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="bye_requests")
    round_number = models.PositiveSmallIntegerField()
    kind = models.CharField(
        max_length=1,
        default="H",
        choices=[
            ("H", _("Half-point bye")),
            ("Z", _("Zero-point bye")),
            ("F", _("Full-point bye")),
        ],
        help_text="H or Z: asked for by the player; F (or any): granted by a director",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "round_number"], name="one_bye_request_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.entrant} bye {self.kind} in round {self.round_number}"


class ForbiddenPair(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=100, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="one_forbidden_pair"
            )
        ]

    def __str__(self) -> str:
        return f"{self.first} never against {self.second}"
