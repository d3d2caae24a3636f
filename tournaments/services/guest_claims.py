"""A player claims a guest player ("this guest is me"); an admin of the guest's club accepts,
and the guest's entries become the player's (:func:`.entries.guest_claim`), or declines. Both
sides are told (notifications ``guest_claim_request`` and ``guest_claim_decided``).

Lock order, as everywhere: the guest's events' rows first (inside ``guest_claim``), then the
guest player's row, then the claim's.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import User
from clubs.models import Club, GuestClaim, GuestPlayer, Membership
from core.errors import Conflict, NotFound
from notifications.services import notification_create
from tournaments.permissions import ADMIN_ROLES, require_club_admin
from tournaments.services.entries import (
    check_no_clash,
    check_person,
    guest_claim,
    locked_unclaimed_guest,
)


def guest_claim_ask(
    *, club: Club, guest: User, account: User, message: str = "", now: datetime
) -> GuestClaim:
    """``account`` says it is the guest player ``guest`` of ``club``: a pending claim, and a
    notification to each admin of the club. Refused when the guest is claimed already, when the
    account plays in one of the guest's events, or when the same claim is waiting already."""
    check_person(account)
    with transaction.atomic():
        record = locked_unclaimed_guest(club, guest)
        if GuestClaim.objects.filter(
            guest=record, account=account, status=GuestClaim.Status.PENDING
        ).exists():
            raise Conflict(
                gettext("Your claim of %(name)s is already waiting for an admin of %(club)s.")
                % {"name": guest.shown_name, "club": club.name},
                code="claim_pending",
            )
        check_no_clash(guest, account)
        claim = GuestClaim.objects.create(
            guest=record, account=account, message=" ".join(message.split())[:300], created_at=now
        )
        admins = Membership.objects.filter(club=club, role__in=ADMIN_ROLES).select_related("user")
        for membership in admins:
            notification_create(
                user=membership.user,
                kind="guest_claim_request",
                key=f"guest_claim_request:{claim.pk}",
                data={"club": club.name, "guest": guest.shown_name, "from": account.username},
                url=reverse("club-guests", args=[club.slug]),
                now=now,
            )
    return claim


def guest_claim_decide(
    *, club: Club, actor: User, claim_id: int, accept: bool, now: datetime
) -> GuestClaim:
    """An admin of ``club`` accepts a pending claim (the guest's entries become the account's;
    the guest's other pending claims are declined) or declines it; the claimants are told."""
    require_club_admin(club, actor, gettext("decide on claims of its guest players"))
    claim = (
        GuestClaim.objects.filter(pk=claim_id, guest__club=club)
        .select_related("guest__user", "account")
        .first()
    )
    if claim is None:
        raise NotFound(
            gettext("%(club)s has no claim with id %(claim_id)s.")
            % {"club": club.name, "claim_id": claim_id}
        )
    guest, account = claim.guest.user, claim.account
    with transaction.atomic():
        if accept:
            guest_claim(club=club, actor=actor, guest=guest, account=account, now=now)
        else:
            GuestPlayer.objects.select_for_update().filter(pk=claim.guest_id).first()
        claim = GuestClaim.objects.select_for_update().get(pk=claim.pk)
        if claim.status != GuestClaim.Status.PENDING:
            raise Conflict(
                gettext("That claim was accepted already.")
                if claim.status == GuestClaim.Status.ACCEPTED
                else gettext("That claim was declined already."),
                code="claim_decided",
            )
        decided = [claim]
        if accept:
            decided += list(
                GuestClaim.objects.select_for_update()
                .filter(guest_id=claim.guest_id, status=GuestClaim.Status.PENDING)
                .exclude(pk=claim.pk)
                .select_related("account")
            )
        for each in decided:
            each.status = (
                GuestClaim.Status.ACCEPTED
                if accept and each.pk == claim.pk
                else GuestClaim.Status.DECLINED
            )
            each.decided_at, each.decided_by = now, actor
            each.save(update_fields=["status", "decided_at", "decided_by"])
            notification_create(
                user=each.account,
                kind="guest_claim_decided",
                key=f"guest_claim_decided:{each.pk}",
                data={
                    "club": club.name,
                    "guest": guest.shown_name,
                    "accepted": each.status == GuestClaim.Status.ACCEPTED,
                },
                url=account.get_absolute_url() if each.pk == claim.pk and accept else "",
                now=now,
            )
    return claim
