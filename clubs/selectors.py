from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import NotFound

from .models import Club, GuestClaim, GuestPlayer, JoinRequest, Membership


def club_search(query: str = "") -> QuerySet[Club]:
    clubs = Club.objects.annotate(member_count=Count("memberships"))
    query = query.strip()
    if query:
        clubs = clubs.filter(
            Q(name__icontains=query)
            | Q(location__icontains=query)
            | Q(description__icontains=query)
        )
    return clubs.order_by("name")


def club_members(club: Club) -> QuerySet[Membership]:
    order = {"owner": 0, "admin": 1, "member": 2}
    from django.db.models import Case, IntegerField, Value, When

    return (
        Membership.objects.filter(club=club)
        .select_related("user")
        .annotate(
            role_order=Case(
                *[When(role=role, then=Value(rank)) for role, rank in order.items()],
                output_field=IntegerField(),
            )
        )
        .order_by("role_order", "user__username")
    )


def club_pending_requests(club: Club) -> QuerySet[JoinRequest]:
    return (
        JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING)
        .select_related("user")
        .order_by("created_at")
    )


def membership_of(club: Club, user: User) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def guest_claims_pending(club: Club) -> list[GuestClaim]:
    """The club's claims of guest players waiting for an admin (of guests not handed over
    meanwhile), oldest first."""
    return list(
        GuestClaim.objects.filter(
            guest__club=club, guest__claimed_by__isnull=True, status=GuestClaim.Status.PENDING
        )
        .select_related("guest__user", "account")
        .order_by("created_at", "pk")
    )


def guest_claim_waiting(guest: User, account: User) -> GuestClaim | None:
    """The account's claim of the guest, while it waits for an admin."""
    return GuestClaim.objects.filter(
        guest__user=guest,
        guest__claimed_by__isnull=True,
        account=account,
        status=GuestClaim.Status.PENDING,
    ).first()


def unclaimed_guest(user_id: int) -> GuestPlayer | None:
    """The guest player that account is, while no account has claimed it."""
    return (
        GuestPlayer.objects.filter(user_id=user_id, claimed_by__isnull=True)
        .select_related("club")
        .first()
    )


def club_by_slug(slug: str) -> Club:
    """The club at ``slug``; NotFound (a 404) naming it otherwise."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound(_("There is no club '%(slug)s'.") % {"slug": slug})
    return club


def guest_of_club(club: Club, username: str) -> User:
    """The account of the club's guest player ``username``; NotFound otherwise."""
    guest = User.objects.filter(guest_of__club=club, username=username).first()
    if guest is None:
        raise NotFound(
            _("%(username)s is not a guest player of %(club)s.")
            % {"username": username, "club": club.name}
        )
    return guest
