import pytest

from clubs import services
from clubs.models import Club, JoinRequest, Membership


@pytest.fixture
def club_world(make_player):
    """A by-request club with an owner, an admin, a member, an outsider and a pending request."""
    owner = make_player("owner")
    admin = make_player("admin1")
    admin2 = make_player("admin2")
    member = make_player("member")
    member2 = make_player("member2")
    outsider = make_player("outsider")
    applicant = make_player("applicant")
    club = services.club_create(owner=owner, name="Daisy Club", admission=Club.Admission.OPEN)
    for user in (admin, admin2, member, member2):
        services.club_join(user=user, club=club)
    services.club_member_promote(actor=owner, club=club, user=admin)
    services.club_member_promote(actor=owner, club=club, user=admin2)
    services.club_update(actor=owner, club=club, admission=Club.Admission.REQUEST)
    club.refresh_from_db()
    request = services.club_join(user=applicant, club=club, message="hi")
    return {
        "club": club,
        "owner": owner,
        "admin": admin,
        "admin2": admin2,
        "member": member,
        "member2": member2,
        "outsider": outsider,
        "applicant": applicant,
        "request": request,
    }


def club_state(club: Club) -> tuple:
    """Everything a club action could change, to prove that a refused action changed nothing."""
    fresh = (
        Club.objects.filter(pk=club.pk)
        .values("name", "description", "location", "admission")
        .first()
    )
    members = sorted(
        Membership.objects.filter(club_id=club.pk).values_list("user__username", "role")
    )
    requests = sorted(
        JoinRequest.objects.filter(club_id=club.pk).values_list("user__username", "status")
    )
    return fresh, members, requests
