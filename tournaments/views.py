"""Tournament pages: public views of the event and the director's controls.

Every director action is a POST to ``tournament_action`` that calls one service; refusals are
messages (or a 403 page for a player without the right).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from abalone_site.errors import NotFound, ServiceError
from accounts.models import User
from clubs.models import Club
from tournaments import exports, selectors, services
from tournaments.forms import AddPlayerForm, ResultForm, TournamentForm
from tournaments.models import Board, Entrant, Round, Tournament


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _context(request, tournament: Tournament, **extra) -> dict:
    return {
        "tournament": tournament,
        "is_director": services.is_director(tournament, request.user),
        "rounds": list(tournament.round_set.order_by("number")),
        **extra,
    }


def tournament_list(request):
    tournaments = Tournament.objects.select_related("club").order_by("status", "-created_at")
    return render(request, "tournaments/list.html", {"tournaments": tournaments[:200]})


@login_required
def tournament_create(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    if not services.is_club_admin(club, request.user):
        detail = f"Only an admin of {club.name} may create its tournaments."
        return render(request, "403.html", {"detail": detail, "back": club}, status=403)
    form = TournamentForm(
        request.POST or None,
        initial={
            "tiebreaks": [
                "buchholz_cut1",
                "buchholz",
                "sonneborn_berger",
                "direct_encounter",
                "wins",
            ]
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                club=club, actor=request.user, **form.settings()
            )
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, f"{tournament.name} is open for registration.")
            return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "club": club})


@login_required
def tournament_edit(request, slug: str):
    tournament = _tournament(slug)
    if not services.is_director(tournament, request.user):
        detail = f"Only the directors of {tournament.name} may change its settings."
        return render(request, "403.html", {"detail": detail, "back": tournament}, status=403)
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_from(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, actor=request.user, **form.settings())
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, "Settings saved.")
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "club": tournament.club, "tournament": tournament},
    )


def tournament_detail(request, slug: str):
    tournament = _tournament(slug)
    entrant = None
    if request.user.is_authenticated:
        entrant = Entrant.objects.filter(tournament=tournament, user=request.user).first()
    current = tournament.round_set.filter(number=tournament.current_round).first()
    return render(
        request,
        "tournaments/detail.html",
        _context(
            request,
            tournament,
            entrant=entrant,
            entrant_count=tournament.entrants.count(),
            current_round=current,
            boards=selectors.round_boards(current) if current else [],
            standings=selectors.standings(tournament)[:10],
        ),
    )


def tournament_players(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/players.html",
        _context(
            request,
            tournament,
            entrants=selectors.entrants(tournament),
            add_form=AddPlayerForm(),
            forbidden=tournament.forbidden_pairs.select_related("first__user", "second__user"),
        ),
    )


def tournament_round(request, slug: str, number: int):
    tournament = _tournament(slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    context = _context(
        request,
        tournament,
        round=round_,
        boards=selectors.round_boards(round_),
        result_form=ResultForm(),
    )
    if context["is_director"] and round_.status == Round.Status.PAIRED:
        context["warnings"] = services.pairing_warnings(tournament, round_)
        context["entrants"] = selectors.entrants(tournament)
    return render(request, "tournaments/round.html", context)


def tournament_standings(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/standings.html",
        _context(
            request,
            tournament,
            standings=selectors.standings(tournament),
            tiebreak_names=selectors.tiebreak_names(tournament),
        ),
    )


def tournament_crosstable(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/crosstable.html",
        _context(
            request,
            tournament,
            table=selectors.crosstable(tournament),
            round_numbers=range(1, tournament.current_round + 1),
        ),
    )


def tournament_player_card(request, slug: str, username: str):
    tournament = _tournament(slug)
    entrant = get_object_or_404(
        Entrant.objects.select_related("user"),
        tournament=tournament,
        user__username__iexact=username,
    )
    return render(
        request,
        "tournaments/card.html",
        _context(
            request,
            tournament,
            entrant=entrant,
            card=selectors.player_card(tournament, entrant),
        ),
    )


def tournament_audit(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/audit.html",
        _context(
            request,
            tournament,
            changes=selectors.result_changes(tournament),
        ),
    )


def tournament_export(request, slug: str, kind: str):
    tournament = _tournament(slug)
    match kind:
        case "standings.csv":
            body, content_type = exports.standings_csv(tournament), "text/csv"
        case "crosstable.csv":
            body, content_type = exports.crosstable_csv(tournament), "text/csv"
        case "trf":
            body, content_type = exports.trf(tournament), "text/plain"
        case "games.txt":
            body, content_type = exports.game_records(tournament), "text/plain"
        case _:
            raise Http404(f"No export {kind}")
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    suffix = kind if "." in kind else "trf"
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{suffix}"'
    return response


def _user(username: str) -> User:
    user = User.objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise NotFound(f"There is no player called '{(username or '').strip()}'.")
    return user


def _int(value, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as error:
        raise NotFound(f"{what} must be a number.") from error


@login_required
@require_POST
def tournament_action(request, slug: str, action: str):
    tournament = _tournament(slug)
    actor, now, data = request.user, timezone.now(), request.POST
    back = tournament.get_absolute_url()
    try:
        match action:
            case "register":
                services.tournament_register(tournament=tournament, user=actor, now=now)
                messages.success(request, f"You are registered for {tournament.name}.")
            case "withdraw":
                target = _user(data["username"]) if data.get("username") else actor
                services.tournament_withdraw(tournament=tournament, user=target, actor=actor)
                messages.success(request, f"{target.username} withdrew.")
            case "readmit":
                target = _user(data.get("username"))
                services.entrant_readmit(tournament=tournament, actor=actor, user=target)
                messages.success(request, f"{target.username} is back in.")
            case "add-player":
                target = _user(data.get("username"))
                services.entrant_add(
                    tournament=tournament,
                    actor=actor,
                    user=target,
                    late_bye=data.get("late_bye") or "Z",
                )
                messages.success(request, f"{target.username} added.")
                back = f"{back}players/"
            case "bye":
                services.bye_request(
                    tournament=tournament,
                    user=actor,
                    round_number=_int(data.get("round"), "The round"),
                    kind=data.get("kind") or "H",
                )
                messages.success(request, "Bye requested.")
            case "forbid":
                services.forbid_pair(
                    tournament=tournament,
                    actor=actor,
                    first=_user(data.get("first")),
                    second=_user(data.get("second")),
                    reason=data.get("reason", ""),
                )
                messages.success(request, "Those two will not be paired.")
                back = f"{back}players/"
            case "start":
                if services.tournament_start(tournament=tournament, actor=actor, now=now):
                    messages.success(request, "Round 1 is paired.")
                    back = f"{back}rounds/1/"
                else:
                    messages.success(request, "Registration is closed; round 1 is being paired.")
            case "pair-next":
                round_ = services.round_pair_by(tournament=tournament, actor=actor, now=now)
                if round_ is None:
                    messages.success(request, "The round is being paired in the background.")
                else:
                    messages.success(request, f"Round {round_.number} is paired.")
                    back = f"{back}rounds/{round_.number}/"
            case "start-round":
                number = _int(data.get("round"), "The round")
                services.round_start(
                    tournament_id=tournament.pk, number=number, actor=actor, now=now
                )
                messages.success(request, f"Round {number} has started.")
                back = f"{back}rounds/{number}/"
            case "result":
                board = get_object_or_404(
                    Board.objects.select_related("round__tournament"),
                    pk=_int(data.get("board"), "The board"),
                    round__tournament=tournament,
                )
                form = ResultForm(data)
                if not form.is_valid():
                    messages.error(request, "Choose a result; marbles are 0 to 6.")
                else:
                    services.board_result_set(
                        board=board,
                        actor=actor,
                        result=form.cleaned_data["result"],
                        black_marbles=form.cleaned_data["black_marbles"],
                        white_marbles=form.cleaned_data["white_marbles"],
                        reason=form.cleaned_data["reason"],
                        now=now,
                    )
                    messages.success(
                        request, f"Board {board.number}: {form.cleaned_data['result']}."
                    )
                back = f"{back}rounds/{board.round.number}/"
            case "edit-board":
                board = get_object_or_404(
                    Board.objects.select_related("round__tournament"),
                    pk=_int(data.get("board"), "The board"),
                    round__tournament=tournament,
                )
                black = services.entrant_for(tournament, data.get("black", ""))
                white = (
                    services.entrant_for(tournament, data["white"]) if data.get("white") else None
                )
                warnings = services.board_pairing_edit(
                    board=board, actor=actor, black=black, white=white
                )
                messages.success(request, f"Board {board.number} changed.")
                for warning in warnings:
                    messages.warning(request, f"Warning: {warning}")
                back = f"{back}rounds/{board.round.number}/"
            case _:
                raise Http404(f"Unknown tournament action {action}")
    except ServiceError as error:
        if error.status == 403:
            return render(
                request, "403.html", {"detail": error.detail, "back": tournament}, status=403
            )
        messages.error(request, error.detail)
        back = _came_from(request) or back  # show the refusal where the director was
    return redirect(back)


def _came_from(request) -> str | None:
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return None
