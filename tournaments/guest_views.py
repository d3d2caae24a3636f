"""A club's guest players, for its admins: who they are, which events they played, and the
claim that hands a guest's entries to the account of the same person
(:func:`tournaments.services.guest_claim`); a player's own claim of a guest ("this is me",
from the guest's card in an event), which an admin accepts or declines
(:mod:`tournaments.services.guest_claims`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.selectors import player_named
from clubs.models import Club, GuestPlayer
from clubs.selectors import guest_claims_pending, guest_of_club
from core.errors import ServiceError
from tournaments import services
from tournaments.permissions import is_club_admin
from tournaments.services.guest_claims import guest_claim_ask, guest_claim_decide


def _admin_only(request, club: Club):
    if is_club_admin(club, request.user):
        return None
    detail = _("Only an admin of %(name)s may see its guest players.") % {"name": club.name}
    return render(request, "403.html", {"detail": detail, "back": club}, status=403)


@login_required
def club_guests(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    refused = _admin_only(request, club)
    if refused:
        return refused
    guests = (
        GuestPlayer.objects.filter(club=club)
        .select_related("user", "claimed_by")
        .annotate(events=Count("user__tournament_entries"))
        .order_by("claimed_by", "user__display_name")
    )
    return render(
        request,
        "tournaments/guests.html",
        {"club": club, "guests": guests, "claims": guest_claims_pending(club)},
    )


@login_required
@require_POST
def club_guest_claim(request, club_slug: str, username: str):
    club = get_object_or_404(Club, slug=club_slug)
    refused = _admin_only(request, club)
    if refused:
        return refused
    back = redirect("club-guests", club_slug=club.slug)
    try:
        guest = guest_of_club(club, username)
        account = player_named(request.POST.get("account", ""))
        moved = services.guest_claim(
            club=club, actor=request.user, guest=guest, account=account, now=timezone.now()
        )
    except ServiceError as error:
        messages.error(request, error.detail)
        return back
    messages.success(
        request,
        ngettext(
            "The entry of %(guest)s is now %(username)s's.",
            "The %(count)s entries of %(guest)s are now %(username)s's.",
            moved,
        )
        % {"count": moved, "guest": guest.shown_name, "username": account.username},
    )
    return back


@login_required
@require_POST
def club_guest_ask(request, club_slug: str, username: str):
    """A player says a guest player of the club is them (from the guest's card)."""
    club = get_object_or_404(Club, slug=club_slug)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = club.get_absolute_url()
    try:
        guest = guest_of_club(club, username)
        guest_claim_ask(
            club=club,
            guest=guest,
            account=request.user,
            message=request.POST.get("message", ""),
            now=timezone.now(),
        )
    except ServiceError as error:
        messages.error(request, error.detail)
        return redirect(back)
    messages.success(
        request,
        _("Your claim is with the admins of %(club)s: they will hand you the results of %(name)s.")
        % {"club": club.name, "name": guest.shown_name},
    )
    return redirect(back)


@login_required
@require_POST
def club_guest_decide(request, club_slug: str, claim_id: int, decision: str):
    club = get_object_or_404(Club, slug=club_slug)
    refused = _admin_only(request, club)
    if refused:
        return refused
    back = redirect("club-guests", club_slug=club.slug)
    if decision not in ("accept", "decline"):
        messages.error(request, _("Accept or decline a claim."))
        return back
    try:
        claim = guest_claim_decide(
            club=club,
            actor=request.user,
            claim_id=claim_id,
            accept=decision == "accept",
            now=timezone.now(),
        )
    except ServiceError as error:
        messages.error(request, error.detail)
        return back
    names = {"guest": claim.guest.user.shown_name, "username": claim.account.username}
    if decision == "accept":
        messages.success(request, _("The results of %(guest)s are now %(username)s's.") % names)
    else:
        messages.success(request, _("The claim of %(username)s on %(guest)s is declined.") % names)
    return back
