"""The fields that ask for a new game's options (``games.options``), declared once for every page
and API that asks: a challenge (``games.forms``, ``games.serializers``), a game against the
computer (``games.computer_views``, ``games.computer_api``) and a tournament's games
(``tournaments.forms``). Their bounds, labels and help are the same everywhere; a form says only
what differs there (whether the field may stay empty, its first value).
"""

from __future__ import annotations

import json

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.serializers import StrictSerializer, TextField
from games import engine
from games.clock import CORRESPONDENCE_DAYS, DAY_SECONDS, LIVE_LIMIT_SECONDS, TimeControl
from games.models import START_CHOICES
from games.options import CUSTOM, DEFAULT_START, LIVE_PRESETS, PRESETS

#: The longest base time a game's clock may have, and the largest increment.
MAX_BASE_SECONDS = 6 * 3600
MAX_INCREMENT_SECONDS = 600
#: Marbles to push off to win: 6 in the standard game, 4 in blitz.
MARBLES_TO_WIN_RANGE = (1, 6)

#: The starts with a name (every start but a custom position).
NAMED_STARTS = [(name, label) for name, label in START_CHOICES if name != CUSTOM]

START_HELP = (
    "standard (the default), belgian, german, placement (an empty board: each side places its "
    "14 marbles, one a turn, @e5, before the first move) or custom (give start_position)"
)
START_POSITION_HELP = (
    "start custom only: the position string, side to move, Black's cells, White's cells, e.g. "
    "b|a1,a2,a3|i7,i8,i9; at most 14 marbles a side, a side to move that can move, and fewer "
    "marbles lost by each side than marbles_to_win (else 422 invalid_start_position)"
)
PRESET_HELP = (
    "blitz-3+2, blitz-5+0 (4 marbles to win), rapid-10+0, rapid-15+0, classical-30+0; "
    "correspondence-1d, -2d, -3d, -5d, -7d, -14d (days for each move); or give "
    "base_seconds/increment_seconds"
)
BASE_SECONDS_HELP = (
    "a live clock's seconds each, at most 21600 (6 hours); or a correspondence clock's days a "
    "move as seconds, 86400 x 1, 2, 3, 5, 7 or 14, with no increment; null: no clock"
)


# --- the API -------------------------------------------------------------------------------------

#: A clock's base as the API's schema states it: a live clock's seconds, or a correspondence
#: clock's whole days as seconds (games.clock.TimeControl refuses anything else).
CLOCK_BASE_SCHEMA = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": LIVE_LIMIT_SECONDS},
        {"type": "integer", "enum": [days * DAY_SECONDS for days in CORRESPONDENCE_DAYS]},
    ]
}
#: A correspondence clock (days a move: a base above six hours, or a correspondence preset) has
#: no increment: JSON Schema for a serializer's ``request_schema_rules`` (core.schema).
NO_INCREMENT_WITH_DAYS = [
    {
        "anyOf": [
            {"properties": {"base_seconds": {"maximum": LIVE_LIMIT_SECONDS}}},
            {"properties": {"increment_seconds": {"maximum": 0}}},
        ]
    },
    {
        "anyOf": [
            {"properties": {"preset": {"not": {"pattern": "^correspondence-"}}}},
            {"properties": {"increment_seconds": {"maximum": 0}}},
        ]
    },
]


@extend_schema_field(CLOCK_BASE_SCHEMA)
class ClockBaseField(serializers.IntegerField):
    """A clock's base in seconds: a live clock's (at most six hours) or a correspondence clock's
    whole days; the schema names the values (the service refuses any other)."""

    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=max(CORRESPONDENCE_DAYS) * DAY_SECONDS, **kwargs)


class GameOptionsSerializer(StrictSerializer):
    """A new game's clock (a preset, or ``base_seconds`` and ``increment_seconds``), marbles to
    win and start, as ``games.options.options_from_choices`` reads them. A request names a
    preset or ``base_seconds`` (null: no clock); the service checks it (its own error codes)."""

    preset = serializers.ChoiceField(choices=list(PRESETS), required=False, help_text=PRESET_HELP)
    base_seconds = ClockBaseField(required=False, allow_null=True, help_text=BASE_SECONDS_HELP)
    increment_seconds = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_INCREMENT_SECONDS
    )
    marbles_to_win = serializers.IntegerField(
        required=False, min_value=MARBLES_TO_WIN_RANGE[0], max_value=MARBLES_TO_WIN_RANGE[1]
    )
    start = serializers.ChoiceField(
        choices=START_CHOICES, default=DEFAULT_START, help_text=START_HELP
    )
    start_position = TextField(max_length=200, required=False, help_text=START_POSITION_HELP)

    request_body_required = True


# --- the pages -----------------------------------------------------------------------------------

#: The speed words of the presets' labels ("Blitz 3+2"), in the reader's language.
_SPEED_WORDS = {"Blitz": _("Blitz"), "Rapid": _("Rapid"), "Classical": _("Classical")}


def preset_choices() -> list[tuple[str, str]]:
    """The live clock presets as choices, their speed word translated ("Blitz 3+2" ->
    "Villám 3+2")."""
    choices = []
    for key in LIVE_PRESETS:
        label = PRESETS[key][0]
        word, _space, clock = label.partition(" ")
        shown = format_lazy("{} {}", _SPEED_WORDS[word], clock) if word in _SPEED_WORDS else label
        choices.append((key, shown))
    return choices


def challenge_preset_choices() -> list:
    """A challenge's clocks, in groups: the live presets, the correspondence clocks ("3 days a
    move", in the reader's language), and a custom clock."""
    correspondence = [
        (key, _days_a_move(TimeControl(base).days_per_move))
        for key, (_label, base, _increment, _marbles) in PRESETS.items()
        if key not in LIVE_PRESETS
    ]
    return [
        (_("Live"), preset_choices()),
        (_("Correspondence"), correspondence),
        (CUSTOM, _("Custom")),
    ]


def _days_a_move(days: int) -> str:
    """ "3 days a move", translated when shown (a form's choices are made once, at import)."""

    def say() -> str:
        return ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days}

    return lazy(say, str)()


def correspondence_days_field(**kwargs) -> forms.TypedChoiceField:
    """A correspondence clock's days a move ("3 days a move"), or none (empty: a live clock)."""
    return forms.TypedChoiceField(
        **{
            "choices": [
                ("", _("No: a live clock")),
                *((days, _days_a_move(days)) for days in CORRESPONDENCE_DAYS),
            ],
            "coerce": int,
            "empty_value": None,
            "required": False,
            "label": _("Correspondence"),
            **kwargs,
        }
    )


def base_minutes_field(**kwargs) -> forms.FloatField:
    """A custom clock's minutes each (a quarter of a minute up to the longest base time)."""
    return forms.FloatField(
        **{
            "min_value": 0.25,
            "max_value": MAX_BASE_SECONDS // 60,
            "label": _("Base minutes"),
            **kwargs,
        }
    )


def increment_seconds_field(**kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        **{
            "min_value": 0,
            "max_value": MAX_INCREMENT_SECONDS,
            "label": _("Increment seconds"),
            **kwargs,
        }
    )


def marbles_to_win_field(**kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        **{
            "min_value": MARBLES_TO_WIN_RANGE[0],
            "max_value": MARBLES_TO_WIN_RANGE[1],
            "label": _("Marbles to win"),
            **kwargs,
        }
    )


def start_field(*, choices=START_CHOICES, **kwargs) -> forms.ChoiceField:
    """The start: a named one (``NAMED_STARTS``) or, where the form has the board editor, a
    custom position too (the default ``START_CHOICES``)."""
    return forms.ChoiceField(
        **{"choices": choices, "label": pgettext_lazy("start position", "Start"), **kwargs}
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
