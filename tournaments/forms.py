from django import forms

from games.models import START_CHOICES
from tournaments.models import Board, Tournament, default_tiebreaks

TIEBREAK_CHOICES = [
    ("buchholz_cut1", "Buchholz cut-1"),
    ("buchholz", "Buchholz"),
    ("median_buchholz", "Median Buchholz"),
    ("sonneborn_berger", "Sonneborn-Berger"),
    ("direct_encounter", "Direct encounter"),
    ("wins", "Number of wins"),
    ("games_won", "Games won over the board"),
    ("black_games", "Games with Black (first move)"),
    ("progressive", "Progressive score"),
    ("koya", "Koya (round-robin)"),
    ("marbles", "Marble tie-break"),
]


#: How many tie-breaks the form lets a director order.
TIEBREAK_SLOTS = 6
TIEBREAK_HELP = (
    "In this order, each once. None chosen: the system's own (Swiss: Buchholz cut 1, Buchholz, "
    "Sonneborn-Berger, direct encounter, wins; round-robin: Sonneborn-Berger, direct encounter, "
    "wins)."
)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=4000
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    pairing_rules = forms.ChoiceField(
        choices=Tournament.PairingRules.choices,
        initial=Tournament.PairingRules.DUTCH_2026,
        required=False,
        label="Swiss pairing rules",
        help_text="The text in force since 1 February 2026, or the earlier one for an event "
        "that began under it",
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=5,
        help_text="Swiss only; a round-robin has one round per opponent",
    )
    base_minutes = forms.FloatField(
        min_value=0.25, max_value=360, initial=10, help_text="minutes each (on the server)"
    )
    increment_seconds = forms.IntegerField(min_value=0, max_value=600, initial=0)
    marbles_to_win = forms.IntegerField(
        min_value=1, max_value=6, initial=6, help_text="6 standard, 4 blitz"
    )
    start_position = forms.ChoiceField(choices=START_CHOICES, initial="belgian")
    max_plies_result = forms.ChoiceField(
        choices=[("draw", "Draw"), ("marbles", "Won by more marbles pushed off")],
        label="At the move limit (400 plies)",
    )
    rated = forms.BooleanField(required=False, initial=True)
    play_mode = forms.ChoiceField(choices=Tournament.PlayMode.choices)
    entry = forms.ChoiceField(choices=Tournament.Entry.choices)
    max_players = forms.IntegerField(min_value=2, required=False)
    registration_closes_at = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    round_start = forms.ChoiceField(choices=Tournament.RoundStart.choices)
    round_pause_seconds = forms.IntegerField(
        min_value=0, max_value=86400, initial=60, help_text="automatic start: pause between rounds"
    )
    first_move_seconds = forms.IntegerField(
        required=False,
        min_value=10,
        max_value=3600,
        initial=180,
        label="Time for the first move (seconds)",
        help_text="server games: a first move not made this long after the players were "
        "notified loses by forfeit",
    )
    chat_enabled = forms.BooleanField(
        required=False,
        initial=True,
        label="Chat in the event's games",
        help_text="off: no chat on the pages of this event's server games",
    )
    bye_points = forms.ChoiceField(
        choices=[("1", "1"), ("0.5", "½"), ("0", "0")], label="Points for a pairing-allocated bye"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                choices=[("", "—")] + TIEBREAK_CHOICES,
                required=False,
                label=f"Tie-break {slot}",
                help_text=TIEBREAK_HELP if slot == 1 else "",
            )

    def clean(self):
        data = super().clean()
        order = [data.get(f"tiebreak_{slot}") for slot in range(1, TIEBREAK_SLOTS + 1)]
        order = [code for code in order if code]
        twice = sorted({code for code in order if order.count(code) > 1})
        if twice:
            names = dict(TIEBREAK_CHOICES)
            raise forms.ValidationError(
                f"{', '.join(names[code] for code in twice)}: each tie-break once in the order."
            )
        data["tiebreaks"] = order
        return data

    def settings(self) -> dict:
        """The service's settings: the tie-breaks in the order chosen (none chosen: the
        system's own, left to the service)."""
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("tiebreak_")}
        data["base_seconds"] = round(data.pop("base_minutes") * 60)
        for optional in ("pairing_rules", "first_move_seconds"):
            if not data.get(optional):
                data.pop(optional, None)  # not sent: the default, or unchanged
        if not data["tiebreaks"]:
            data["tiebreaks"] = default_tiebreaks(data["format"])
        return data

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict:
        fields = {
            name: getattr(tournament, name) for name in cls.base_fields if hasattr(tournament, name)
        }
        fields["base_minutes"] = (tournament.base_seconds or 600) / 60
        fields["bye_points"] = f"{tournament.bye_points.normalize():f}"
        for slot, code in enumerate(tournament.tiebreaks, start=1):
            fields[f"tiebreak_{slot}"] = code
        return fields


class ResultForm(forms.Form):
    result = forms.ChoiceField(choices=[(v, label) for v, label in Board.Result.choices if v])
    black_marbles = forms.IntegerField(min_value=0, max_value=6, required=False)
    white_marbles = forms.IntegerField(min_value=0, max_value=6, required=False)
    reason = forms.CharField(max_length=200, required=False)


class AddPlayerForm(forms.Form):
    username = forms.CharField(max_length=30)
    late_bye = forms.ChoiceField(
        choices=[("Z", "0 for rounds missed"), ("H", "½ for rounds missed")], required=False
    )
