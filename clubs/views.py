"""Club pages. Every action is a POST that calls one service; refusals become messages."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import player_named
from core.errors import ServiceError

from . import selectors, services
from .forms import ClubForm, TransferForm
from .models import Club, JoinRequest


def club_list(request):
    query = request.GET.get("q", "")
    page = Paginator(selectors.club_search(query), 30).get_page(request.GET.get("page"))
    return render(request, "clubs/club_list.html", {"page": page, "query": query.strip()})


@login_required
def club_create(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(owner=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(
                request, _("%(name)s is open. You are its owner.") % {"name": club.name}
            )
            return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "creating": True})


def club_detail(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    membership = selectors.membership_of(club, request.user)
    pending = None
    if request.user.is_authenticated and membership is None:
        pending = JoinRequest.objects.filter(
            club=club, user=request.user, status=JoinRequest.Status.PENDING
        ).first()
    context = {
        "club": club,
        "membership": membership,
        "members": selectors.club_members(club),
        "requests": (
            selectors.club_pending_requests(club) if membership and membership.is_admin else None
        ),
        "pending_request": pending,
        "transfer_form": TransferForm(),
    }
    return render(request, "clubs/club_detail.html", context)


@login_required
def club_edit(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    membership = selectors.membership_of(club, request.user)
    if membership is None or not membership.is_admin:
        detail = _("Only an admin of %(name)s may edit the club.") % {"name": club.name}
        return render(request, "403.html", {"detail": detail, "back": club}, status=403)
    initial = {f: getattr(club, f) for f in ("name", "location", "description", "admission")}
    form = ClubForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(actor=request.user, club=club, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, _("Club saved."))
            return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "club": club})


@login_required
@require_POST
def club_action(request, slug: str, action: str):
    club = get_object_or_404(Club, slug=slug)
    actor = request.user
    try:
        match action:
            case "join":
                outcome = services.club_join(
                    user=actor, club=club, message=request.POST.get("message", "")
                )
                if isinstance(outcome, JoinRequest):
                    messages.success(
                        request, _("Request sent: an admin will approve or decline it.")
                    )
                else:
                    messages.success(request, _("Welcome to %(name)s!") % {"name": club.name})
            case "withdraw":
                services.club_request_withdraw(user=actor, club=club)
                messages.success(request, _("Request withdrawn."))
            case "leave":
                services.club_leave(user=actor, club=club)
                messages.success(request, _("You left %(name)s.") % {"name": club.name})
            case "remove" | "promote" | "demote":
                target = player_named(request.POST.get("username", ""))
                service, said = {
                    "remove": (services.club_member_remove, _("%(username)s was removed.")),
                    "promote": (services.club_member_promote, _("%(username)s is now an admin.")),
                    "demote": (services.club_member_demote, _("%(username)s is a member again.")),
                }[action]
                service(actor=actor, club=club, user=target)
                messages.success(request, said % {"username": target.username})
            case "transfer":
                target = player_named(request.POST.get("username", ""))
                services.club_ownership_transfer(actor=actor, club=club, user=target)
                messages.success(
                    request,
                    _("%(username)s now owns %(name)s.")
                    % {"username": target.username, "name": club.name},
                )
            case "approve" | "decline":
                request_id = int(request.POST.get("request_id", "0") or 0)
                service = (
                    services.club_request_approve
                    if action == "approve"
                    else services.club_request_decline
                )
                decided = service(actor=actor, club=club, request_id=request_id)
                messages.success(
                    request,
                    (
                        _("Request of %(username)s approved.")
                        if decided.status == "approved"
                        else _("Request of %(username)s declined.")
                    )
                    % {"username": decided.user.username},
                )
            case "delete":
                services.club_delete(actor=actor, club=club)
                messages.success(request, _("%(name)s was deleted.") % {"name": club.name})
                return redirect("club-list")
            case _:
                raise Http404(_("Unknown club action %(action)s") % {"action": action})
    except ServiceError as error:
        if error.status == 403:
            return render(request, "403.html", {"detail": error.detail, "back": club}, status=403)
        messages.error(request, error.detail)
    except ValueError:
        messages.error(request, _("That request id is not a number."))
    return redirect(club)
