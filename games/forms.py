from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from games.models import Challenge
from games.option_fields import (
    base_minutes_field,
    challenge_preset_choices,
    increment_seconds_field,
    marbles_to_win_field,
    start_field,
    start_position_field,
)
from games.options import CUSTOM, DEFAULT_START, START_POSITION_ERRORS, options_from_choices


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(
        choices=challenge_preset_choices(),
        initial="blitz-3+2",
        label=_("Preset"),
    )
    base_minutes = base_minutes_field(required=False, help_text=_("custom: minutes each"))
    increment_seconds = increment_seconds_field(
        required=False, help_text=_("custom: seconds added per move")
    )
    marbles_to_win = marbles_to_win_field(
        required=False, help_text=_("empty: 4 for blitz presets, else 6")
    )
    start = start_field(
        initial=DEFAULT_START,
        help_text=_("placement: an empty board, each side places its 14 marbles in turn first"),
    )
    start_position = start_position_field(start_field_id="id_start")
    colour = forms.ChoiceField(
        choices=Challenge.Colour.choices, initial="random", label=_("Colour")
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    opponent = forms.CharField(
        required=False,
        max_length=30,
        label=_("Opponent"),
        help_text=_("a username, or empty for an open seek"),
        widget=forms.TextInput(attrs={"data-player-suggest": ""}),
    )

    def clean(self):
        data = super().clean()
        if data.get("preset") == "custom" and not data.get("base_minutes"):
            self.add_error("base_minutes", _("A custom time control needs the minutes each."))
        if data.get("start") == CUSTOM and not self.errors:
            # The position's problems belong to its field; the service checks it again.
            try:
                options_from_choices(self.choices()).validated()
            except ServiceError as error:
                if error.code in START_POSITION_ERRORS:
                    self.add_error("start_position", error.detail)
        return data

    def choices(self) -> dict:
        """The challenge as ``games.services.challenge_create_from_choices`` takes it (after
        ``is_valid()``): a preset's clock, or the custom one; an empty field is not given, nor
        the position text unless the start is custom."""
        data = self.cleaned_data
        choices = {
            "opponent": data.get("opponent") or "",
            "colour": data["colour"],
            "start": data["start"],
            "rated": data["rated"],
        }
        if data["start"] == CUSTOM:
            choices["start_position"] = data.get("start_position") or ""
        if data.get("marbles_to_win"):
            choices["marbles_to_win"] = data["marbles_to_win"]
        if data["preset"] == "custom":
            choices["base_seconds"] = round(data["base_minutes"] * 60)
            choices["increment_seconds"] = data.get("increment_seconds") or 0
        else:
            choices["preset"] = data["preset"]
        return choices
