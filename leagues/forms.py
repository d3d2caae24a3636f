from datetime import time

from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.services import DAYS_BETWEEN, LEVELS, PROMOTE
from tournaments.pairing.teams import MAX_BOARDS


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    season = forms.CharField(label=_("Season"), max_length=20, help_text=_("e.g. 2026-27"))
    description = forms.CharField(
        label=_("Description"), max_length=2000, required=False, widget=forms.Textarea
    )


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, help_text=_("e.g. Division 1"))
    level = forms.IntegerField(
        label=_("Level"),
        min_value=LEVELS[0],
        max_value=LEVELS[1],
        initial=1,
        help_text=_("1 is the top division."),
    )
    double = forms.BooleanField(
        label=_("Home and away (a double round-robin)"), required=False, initial=True
    )
    boards = forms.IntegerField(
        label=_("Boards a match"), min_value=1, max_value=MAX_BOARDS, initial=4
    )
    promote = forms.IntegerField(
        label=_("Teams promoted"), min_value=PROMOTE[0], max_value=PROMOTE[1], initial=0
    )
    relegate = forms.IntegerField(
        label=_("Teams relegated"), min_value=PROMOTE[0], max_value=PROMOTE[1], initial=0
    )
    first_day = forms.DateField(
        label=_("First match day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    match_time = forms.TimeField(
        label=_("Matches begin at"),
        initial=time(20, 0),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    days_between = forms.IntegerField(
        label=_("Days between match days"),
        min_value=DAYS_BETWEEN[0],
        max_value=DAYS_BETWEEN[1],
        initial=14,
    )


class NextSeasonForm(forms.Form):
    season = forms.CharField(label=_("Season"), max_length=20, help_text=_("e.g. 2027-28"))
    first_day = forms.DateField(
        label=_("First match day"), widget=forms.DateInput(attrs={"type": "date"})
    )


class PostponeForm(forms.Form):
    when = forms.DateTimeField(
        label=_("Played on"),
        help_text=_("The day and the hour, in the event's time zone."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
