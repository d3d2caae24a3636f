"""A club's guest players, for its admins: who they are, which events they played, and the
claim that hands a guest's entries to the account of the same person
(:func:`tournaments.services.guest_claim`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.selectors import player_named
from clubs.models import Club, GuestPlayer
from core.errors import NotFound, ServiceError
from tournaments import services
from tournaments.permissions import is_club_admin


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
    return render(request, "tournaments/guests.html", {"club": club, "guests": guests})


@login_required
@require_POST
def club_guest_claim(request, club_slug: str, username: str):
    club = get_object_or_404(Club, slug=club_slug)
    refused = _admin_only(request, club)
    if refused:
        return refused
    back = redirect("club-guests", club_slug=club.slug)
    guest = User.objects.filter(guest_of__club=club, username=username).first()
    try:
        if guest is None:
            raise NotFound(
                _("%(username)s is not a guest player of %(club)s.")
                % {"username": username, "club": club.name}
            )
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
