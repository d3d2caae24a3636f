from django.db.models import Count, Q, QuerySet

from accounts.models import User

from .models import Club, JoinRequest, Membership


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
