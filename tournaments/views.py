"""Tournament pages: public views of the event and the director's controls.

Every player's or director's action is a POST to ``tournament_action``, which runs it through
:mod:`tournaments.actions` (the API does the same); refusals are messages (or a 403 page for a
player without the right).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.selectors import guest_claim_waiting, unclaimed_guest
from core.errors import InvalidInput, ServiceError
from ratings.selectors import ratings_being_updated
from tournaments import (
    actions,
    award_selectors,
    board_selectors,
    cup_selectors,
    exports,
    public_selectors,
    selectors,
    services,
)
from tournaments.forms import AddPlayerForm, ResultForm, TournamentForm
from tournaments.models import Entrant, Prize, Round, Tournament
from tournaments.permissions import is_club_admin, is_director
from tournaments.selectors import tournament_by_slug as _tournament
from tournaments.services.entries import MAX_LIST_CHARS
from tournaments.sheets import board_qr
from tournaments.tiebreak_texts import tiebreak_guide


def _context(request, tournament: Tournament, **extra) -> dict:
    return {
        "tournament": tournament,
        "is_director": is_director(tournament, request.user),
        "rounds": list(tournament.round_set.order_by("number")),
        "ratings_updating": tournament.rated and ratings_being_updated(),
        **extra,
    }


def _filters(request) -> dict:
    return {name: request.GET.get(name, "").strip() for name in public_selectors.EVENT_FILTERS}


def tournament_list(request):
    """The public results site's list: every event, filtered and searched, 30 a page."""
    filters = _filters(request)
    page = Paginator(public_selectors.public_events(filters), 30).get_page(request.GET.get("page"))
    query = {name: value for name, value in filters.items() if value}
    return render(
        request,
        "tournaments/list.html",
        {
            "page": page,
            "filters": filters,
            "query": urlencode(query),
            "clubs": Club.objects.filter(tournaments__isnull=False).distinct().order_by("name"),
            "countries": sorted(
                {
                    str(code)
                    for code in Tournament.objects.exclude(country="").values_list(
                        "country", flat=True
                    )
                }
            ),
            "statuses": Tournament.Status.choices,
            "formats": Tournament.Format.choices,
        },
    )


def tournament_list_json(request):
    """The same list, machine-readable: at most 100 events a page (``page``), newest first."""
    filters = _filters(request)
    page = Paginator(public_selectors.public_events(filters), 100).get_page(request.GET.get("page"))
    return JsonResponse(
        {
            "count": page.paginator.count,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "events": [public_selectors.event_document(event, request) for event in page],
        }
    )


@login_required
def tournament_create(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    if not is_club_admin(club, request.user):
        detail = _("Only an admin of %(name)s may create its tournaments.") % {"name": club.name}
        return render(request, "403.html", {"detail": detail, "back": club}, status=403)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                club=club, actor=request.user, **form.settings()
            )
        except ServiceError as error:
            form.refused(error)
        else:
            messages.success(
                request, _("%(name)s is open for registration.") % {"name": tournament.name}
            )
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "club": club, "tiebreak_guide": tiebreak_guide()},
    )


@login_required
def tournament_edit(request, slug: str):
    tournament = _tournament(slug)
    if not is_director(tournament, request.user):
        detail = _("Only the directors of %(name)s may change its settings.") % {
            "name": tournament.name
        }
        return render(request, "403.html", {"detail": detail, "back": tournament}, status=403)
    form = TournamentForm(
        request.POST or None,
        initial=TournamentForm.initial_from(tournament),
        started=tournament.status != Tournament.Status.REGISTRATION,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, actor=request.user, **form.settings())
        except ServiceError as error:
            form.refused(error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "club": tournament.club,
            "tournament": tournament,
            "tiebreak_guide": tiebreak_guide(),
        },
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
            boards=board_selectors.round_boards(current) if current else [],
            standings=selectors.standings(tournament)[:10],
            round_times=selectors.round_times(tournament),
            arbiters=selectors.arbiters(tournament),
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
            arbiters=selectors.arbiters(tournament),
            is_club_admin=is_club_admin(tournament.club, request.user),
            round_waiting=tournament.current_round
            if Round.objects.filter(
                tournament=tournament,
                number=tournament.current_round,
                status=Round.Status.PAIRED,
            ).exists()
            else None,
            add_form=AddPlayerForm(),
            forbidden=tournament.forbidden_pairs.select_related("first__user", "second__user"),
        ),
    )


def tournament_round(request, slug: str, number: int):
    tournament = _tournament(slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    virtual = board_selectors.virtual_points(round_)
    context = _context(
        request,
        tournament,
        round=round_,
        boards=board_selectors.round_boards(round_, virtual),
        result_form=ResultForm(),
    )
    context["open_boards"] = [b for b in context["boards"] if b.white_id and not b.result]
    context["acceleration"] = board_selectors.round_acceleration(virtual)
    mine = board_selectors.board_of_player(context["boards"], request.user)
    if mine is not None and tournament.play_mode == Tournament.PlayMode.OTB:
        context["panel"] = board_selectors.report_panel(tournament, round_, mine, request.user)
    if context["is_director"] and tournament.play_mode == Tournament.PlayMode.OTB:
        context["reports"] = board_selectors.reports_summary(context["boards"])
        for board in context["boards"]:  # the printed sheet's QR code: the board's report page
            if board.white_id:
                board.qr = board_qr(request, board)
    if context["is_director"] and round_.status == Round.Status.PAIRED:
        if selectors.round_hand_edited(round_):  # the engine's own pairing keeps its rules
            context["warnings"] = selectors.pairing_warnings(tournament, round_)
        context["entrants"] = selectors.entrants(tournament)
    return render(request, "tournaments/round.html", context)


def tournament_board(request, slug: str, number: int, board: int):
    """One board of a round: where a printed pairing sheet's QR code leads its players, to
    report the result from their phones."""
    tournament = _tournament(slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    found = get_object_or_404(
        round_.boards.select_related(
            "black__user", "white__user", "report__reported_by", "report__answered_by"
        ),
        number=board,
    )
    found.black_points = found.white_points = ""
    context = _context(request, tournament, round=round_, board=found, boards=[found])
    plays = board_selectors.board_of_player([found], request.user)
    if plays is not None and tournament.play_mode == Tournament.PlayMode.OTB:
        context["panel"] = board_selectors.report_panel(tournament, round_, found, request.user)
    return render(request, "tournaments/board.html", context)


def tournament_prizes(request, slug: str):
    tournament = _tournament(slug)
    places = cup_selectors.places_of(tournament) if tournament.has_bracket else None
    return render(
        request,
        "tournaments/prizes.html",
        _context(
            request,
            tournament,
            awards=award_selectors.prize_list(tournament, places=places),
            prize_kinds=Prize.Kind.choices,
            before_final=tournament.has_bracket and not places,
        ),
    )


def tournament_rating_report(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/rating_report.html",
        _context(request, tournament, lines=award_selectors.rating_report(tournament)),
    )


def tournament_standings(request, slug: str):
    """The standings now, or after an earlier round (``?after=N``)."""
    tournament = _tournament(slug)
    after = request.GET.get("after", "")
    after = int(after) if after.isdigit() and 1 <= int(after) < tournament.current_round else None
    return render(
        request,
        "tournaments/standings.html",
        _context(
            request,
            tournament,
            after=after,
            standings=selectors.standings(tournament, after=after),
            tiebreak_names=selectors.tiebreak_names(tournament),
            earlier=range(1, tournament.current_round),
            places=cup_selectors.places_of(tournament),
        ),
    )


def tournament_bracket(request, slug: str):
    """A knockout cup's bracket, live."""
    tournament = _tournament(slug)
    if not tournament.has_bracket:
        raise Http404(_("Only a knockout cup has a bracket."))
    bracket = (
        cup_selectors.team_cup_bracket(tournament)
        if tournament.is_team_cup
        else cup_selectors.cup_bracket(tournament)
    )
    return render(
        request,
        "tournaments/bracket.html",
        _context(
            request,
            tournament,
            bracket=bracket,
            champion=cup_selectors.cup_champion(bracket),
            places=cup_selectors.cup_places(bracket),  # the bracket read once
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
    entrant = selectors.entrant_for(tournament, username)  # NotFound: a 404 page
    return render(
        request,
        "tournaments/card.html",
        _context(
            request,
            tournament,
            entrant=entrant,
            card=selectors.player_card(tournament, entrant),
            claim=_guest_claim_offer(request, entrant),
        ),
    )


def _guest_claim_offer(request, entrant) -> dict | None:
    """On a guest player's card, for a signed-in person: the club to claim the guest from,
    and their claim if it is waiting already."""
    user = request.user
    guest = unclaimed_guest(entrant.user_id)
    if guest is None or not user.is_authenticated or user.is_guest:
        return None
    return {"club": guest.club, "waiting": guest_claim_waiting(entrant.user, user)}


def tournament_audit(request, slug: str):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/audit.html",
        _context(
            request,
            tournament,
            changes=selectors.result_changes(tournament),
            actions=selectors.director_actions(tournament),
        ),
    )


def tournament_export(request, slug: str, kind: str):
    tournament = _tournament(slug)
    body, content_type, filename = exports.export(tournament, kind)  # NotFound: a 404 page
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
def tournament_action(request, slug: str, action: str):
    tournament = _tournament(slug)
    back = tournament.get_absolute_url()
    data = request.POST
    try:
        upload = request.FILES.get("players_file")
        if upload is not None:  # an entry list uploaded: its text is the list
            data = data.copy()
            data["players"] = uploaded_text(upload)
        outcome = actions.perform(
            action, tournament=tournament, actor=request.user, data=data, now=timezone.now()
        )
    except ServiceError as error:
        if error.status == 403:
            return render(
                request, "403.html", {"detail": error.detail, "back": tournament}, status=403
            )
        messages.error(request, error.detail)
        return redirect(_came_from(request) or back)  # show the refusal where the director was
    messages.success(request, outcome.message)
    for warning in outcome.warnings:
        messages.warning(request, _("Warning: %(warning)s") % {"warning": warning})
    return redirect(back + outcome.page)


def uploaded_text(upload) -> str:
    """An uploaded list's text: UTF-8 (with or without the mark spreadsheets write), else
    Windows-1252 (Excel's CSV on many machines); refused over the list's size."""
    if upload.size > MAX_LIST_CHARS:
        raise InvalidInput(
            _("The file has more than %(most)s bytes; enter the list in parts.")
            % {"most": MAX_LIST_CHARS},
            code="list_too_long",
        )
    raw = upload.read()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _came_from(request) -> str | None:
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return None
