"""The page that starts a game against the computer (``/play/computer/``)."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from abalone_site.errors import ServiceError
from games import computer
from games.engine.search import LEVELS
from games.options import PRESETS

NAMED_STARTS = [
    ("standard", _("Standard")),
    ("belgian", _("Belgian Daisy")),
    ("german", _("German Daisy")),
    ("placement", _("Placement")),
]


class ComputerGameForm(forms.Form):
    level = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, f"{n}: {spec.name}") for n, spec in LEVELS.items()],
        initial=3,
        label=_("Level"),
    )
    colour = forms.ChoiceField(
        choices=[
            ("random", _("Random")),
            ("black", _("Black (moves first)")),
            ("white", _("White")),
        ],
        initial="random",
        label=_("Your colour"),
    )
    clock = forms.ChoiceField(
        choices=[(key, label) for key, (label, *_rest) in PRESETS.items()]
        + [("none", _("No clock"))],
        initial="rapid-10+0",
        label=_("Time control"),
    )
    marbles_to_win = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=6,
        label=_("Marbles to win"),
        help_text=_("empty: 4 for blitz presets, else 6"),
    )
    start = forms.ChoiceField(choices=NAMED_STARTS, initial="standard", label=_("Start"))


@login_required
def computer_game(request):
    form = ComputerGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        choices = {"start": data["start"]}
        if data["clock"] == "none":
            choices["base_seconds"] = None
        else:
            choices["preset"] = data["clock"]
        if data.get("marbles_to_win"):
            choices["marbles_to_win"] = data["marbles_to_win"]
        try:
            game = computer.computer_game_create(
                player=request.user,
                level=data["level"],
                colour=data["colour"],
                choices=choices,
                now=timezone.now(),
            )
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            return redirect(game.get_absolute_url())
    return render(request, "games/computer.html", {"form": form})
