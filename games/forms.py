from django import forms

from games import engine
from games.models import START_CHOICES, Challenge
from games.selectors import PRESETS


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(
        choices=[(key, label) for key, (label, *_rest) in PRESETS.items()] + [("custom", "Custom")],
        initial="blitz-3+2",
    )
    base_minutes = forms.FloatField(
        required=False, min_value=0.25, max_value=360, help_text="custom: minutes each"
    )
    increment_seconds = forms.IntegerField(
        required=False, min_value=0, max_value=600, help_text="custom: seconds added per move"
    )
    marbles_to_win = forms.IntegerField(
        required=False, min_value=1, max_value=6, help_text="empty: 4 for blitz presets, else 6"
    )
    start = forms.ChoiceField(choices=START_CHOICES, initial="belgian")
    colour = forms.ChoiceField(choices=Challenge.Colour.choices, initial="random")
    rated = forms.BooleanField(required=False, initial=True)
    opponent = forms.CharField(
        required=False, max_length=30, help_text="a username, or empty for an open seek"
    )

    def clean(self):
        data = super().clean()
        if data.get("preset") == "custom":
            if not data.get("base_minutes"):
                self.add_error("base_minutes", "A custom time control needs the minutes each.")
            data["base_seconds"] = round((data.get("base_minutes") or 0) * 60)
            data["increment"] = data.get("increment_seconds") or 0
            data["marbles"] = data.get("marbles_to_win") or 6
        elif data.get("preset") in PRESETS:
            _label, base, increment, marbles = PRESETS[data["preset"]]
            data["base_seconds"], data["increment"] = base, increment
            data["marbles"] = data.get("marbles_to_win") or marbles
        if data.get("start") not in engine.START_NAMES:
            self.add_error("start", "Unknown start position.")
        return data
