"""The page that starts a game against the computer (``/play/computer/``)."""

from urllib.parse import urlencode

from django import forms
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.guests import guest_for
from core.errors import ServiceError
from core.throttle import client_ip, throttle
from games import computer
from games.engine.levels import LEVELS
from games.option_fields import NAMED_STARTS, marbles_to_win_field, preset_choices, start_field
from games.options import PRESETS

#: The clock of a game against the computer when none is chosen (the page's and the API's).
DEFAULT_CLOCK = "rapid-10+0"


class ComputerGameForm(forms.Form):
    level = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, format_lazy("{}: {}", n, _(spec.name))) for n, spec in LEVELS.items()],
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
        choices=preset_choices() + [("none", _("No clock"))],
        initial=DEFAULT_CLOCK,
        label=_("Time control"),
    )
    marbles_to_win = marbles_to_win_field(
        required=False, help_text=_("empty: 4 for blitz presets, else 6")
    )
    start = start_field(choices=NAMED_STARTS, initial="standard")


def play_again_url(game, player) -> str:
    """The computer page set for the same game again, colours swapped (a game's "Play again")."""
    level = computer.computer_level_of(
        game.white_id if game.black_id == player.pk else game.black_id
    )
    clock = "none"
    for key, (_label, base, increment, _marbles) in PRESETS.items():
        if (base, increment) == (game.base_seconds, game.increment_seconds):
            clock = key
    query = {
        "level": level,
        "colour": "white" if game.black_id == player.pk else "black",
        "clock": clock,
        "marbles_to_win": game.marbles_to_win,
    }
    if game.start in dict(NAMED_STARTS):
        query["start"] = game.start
    return f"{reverse('computer-game')}?{urlencode(query)}"


def computer_game(request):
    """The computer's page: a player, or a visitor as this browser's guest (accounts.guests),
    chooses a level, a colour, a clock and a start, and plays (unrated)."""
    # A GET may carry the fields to start from ("Play again" on a finished game's page).
    initial = {
        name: request.GET[name] for name in ComputerGameForm.base_fields if name in request.GET
    }
    form = ComputerGameForm(request.POST or None, initial=initial)
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
            if request.user.is_authenticated:
                player = request.user
            else:  # a visitor: as this browser session's guest
                throttle(request, "challenges", f"ip:{client_ip(request)}", what=_("games"))
                player = guest_for(request)
            game = computer.computer_game_create(
                player=player,
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
