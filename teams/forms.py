from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.elo import CATEGORIES
from teams.services import MAX_NAME


class TeamForm(forms.Form):
    name = forms.CharField(max_length=MAX_NAME, label=_("Team name"))
    captain = forms.CharField(
        max_length=30,
        required=False,
        label=_("Captain"),
        help_text=_("username of a member of the club; you can name one later"),
    )
    category = forms.ChoiceField(
        choices=[(c, c) for c in CATEGORIES],
        initial="rapid",
        label=_("Rating for the board order"),
        help_text=_("the players are ordered by this rating until the captain orders them"),
    )
