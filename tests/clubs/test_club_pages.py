"""Club pages: the forms work, and refusals are 403 pages that change nothing."""

import pytest
from django.urls import reverse

from clubs.models import Club, JoinRequest, Membership

from .conftest import club_state

pytestmark = pytest.mark.django_db


def action(client, club, name, **data):
    return client.post(reverse("club-action", args=[club.slug, name]), data)


def test_list_and_detail_are_public(client, club_world):
    assert "Daisy Club" in client.get(reverse("club-list"), {"q": "dai"}).content.decode()
    page = client.get(reverse("club-detail", args=["daisy-club"])).content.decode()
    assert "owner" in page and "Log in to join" in page
    assert "Join requests" not in page


def test_create_club_through_form(client, make_player):
    client.force_login(make_player("alice"))
    response = client.post(
        reverse("club-create"),
        {"name": "Antwerp Daisy", "location": "Antwerp", "description": "", "admission": "open"},
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="antwerp-daisy")
    assert Membership.objects.get(club=club).role == "owner"


def test_create_club_duplicate_name_shows_form_error(client, club_world):
    client.force_login(club_world["outsider"])
    response = client.post(reverse("club-create"), {"name": "DAISY CLUB", "admission": "open"})
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert Club.objects.count() == 1


def test_admin_sees_requests_and_approves(client, club_world):
    client.force_login(club_world["admin"])
    page = client.get(reverse("club-detail", args=["daisy-club"])).content.decode()
    assert "Join requests" in page and "applicant" in page
    action(client, club_world["club"], "approve", request_id=club_world["request"].pk)
    assert Membership.objects.filter(user=club_world["applicant"]).exists()


def test_join_leave_withdraw_through_pages(client, club_world):
    client.force_login(club_world["outsider"])
    action(client, club_world["club"], "join", message="hello")
    assert JoinRequest.objects.get(user=club_world["outsider"]).status == "pending"
    action(client, club_world["club"], "withdraw")
    assert JoinRequest.objects.get(user=club_world["outsider"]).status == "withdrawn"
    client.force_login(club_world["member"])
    action(client, club_world["club"], "leave")
    assert not Membership.objects.filter(user=club_world["member"]).exists()


def test_conflicts_become_messages(client, club_world):
    client.force_login(club_world["owner"])
    response = action(client, club_world["club"], "leave")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "cannot leave" in page


@pytest.mark.parametrize(
    ("who", "name", "data"),
    [
        ("member", "remove", {"username": "member2"}),
        ("member", "promote", {"username": "member2"}),
        ("admin", "demote", {"username": "admin2"}),
        ("admin", "transfer", {"username": "member"}),
        ("admin", "delete", {}),
        ("outsider", "approve", {"request_id": "REQ"}),
        ("member", "decline", {"request_id": "REQ"}),
    ],
)
def test_forbidden_page_actions_are_403_and_change_nothing(client, club_world, who, name, data):
    data = {k: (str(club_world["request"].pk) if v == "REQ" else v) for k, v in data.items()}
    client.force_login(club_world[who])
    before = club_state(club_world["club"])
    response = action(client, club_world["club"], name, **data)
    assert response.status_code == 403
    assert "Only" in response.content.decode()
    assert club_state(club_world["club"]) == before


def test_edit_page_is_admin_only(client, club_world):
    client.force_login(club_world["member"])
    before = club_state(club_world["club"])
    assert client.get(reverse("club-edit", args=["daisy-club"])).status_code == 403
    response = client.post(
        reverse("club-edit", args=["daisy-club"]), {"name": "Mine", "admission": "open"}
    )
    assert response.status_code == 403
    assert club_state(club_world["club"]) == before


def test_actions_need_login(client, club_world):
    response = action(client, club_world["club"], "join")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_unknown_action_is_404(client, club_world):
    client.force_login(club_world["owner"])
    assert action(client, club_world["club"], "explode").status_code == 404


def test_owner_deletes_club_through_page(client, club_world):
    client.force_login(club_world["owner"])
    response = action(client, club_world["club"], "delete")
    assert response.status_code == 302
    assert not Club.objects.exists()


def test_transfer_to_unknown_player_is_a_message_and_changes_nothing(client, club_world):
    client.force_login(club_world["owner"])
    before = club_state(club_world["club"])
    response = action(client, club_world["club"], "transfer", username="ghost")
    assert response.status_code == 302
    assert "no player called &#x27;ghost&#x27;" in client.get(response["Location"]).content.decode()
    assert club_state(club_world["club"]) == before
