"""Pages for live play: the lobby and the game page. Writes go through games.services."""

import json
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import guest_of
from core.errors import ServiceError
from core.throttle import throttle
from games import records, selectors, services
from games.computer import computer_level_of
from games.computer_players import computer_name
from games.computer_views import play_again_url
from games.forms import ChallengeForm


def lobby(request):
    now = timezone.now()
    form = ChallengeForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if form.is_valid():
            # over the rate: a 429 page (the API counts against the same rate)
            throttle(request, "challenges", f"user:{request.user.pk}", what=_("challenges"))
            try:
                challenge = services.challenge_create_from_choices(
                    challenger=request.user, choices=form.choices(), now=now
                )
            except ServiceError as error:
                form.add_error(None, error.detail)
            else:
                target = challenge.opponent.username if challenge.opponent else "anyone"
                messages.success(request, _("Challenge sent to %(target)s.") % {"target": target})
                return redirect("lobby")
    context = {
        "form": form,
        "seeks": selectors.open_seeks(now=now).order_by("-created_at")[:50],
        "ongoing": selectors.ongoing_games().order_by("-created_at")[:30],
        "mine": None,
        "challenges": None,
        "my_challenge_ids": "[]",
    }
    if request.user.is_authenticated:
        context["mine"] = selectors.games_of(request.user).order_by("-created_at")[:20]
        context["challenges"] = selectors.challenges_for(request.user, now=now)
        context["my_challenge_ids"] = json.dumps(
            [c.pk for c in context["challenges"] if c.challenger_id == request.user.pk]
        )
        context["vacation"] = selectors.vacation_summary(request.user.pk, now)
        if context["vacation"]["ends_at"]:
            context["vacation_until"] = datetime.fromisoformat(context["vacation"]["ends_at"])
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def vacation(request):
    """Start or end the player's correspondence vacation (the lobby's card)."""
    action = request.POST.get("action")
    now = timezone.now()
    try:
        if action == "start":
            services.vacation_start(user=request.user, now=now)
            messages.success(
                request, _("Your vacation has begun: your correspondence clocks stop.")
            )
        elif action == "end":
            services.vacation_end(user=request.user, now=now)
            messages.success(request, _("Welcome back: your correspondence clocks run again."))
        else:
            messages.error(request, _("Choose to start or to end a vacation."))
    except ServiceError as error:
        messages.error(request, error.detail)
    return redirect(f"{reverse('lobby')}#vacation")


@login_required
@require_POST
def challenge_action(request, challenge_id: int, action: str):
    now = timezone.now()
    try:
        match action:
            case "accept":
                game = services.challenge_accept(
                    challenge_id=challenge_id, user=request.user, now=now
                )
                return redirect(game)
            case "decline":
                services.challenge_decline(challenge_id=challenge_id, user=request.user, now=now)
                messages.success(request, _("Challenge declined."))
            case "cancel":
                services.challenge_cancel(challenge_id=challenge_id, user=request.user, now=now)
                messages.success(request, _("Challenge cancelled."))
            case _:
                return render(request, "404.html", {"path": request.path}, status=404)
    except ServiceError as error:
        if error.status == 403:
            return render(request, "403.html", {"detail": error.detail}, status=403)
        messages.error(request, error.detail)
    return redirect("lobby")


def game_detail(request, game_id: int):
    now = timezone.now()
    game = services.game_current(game_id=game_id, now=now)  # a ServiceError is a 404 page
    state = selectors.game_state(game, now=now)
    viewer = request.user if request.user.is_authenticated else guest_of(request)
    colour = game.colour_of(viewer) if viewer is not None else None
    opponent = (game.white_id if colour == "b" else game.black_id) if colour else None
    against_computer = opponent is not None and computer_level_of(opponent) is not None
    # The computer's side, named in the reader's language; its page says when it thinks.
    computer_colour, computer_level = "", None
    for side, user_id in (("b", game.black_id), ("w", game.white_id)):
        level = computer_level_of(user_id)
        if level is not None:
            computer_colour, computer_level = side, level
    shown = computer_name(computer_level) if computer_level else ""
    place = records.tournament_place(game)
    if place is not None:
        place["round_url"] = reverse("tournament-round", args=[place["slug"], place["round"]])
    return render(
        request,
        "games/game.html",
        {
            "game": game,
            "state": state,
            "place": place,
            "my_colour": colour or "",
            "computer_colour": computer_colour,
            "computer_name": shown,
            "computer_name_b": shown if computer_colour == "b" else "",
            "computer_name_w": shown if computer_colour == "w" else "",
            # A player's game against the computer: no chat, "Play again" instead of a rematch.
            "play_again_url": play_again_url(game, viewer) if against_computer else "",
            "api_base": reverse("api-game", args=[game_id]),
            "ws_path": f"/ws/games/{game_id}/",
        },
    )
