"""Club roles and permissions at the service level: every refusal changes nothing."""

import pytest

from clubs import services
from clubs.models import Club, JoinRequest, Membership
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound

from .conftest import club_state

pytestmark = pytest.mark.django_db


def role(club, user):
    membership = Membership.objects.filter(club=club, user=user).first()
    return membership.role if membership else None


def test_creator_becomes_owner(make_player):
    alice = make_player("alice")
    club = services.club_create(owner=alice, name="  Liège Marbles ", location="Liège")
    assert club.name == "Liège Marbles" and club.slug == "liege-marbles"
    assert role(club, alice) == "owner"


def test_club_names_unique_ignoring_case(make_player):
    services.club_create(owner=make_player(), name="Daisy")
    with pytest.raises(Conflict):
        services.club_create(owner=make_player(), name="DAISY")
    assert Club.objects.count() == 1


@pytest.mark.parametrize("name", ["", " ", "x", "y" * 81])
def test_club_name_length_checked(make_player, name):
    with pytest.raises(InvalidInput):
        services.club_create(owner=make_player(), name=name)
    assert not Club.objects.exists()


def test_bad_admission_refused(make_player):
    with pytest.raises(InvalidInput, match="admission"):
        services.club_create(owner=make_player(), name="Club", admission="secret")


def test_open_club_join_is_immediate(make_player):
    club = services.club_create(owner=make_player(), name="Open")
    bob = make_player("bob")
    membership = services.club_join(user=bob, club=club)
    assert isinstance(membership, Membership) and membership.role == "member"
    with pytest.raises(Conflict):
        services.club_join(user=bob, club=club)


def test_request_club_join_waits_for_approval(club_world):
    world = club_world
    request = world["request"]
    assert isinstance(request, JoinRequest) and request.status == "pending"
    assert role(world["club"], world["applicant"]) is None
    with pytest.raises(Conflict, match="already waiting"):
        services.club_join(user=world["applicant"], club=world["club"])
    services.club_request_approve(actor=world["admin"], club=world["club"], request_id=request.pk)
    assert role(world["club"], world["applicant"]) == "member"
    with pytest.raises(Conflict, match="already approved"):
        services.club_request_decline(
            actor=world["owner"], club=world["club"], request_id=request.pk
        )


def test_decline_and_withdraw(club_world):
    world = club_world
    services.club_request_decline(
        actor=world["owner"], club=world["club"], request_id=world["request"].pk
    )
    assert role(world["club"], world["applicant"]) is None
    again = services.club_join(user=world["applicant"], club=world["club"])
    services.club_request_withdraw(user=world["applicant"], club=world["club"])
    again.refresh_from_db()
    assert again.status == "withdrawn"
    with pytest.raises(NotFound):
        services.club_request_withdraw(user=world["applicant"], club=world["club"])


def test_unknown_request_id_is_not_found(club_world):
    with pytest.raises(NotFound):
        services.club_request_approve(
            actor=club_world["owner"], club=club_world["club"], request_id=999999
        )


def test_members_leave_but_owner_cannot(club_world):
    world = club_world
    services.club_leave(user=world["member"], club=world["club"])
    assert role(world["club"], world["member"]) is None
    with pytest.raises(NotFound):
        services.club_leave(user=world["member"], club=world["club"])
    before = club_state(world["club"])
    with pytest.raises(Conflict, match="hand over ownership"):
        services.club_leave(user=world["owner"], club=world["club"])
    assert club_state(world["club"]) == before


def test_admin_removes_member_but_not_admin_or_owner(club_world):
    world = club_world
    services.club_member_remove(actor=world["admin"], club=world["club"], user=world["member"])
    assert role(world["club"], world["member"]) is None
    before = club_state(world["club"])
    with pytest.raises(NotAllowed, match="Only the owner"):
        services.club_member_remove(actor=world["admin"], club=world["club"], user=world["admin2"])
    with pytest.raises(NotAllowed, match="Nobody can remove the owner"):
        services.club_member_remove(actor=world["admin"], club=world["club"], user=world["owner"])
    assert club_state(world["club"]) == before


def test_owner_removes_admin(club_world):
    world = club_world
    services.club_member_remove(actor=world["owner"], club=world["club"], user=world["admin2"])
    assert role(world["club"], world["admin2"]) is None


def test_remove_self_is_refused(club_world):
    with pytest.raises(Conflict):
        services.club_member_remove(
            actor=club_world["admin"], club=club_world["club"], user=club_world["admin"]
        )


def test_remove_non_member_is_not_found(club_world):
    with pytest.raises(NotFound):
        services.club_member_remove(
            actor=club_world["owner"], club=club_world["club"], user=club_world["outsider"]
        )


def test_promote_and_demote(club_world):
    world = club_world
    services.club_member_promote(actor=world["admin"], club=world["club"], user=world["member"])
    assert role(world["club"], world["member"]) == "admin"
    with pytest.raises(Conflict):
        services.club_member_promote(actor=world["owner"], club=world["club"], user=world["member"])
    services.club_member_demote(actor=world["owner"], club=world["club"], user=world["member"])
    assert role(world["club"], world["member"]) == "member"
    with pytest.raises(Conflict):
        services.club_member_demote(actor=world["owner"], club=world["club"], user=world["member"])


def test_transfer_ownership(club_world):
    world = club_world
    services.club_ownership_transfer(actor=world["owner"], club=world["club"], user=world["member"])
    assert role(world["club"], world["member"]) == "owner"
    assert role(world["club"], world["owner"]) == "admin"
    assert Membership.objects.filter(club=world["club"], role="owner").count() == 1
    # the former owner can now leave, the new one cannot
    services.club_leave(user=world["owner"], club=world["club"])
    with pytest.raises(Conflict):
        services.club_leave(user=world["member"], club=world["club"])


def test_transfer_to_outsider_is_not_found(club_world):
    before = club_state(club_world["club"])
    with pytest.raises(NotFound):
        services.club_ownership_transfer(
            actor=club_world["owner"], club=club_world["club"], user=club_world["outsider"]
        )
    assert club_state(club_world["club"]) == before


def test_owner_deletes_club(club_world):
    services.club_delete(actor=club_world["owner"], club=club_world["club"])
    assert not Club.objects.filter(pk=club_world["club"].pk).exists()


# Every permission: who may not, and that nothing changes when they try.
OWNER_ONLY = {
    "delete": lambda w, a: services.club_delete(actor=a, club=w["club"]),
    "transfer": lambda w, a: services.club_ownership_transfer(
        actor=a, club=w["club"], user=w["member"]
    ),
    "demote": lambda w, a: services.club_member_demote(actor=a, club=w["club"], user=w["admin2"]),
}
ADMIN_ONLY = {
    "update": lambda w, a: services.club_update(actor=a, club=w["club"], name="Hijacked"),
    "approve": lambda w, a: services.club_request_approve(
        actor=a, club=w["club"], request_id=w["request"].pk
    ),
    "decline": lambda w, a: services.club_request_decline(
        actor=a, club=w["club"], request_id=w["request"].pk
    ),
    "promote": lambda w, a: services.club_member_promote(
        actor=a, club=w["club"], user=w["member2"]
    ),
    "remove": lambda w, a: services.club_member_remove(actor=a, club=w["club"], user=w["member2"]),
}
FORBIDDEN = [(name, who) for name in OWNER_ONLY for who in ("admin", "member", "outsider")] + [
    (name, who) for name in ADMIN_ONLY for who in ("member", "outsider", "applicant")
]


@pytest.mark.parametrize(("action", "who"), FORBIDDEN)
def test_action_without_the_role_is_refused_and_changes_nothing(club_world, action, who):
    service = OWNER_ONLY.get(action) or ADMIN_ONLY[action]
    before = club_state(club_world["club"])
    with pytest.raises(NotAllowed):
        service(club_world, club_world[who])
    assert club_state(club_world["club"]) == before


def test_join_request_notification_is_sent_once(club_world):
    from django.core import mail

    request_id = club_world["request"].pk
    assert services.join_request_admins_notify(request_id=request_id) is True
    assert services.join_request_admins_notify(request_id=request_id) is False
    assert len(mail.outbox) == 1
    assert set(mail.outbox[0].to) == {
        "owner@example.org",
        "admin1@example.org",
        "admin2@example.org",
    }
    assert "applicant" in mail.outbox[0].subject


def test_a_notice_the_mail_server_refused_is_sent_again_later(club_world, monkeypatch):
    """The mail server fails: the notice is not marked sent, so the periodic job sends it once
    the server is back (it was marked before sending and the failure swallowed)."""
    from datetime import timedelta
    from smtplib import SMTPServerDisconnected

    from django.core import mail
    from django.core.mail.backends.locmem import EmailBackend
    from django.utils import timezone

    from clubs.models import JoinRequest

    request_id = club_world["request"].pk

    def refuse(self, messages):
        raise SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    assert services.join_request_admins_notify(request_id=request_id) is False
    assert JoinRequest.objects.get(pk=request_id).admins_notified_at is None
    assert len(mail.outbox) == 0
    monkeypatch.undo()
    later = timezone.now() + timedelta(minutes=5)
    assert services.join_requests_notify_pending(now=later) == 1
    assert len(mail.outbox) == 1 and "applicant" in mail.outbox[0].subject
    assert "http" in mail.outbox[0].body  # the club's page, as a whole address
    assert services.join_requests_notify_pending(now=later) == 0  # once


def test_a_request_whose_notice_was_lost_is_notified_by_the_periodic_job(
    make_player, mailoutbox, settings
):
    from datetime import timedelta

    from django.utils import timezone

    from clubs.models import Club, JoinRequest
    from clubs.services import (
        club_create,
        club_join,
        join_requests_notify_pending,
    )

    owner = make_player("lost_owner")
    club = club_create(owner=owner, name="Lost Notice Club", admission=Club.Admission.REQUEST)
    request = club_join(user=make_player("lost_applicant"), club=club)  # its message: lost
    now = timezone.now()
    assert join_requests_notify_pending(now=now) == 0  # too young: its message may be on its way
    later = now + timedelta(seconds=settings.CATCH_UP_SECONDS + 1)
    assert join_requests_notify_pending(now=later) == 1
    assert join_requests_notify_pending(now=later) == 0  # once
    assert [m.to for m in mailoutbox] == [[owner.email]]
    assert JoinRequest.objects.get(pk=request.pk).admins_notified_at == later
