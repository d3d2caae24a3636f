import json

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.errors import ServiceError
from games import engine
from games.models import START_CHOICES, Challenge
from games.options import (
    CUSTOM,
    DEFAULT_START,
    PRESETS,
    START_POSITION_ERRORS,
    options_from_choices,
)

#: The named layouts the board editor can start from (static/js/board-editor.js).
EDITOR_PRESETS = {
    name: engine.start_position(name).to_string() for name in ("standard", "belgian", "german")
}


def start_position_field(*, start_field_id: str, label: str | None = None) -> forms.Field:
    """The text of a custom start, with the board editor that writes it (board-editor.js shows
    both while the select ``start_field_id`` says "custom")."""
    return forms.CharField(
        required=False,
        max_length=200,
        label=label if label is not None else _("Custom position"),
        help_text=_(
            "custom start: a position string, side to move | Black's cells | White's "
            "cells, e.g. b|a1,a2,a3|i7,i8,i9; or set it up on the board"
        ),
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "spellcheck": "false",
                "autocapitalize": "off",
                "class": "position-text",
                "data-board-editor": start_field_id,
                "data-presets": json.dumps(EDITOR_PRESETS),
            }
        ),
    )


#: The speed words of the presets' labels ("Blitz 3+2"), in the reader's language.
_SPEED_WORDS = {"Blitz": _("Blitz"), "Rapid": _("Rapid"), "Classical": _("Classical")}


def preset_choices() -> list[tuple[str, str]]:
    """The clock presets as choices, their speed word translated ("Blitz 3+2" -> "Villám 3+2")."""
    choices = []
    for key, (label, *_rest) in PRESETS.items():
        word, _space, clock = label.partition(" ")
        shown = format_lazy("{} {}", _SPEED_WORDS[word], clock) if word in _SPEED_WORDS else label
        choices.append((key, shown))
    return choices


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(
        choices=preset_choices() + [("custom", _("Custom"))],
        initial="blitz-3+2",
        label=_("Preset"),
    )
    base_minutes = forms.FloatField(
        required=False,
        min_value=0.25,
        max_value=360,
        label=_("Base minutes"),
        help_text=_("custom: minutes each"),
    )
    increment_seconds = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=600,
        label=_("Increment seconds"),
        help_text=_("custom: seconds added per move"),
    )
    marbles_to_win = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=6,
        label=_("Marbles to win"),
        help_text=_("empty: 4 for blitz presets, else 6"),
    )
    start = forms.ChoiceField(
        choices=START_CHOICES,
        initial=DEFAULT_START,
        label=pgettext_lazy("start position", "Start"),
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
