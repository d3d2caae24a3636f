from datetime import datetime
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from core.errors import ServiceError
from games.clock import TimeControl
from games.option_fields import (
    base_minutes_field,
    correspondence_days_field,
    increment_seconds_field,
    marbles_to_win_field,
    start_field,
    start_position_field,
)
from games.options import CUSTOM, custom_start
from tournaments.models import Board, Tournament, default_tiebreaks
from tournaments.models.event import ROUND_DAYS_MAX
from tournaments.pairing.matches import MAX_GAMES
from tournaments.services.setup import (
    CUP_RANGES,
    FIXED_ONCE_STARTED,
    MAX_RATING,
    TEAM_RANGES,
    field_range,
)
from tournaments.tiebreak_texts import TEAM_TIEBREAK_CHOICES, TIEBREAK_CHOICES

#: How many tie-breaks the form lets a director order.
TIEBREAK_SLOTS = 6
TIEBREAK_HELP = _(
    "In this order, each once. None chosen: the system's own (Swiss: Buchholz cut 1, Buchholz, "
    "Sonneborn-Berger, direct encounter, wins; round-robin: Sonneborn-Berger, direct encounter, "
    "wins)."
)


#: A cup's and a team event's settings left empty: the model's defaults.
CUP_DEFAULTS = {
    name: Tournament._meta.get_field(name).default
    for name in (
        *(name for name, _low, _high in CUP_RANGES + TEAM_RANGES),
        "cup_decider",
        "team_primary",
        "team_colour_model",
    )
}


def _number_field(name: str, label, help_text="") -> forms.IntegerField:
    """A cup's or a team event's number setting, with the model's range and default."""
    low, high = field_range(name)
    return forms.IntegerField(
        min_value=low,
        max_value=high,
        initial=CUP_DEFAULTS[name],
        required=False,
        label=label,
        help_text=help_text,
    )


#: The field a service's refusal is about, by its code (:meth:`TournamentForm.refused`).
FIELD_OF_REFUSAL = {"team_round_start": "round_start"}


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=4000,
        label=_("Description"),
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices, label=_("Format"))
    pairing_rules = forms.ChoiceField(
        choices=Tournament.PairingRules.choices,
        initial=Tournament.PairingRules.DUTCH_2026,
        required=False,
        label=_("Swiss pairing rules"),
        help_text=_(
            "The text in force since 1 February 2026, or the earlier one for an event "
            "that began under it"
        ),
    )
    acceleration = forms.ChoiceField(
        choices=Tournament.Acceleration.choices,
        required=False,
        label=_("Acceleration"),
        help_text=_(
            "Swiss by the 2026 rules: the top half of the field (rounded up to an even number) "
            "is paired with 1 virtual point in the first quarter of the rounds and ½ in the "
            "second, so that strong players meet sooner; for pairing only, never in the "
            "standings"
        ),
    )
    match_games = forms.IntegerField(
        min_value=1,
        max_value=MAX_GAMES,
        initial=1,
        required=False,
        label=_("Games per pairing"),
        help_text=_(
            "1: single games; 2 or more: each pairing plays a match, the colours alternating "
            "(on the server; the first game's colours count for the colour history)"
        ),
    )
    match_scoring = forms.ChoiceField(
        choices=Tournament.MatchScoring.choices,
        initial=Tournament.MatchScoring.GAME_POINTS,
        required=False,
        label=_("A match scores"),
    )
    cup_rapid_matches = _number_field(
        "cup_rapid_matches",
        _("Cup: tie-break matches"),
        _("knockout cup: a pairing still tied plays this many short matches first"),
    )
    cup_rapid_games = _number_field("cup_rapid_games", _("Cup: games per tie-break match"))
    cup_sudden_death = _number_field(
        "cup_sudden_death",
        _("Cup: sudden-death games"),
        _("then up to this many single games: the first one won decides"),
    )
    cup_decider = forms.ChoiceField(
        choices=Tournament.CupDecider.choices,
        initial=CUP_DEFAULTS["cup_decider"],
        required=False,
        label=_("Cup: when still tied"),
    )
    cup_tiebreak_base_seconds = _number_field(
        "cup_tiebreak_base_seconds", _("Cup: tie-break clock (seconds each)")
    )
    cup_tiebreak_increment_seconds = _number_field(
        "cup_tiebreak_increment_seconds", _("Cup: tie-break increment (seconds)")
    )
    cup_third_place = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Cup: a match for third place"),
        help_text=_("the semi-finals' losers play it beside the final"),
    )
    team_boards = _number_field("team_boards", _("Team events: boards a match"))
    team_match_win = _number_field("team_match_win", _("Team events: match points for a win"))
    team_match_draw = _number_field("team_match_draw", _("Team events: match points for a draw"))
    team_match_loss = _number_field("team_match_loss", _("Team events: match points for a loss"))
    team_primary = forms.ChoiceField(
        choices=Tournament._meta.get_field("team_primary").choices,
        initial="match",
        required=False,
        label=_("Team events: teams ranked first by"),
    )
    team_colour_model = forms.ChoiceField(
        choices=Tournament._meta.get_field("team_colour_model").choices,
        initial="A",
        required=False,
        label=_("Team Swiss: colours"),
        help_text=_("FIDE C.04.6 art. 1.7"),
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=5,
        label=_("Rounds"),
        help_text=_("Swiss only; a round-robin has one round per opponent"),
    )
    base_minutes = base_minutes_field(initial=10, help_text=_("minutes each (on the server)"))
    increment_seconds = increment_seconds_field(initial=0)
    correspondence_days = correspondence_days_field(
        help_text=_(
            "days a move instead of the minutes above: a correspondence event, all games of a "
            "round at once"
        ),
    )
    round_days = forms.IntegerField(
        min_value=1,
        max_value=ROUND_DAYS_MAX,
        required=False,
        label=_("Round deadline (days)"),
        help_text=_(
            "correspondence: a round closes this many days after it starts; its games still in "
            "play are then decided as at the move limit. Empty: when its games end"
        ),
    )
    marbles_to_win = marbles_to_win_field(initial=6, help_text=_("6 standard, 4 blitz"))
    start_position = start_field(
        initial="belgian",
        help_text=_(
            "Belgian Daisy is the usual competitive start; placement: an empty board, each "
            "side places its marbles in turn first"
        ),
    )
    custom_position = start_position_field(start_field_id="id_start_position")
    max_plies_result = forms.ChoiceField(
        choices=[("draw", _("Draw")), ("marbles", _("Won by more marbles pushed off"))],
        label=_("At the move limit (400 plies)"),
        help_text=_("and for a correspondence round's games still in play at its deadline"),
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    play_mode = forms.ChoiceField(choices=Tournament.PlayMode.choices, label=_("Play mode"))
    entry = forms.ChoiceField(choices=Tournament.Entry.choices, label=_("Entry"))
    max_players = forms.IntegerField(min_value=2, required=False, label=_("Max players"))
    registration_closes_at = forms.DateTimeField(
        required=False,
        label=_("Registration closes at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    round_start = forms.ChoiceField(choices=Tournament.RoundStart.choices, label=_("Round start"))
    round_pause_seconds = forms.IntegerField(
        min_value=0,
        max_value=86400,
        initial=60,
        label=_("Round pause seconds"),
        help_text=_("automatic start: pause between rounds"),
    )
    first_move_seconds = forms.IntegerField(
        required=False,
        min_value=10,
        max_value=3600,
        initial=180,
        label=_("Time for the first move (seconds)"),
        help_text=_(
            "server games: a first move not made this long after the players were "
            "notified loses by forfeit"
        ),
    )
    chat_enabled = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Chat in the event's games"),
        help_text=_("off: no chat on the pages of this event's server games"),
    )
    bye_points = forms.ChoiceField(
        choices=[("1", "1"), ("0.5", "½"), ("0", "0")],
        label=_("Points for a pairing-allocated bye"),
    )
    bye_requests_max = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=30,
        label=_("Half-point byes a player may ask for"),
        help_text=_("Swiss; empty: half the rounds"),
    )
    bye_requests_closed_rounds = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=30,
        initial=0,
        label=_("No half-point byes in the last rounds"),
        help_text=_("how many of the last rounds allow none"),
    )
    tiebreak_rules = forms.ChoiceField(
        choices=Tournament.TiebreakRules.choices,
        initial=Tournament.TiebreakRules.FIDE_2026,
        required=False,
        label=_("Tie-break rules"),
        help_text=_(
            "The March 2026 text counts a player's own byes and forfeits at most at half the "
            "maximum or at the opponent's score"
        ),
    )
    unrated_rating = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_RATING,
        label=_("Rating of unrated players"),
        help_text=_(
            "for the rating tie-breaks (ARO, TPR, PTP, ...), if the event's rules give one; "
            "empty: those tie-breaks count for no one when a player is unrated"
        ),
    )
    prize_ties = forms.ChoiceField(
        choices=[
            ("tiebreak", _("decided by the tie-breaks")),
            ("split", _("shared equally")),
        ],
        initial="tiebreak",
        required=False,
        label=_("Prizes for players on equal points"),
    )
    starts_on = forms.DateField(
        required=False,
        label=_("First day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    ends_on = forms.DateField(
        required=False,
        label=_("Last day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    venue = forms.CharField(
        required=False,
        max_length=200,
        label=_("Venue"),
        help_text=_("the hall and its address, as players should find it"),
    )
    city = forms.CharField(required=False, max_length=80, label=_("City"))
    country = forms.ChoiceField(required=False, label=_("Country"))
    time_zone = forms.ChoiceField(
        required=False,
        label=_("Time zone"),
        help_text=_("round times are entered and shown in it"),
    )
    schedule = forms.CharField(
        required=False,
        strip=False,  # a leading blank line is round 1 without a time
        label=_("Round times"),
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "2026-12-05 10:00"}),
        help_text=_(
            "one line per round, from round 1: date and time (YYYY-MM-DD HH:MM) in the "
            "event's time zone; with rounds starting at scheduled times, each round starts then"
        ),
    )

    #: The form's fields for the settings fixed once the event has started (the service's,
    #: the base time in minutes here).
    FIXED_ONCE_STARTED = (
        *("base_minutes" if name == "base_seconds" else name for name in FIXED_ONCE_STARTED),
        "correspondence_days",
    )

    def __init__(self, *args, started: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.started = started
        self.fields["country"].choices = [("", "—"), *countries]
        self.fields["time_zone"].choices = [("", _("the site's (UTC)"))] + [
            (zone, zone) for zone in sorted(available_timezones()) if "/" in zone or zone == "UTC"
        ]
        if started:  # shown as they are, not sent, not changed
            for name in self.FIXED_ONCE_STARTED:
                field = self.fields[name]
                field.disabled = True
                field.help_text = _("fixed once the event has started")
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                choices=[("", "—")] + TIEBREAK_CHOICES + TEAM_TIEBREAK_CHOICES,
                required=False,
                label=_("Tie-break %(slot)s") % {"slot": slot},
                help_text=TIEBREAK_HELP if slot == 1 else "",
            )

    def clean_schedule(self) -> list[str]:
        """The round times, one a line, as ISO date-times without an offset (the service reads
        them in the event's time zone); a blank line is a round without a time."""
        times = []
        for number, line in enumerate((self.cleaned_data.get("schedule") or "").splitlines(), 1):
            line = " ".join(line.split())
            if not line:
                times.append("")
                continue
            try:
                times.append(datetime.fromisoformat(line).replace(tzinfo=None).isoformat())
            except ValueError:
                raise forms.ValidationError(
                    _("Line %(number)s, '%(line)s': write a date and time as 2026-12-05 10:00.")
                    % {"number": number, "line": line}
                ) from None
        while times and not times[-1]:
            times.pop()
        return times

    def clean(self):
        data = super().clean()
        order = [data.get(f"tiebreak_{slot}") for slot in range(1, TIEBREAK_SLOTS + 1)]
        order = [code for code in order if code]
        twice = sorted({code for code in order if order.count(code) > 1})
        if twice:
            names = dict(TIEBREAK_CHOICES + TEAM_TIEBREAK_CHOICES)
            raise forms.ValidationError(
                _("%(names)s: each tie-break once in the order.")
                % {"names": ", ".join(str(names[code]) for code in twice)}
            )
        data["tiebreaks"] = order
        if data.get("start_position") == CUSTOM and data.get("marbles_to_win"):
            try:
                custom_start(
                    data.get("custom_position") or "", marbles_to_win=data["marbles_to_win"]
                )
            except ServiceError as error:
                self.add_error("custom_position", error.detail)
        return data

    def refused(self, error) -> None:
        """A service's refusal on the form: atop it, where it is seen, and beside its field
        too when it is about one (a long form: the field may be far below)."""
        self.add_error(None, error.detail)
        field = FIELD_OF_REFUSAL.get(getattr(error, "code", ""))
        if field in self.fields:
            self.add_error(field, error.detail)

    def settings(self) -> dict:
        """The service's settings: the tie-breaks in the order chosen (none chosen: the
        system's own, left to the service)."""
        data = {
            k: v
            for k, v in self.cleaned_data.items()
            if not (k.startswith("tiebreak_") and k.removeprefix("tiebreak_").isdigit())
        }
        for optional in ("pairing_rules", "tiebreak_rules", "first_move_seconds", "match_scoring"):
            if not data.get(optional):
                data.pop(optional, None)  # not sent: the default, or unchanged
        data["bye_requests_closed_rounds"] = data.get("bye_requests_closed_rounds") or 0
        data["match_games"] = data.get("match_games") or 1
        for name, default in CUP_DEFAULTS.items():
            if data.get(name) in (None, ""):
                data[name] = default
        data["prize_ties"] = data.get("prize_ties") or "tiebreak"
        if self.started:
            for name in self.FIXED_ONCE_STARTED:
                data.pop(name, None)
            if not data["tiebreaks"]:
                data["tiebreaks"] = default_tiebreaks(self.initial.get("format", "swiss"))
            return data
        days = data.pop("correspondence_days", None)
        data["base_seconds"] = round(data.pop("base_minutes") * 60)
        if days:  # a correspondence clock: days a move, no increment
            data["base_seconds"] = TimeControl.correspondence(days).base_seconds
            data["increment_seconds"] = 0
        if data.get("start_position") != CUSTOM:
            data["custom_position"] = ""  # the text left in the box is not this start's
        if not data["tiebreaks"]:
            data["tiebreaks"] = default_tiebreaks(data["format"])
        return data

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict:
        fields = {
            name: getattr(tournament, name) for name in cls.base_fields if hasattr(tournament, name)
        }
        fields["correspondence_days"] = tournament.days_per_move or ""
        live_seconds = 600 if tournament.days_per_move else tournament.base_seconds
        fields["base_minutes"] = (live_seconds or 600) / 60
        fields["bye_points"] = f"{tournament.bye_points.normalize():f}"
        for slot, code in enumerate(tournament.tiebreaks, start=1):
            fields[f"tiebreak_{slot}"] = code
        fields["country"] = str(tournament.country or "")
        times = (tournament.round_time(n) for n in range(1, len(tournament.schedule or []) + 1))
        fields["schedule"] = "\n".join(
            moment.astimezone(tournament.zone).strftime("%Y-%m-%d %H:%M") if moment else ""
            for moment in times
        ).rstrip("\n")
        return fields


class ResultForm(forms.Form):
    result = forms.ChoiceField(
        choices=[(v, label) for v, label in Board.Result.choices if v], label=_("Result")
    )
    black_marbles = forms.IntegerField(
        min_value=0, max_value=6, required=False, label=_("Black marbles")
    )
    white_marbles = forms.IntegerField(
        min_value=0, max_value=6, required=False, label=_("White marbles")
    )
    reason = forms.CharField(max_length=200, required=False, label=_("Reason"))


class AddPlayerForm(forms.Form):
    username = forms.CharField(
        max_length=30,
        label=_("Username"),
        widget=forms.TextInput(attrs={"placeholder": _("username"), "aria-label": _("Player")}),
    )
    late_bye = forms.ChoiceField(
        choices=[("Z", _("0 for rounds missed")), ("H", _("½ for rounds missed"))],
        required=False,
        label=_("Late bye"),
        widget=forms.Select(attrs={"aria-label": _("Points for the rounds missed")}),
    )
