from django import forms

from games.models import START_CHOICES, Challenge
from games.options import PRESETS


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
        if data.get("preset") == "custom" and not data.get("base_minutes"):
            self.add_error("base_minutes", "A custom time control needs the minutes each.")
        return data

    def choices(self) -> dict:
        """The challenge as ``games.services.challenge_create_from_choices`` takes it (after
        ``is_valid()``): a preset's clock, or the custom one; an empty field is not given."""
        data = self.cleaned_data
        choices = {
            "opponent": data.get("opponent") or "",
            "colour": data["colour"],
            "start": data["start"],
            "rated": data["rated"],
        }
        if data.get("marbles_to_win"):
            choices["marbles_to_win"] = data["marbles_to_win"]
        if data["preset"] == "custom":
            choices["base_seconds"] = round(data["base_minutes"] * 60)
            choices["increment_seconds"] = data.get("increment_seconds") or 0
        else:
            choices["preset"] = data["preset"]
        return choices
