"""A player claims a guest player ("this guest is me") from the guest's card; an admin of the
guest's club accepts (the entries move, the player's profile shows the event) or declines; both
sides are notified once; refusals change nothing (issue 25, item 2: guests claimable later by
an account)."""

import pytest
from django.urls import reverse

from clubs.models import GuestClaim, GuestPlayer
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from notifications.models import Notification
from tournaments import services
from tournaments.models import Entrant
from tournaments.services.guest_claims import guest_claim_ask, guest_claim_decide

from .conftest import T0, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest_event(club_with_members, make_player):
    club, owner, players = club_with_members
    tournament = services.tournament_create(
        club=club, actor=owner, name="Weekend Open", entry="open", play_mode="otb", rated=False
    )
    services.entries_import(tournament=tournament, actor=owner, text="p1\nBob Jones\np2\np3")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    guest = GuestPlayer.objects.get().user
    bob = make_player("bobby", display_name="Bob Jones")
    return club, owner, players, tournament, guest, bob


def test_a_player_asks_and_the_admins_are_told_once(guest_event):
    club, owner, players, tournament, guest, bob = guest_event
    claim = guest_claim_ask(club=club, guest=guest, account=bob, message=" it is  me ", now=at(1))
    assert (claim.status, claim.message) == ("pending", "it is me")
    told = Notification.objects.filter(kind="guest_claim_request")
    assert [n.user for n in told] == [owner]
    with pytest.raises(Conflict, match="already waiting"):
        guest_claim_ask(club=club, guest=guest, account=bob, now=at(2))
    assert told.count() == 1 and GuestClaim.objects.count() == 1


def test_the_admin_accepts_the_entries_move_and_the_other_claims_are_declined(guest_event):
    club, owner, players, tournament, guest, bob = guest_event
    mine = guest_claim_ask(club=club, guest=guest, account=bob, now=at(1))
    other = guest_claim_ask(club=club, guest=guest, account=players[6], now=at(2))
    with pytest.raises(NotAllowed):
        guest_claim_decide(club=club, actor=players[0], claim_id=mine.pk, accept=True, now=at(3))
    guest_claim_decide(club=club, actor=owner, claim_id=mine.pk, accept=True, now=at(3))
    assert Entrant.objects.get(tournament=tournament, user=bob).pairing_number is not None
    assert not Entrant.objects.filter(user=guest).exists()
    assert GuestPlayer.objects.get().claimed_by == bob
    mine.refresh_from_db()
    other.refresh_from_db()
    assert (mine.status, other.status) == ("accepted", "declined")
    decided = {
        n.user: n.data["accepted"] for n in Notification.objects.filter(kind="guest_claim_decided")
    }
    assert decided == {bob: True, players[6]: False}
    with pytest.raises(Conflict, match="accepted already"):
        guest_claim_decide(club=club, actor=owner, claim_id=mine.pk, accept=False, now=at(4))
    with pytest.raises(Conflict, match="claimed already"):
        guest_claim_ask(club=club, guest=guest, account=players[7], now=at(5))


def test_a_declined_claim_moves_nothing(guest_event):
    club, owner, players, tournament, guest, bob = guest_event
    claim = guest_claim_ask(club=club, guest=guest, account=bob, now=at(1))
    guest_claim_decide(club=club, actor=owner, claim_id=claim.pk, accept=False, now=at(2))
    assert Entrant.objects.filter(user=guest, tournament=tournament).exists()
    assert GuestPlayer.objects.get().claimed_by is None
    claim.refresh_from_db()
    assert claim.status == "declined"
    assert guest_claim_ask(club=club, guest=guest, account=bob, now=at(3)).status == "pending"


def test_claims_that_cannot_be_are_refused_and_change_nothing(guest_event, club_with_members):
    club, owner, players, tournament, guest, bob = guest_event
    with pytest.raises(Conflict, match="p1 is entered in Weekend Open too"):
        guest_claim_ask(club=club, guest=guest, account=players[0], now=at(1))
    with pytest.raises(InvalidInput, match="not an account a person logs in with"):
        guest_claim_ask(club=club, guest=guest, account=guest, now=at(1))
    with pytest.raises(NotFound):
        guest_claim_ask(club=club, guest=bob, account=players[5], now=at(1))
    with pytest.raises(NotFound):
        guest_claim_decide(club=club, actor=owner, claim_id=999, accept=True, now=at(1))
    assert not GuestClaim.objects.exists()
    assert not Notification.objects.filter(kind__startswith="guest_claim").exists()


def test_an_accept_that_clashes_by_now_changes_nothing(guest_event):
    """Bob entered the event after asking: the admin's accept is refused whole."""
    club, owner, players, tournament, guest, bob = guest_event
    claim = guest_claim_ask(club=club, guest=guest, account=bob, now=at(1))
    Entrant.objects.create(tournament=tournament, user=bob, rating=1500)
    with pytest.raises(Conflict, match="bobby is entered in Weekend Open too"):
        guest_claim_decide(club=club, actor=owner, claim_id=claim.pk, accept=True, now=at(2))
    claim.refresh_from_db()
    assert claim.status == "pending" and Entrant.objects.filter(user=guest).exists()


def test_the_card_offers_the_claim_and_the_guests_page_decides(guest_event, client):
    club, owner, players, tournament, guest, bob = guest_event
    card = reverse("tournament-card", args=[tournament.slug, guest.username])
    assert 'id="guest-claim"' not in client.get(card).content.decode()  # signed out
    client.force_login(bob)
    page = client.get(card).content.decode()
    assert 'id="guest-claim"' in page and "This is me" in page
    ask = reverse("club-guest-ask", args=[club.slug, guest.username])
    answer = client.post(ask, {"next": card, "message": "my first open"})
    assert answer.status_code == 302 and answer["Location"] == card
    assert "waiting for an admin of Swiss Club" in client.get(card).content.decode()
    evil = client.post(ask, {"next": "https://evil.example/"})
    assert evil["Location"] == club.get_absolute_url()  # and the second claim is refused
    assert GuestClaim.objects.count() == 1

    client.force_login(owner)
    guests = client.get(reverse("club-guests", args=[club.slug])).content.decode()
    assert 'id="guest-claims"' in guests and "my first open" in guests
    claim = GuestClaim.objects.get()
    decide = reverse("club-guest-decide", args=[club.slug, claim.pk, "accept"])
    client.force_login(players[0])
    assert client.post(decide).status_code == 403
    client.force_login(owner)
    assert (
        client.post(reverse("club-guest-decide", args=[club.slug, claim.pk, "maybe"])).status_code
        == 302
    )
    assert client.post(decide).status_code == 302
    assert GuestPlayer.objects.get().claimed_by == bob
    profile = client.get(bob.get_absolute_url()).content.decode()
    assert "Weekend Open" in profile
    assert (
        'id="guest-claims"'
        not in client.get(reverse("club-guests", args=[club.slug])).content.decode()
    )


def test_the_api_claims_lists_and_decides(guest_event, api):
    club, owner, players, tournament, guest, bob = guest_event
    base = f"/api/v1/tournaments/guests/{club.slug}/"
    asked = api(bob).post(f"{base}{guest.username}/claim/", {"message": "me"}, format="json")
    assert asked.status_code == 201, asked.json()
    body = asked.json()
    assert (body["guest"], body["account"], body["status"]) == (guest.username, "bobby", "pending")
    again = api(bob).post(f"{base}{guest.username}/claim/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "claim_pending"
    nobody = api(bob).post(f"{base}nobody/claim/", {}, format="json")
    assert nobody.status_code == 404 and "not a guest player" in nobody.json()["detail"]
    assert api(players[0]).get(f"{base}claims/").status_code == 403
    listed = api(owner).get(f"{base}claims/").json()
    assert [c["id"] for c in listed] == [body["id"]]
    assert api(players[0]).post(f"{base}claims/{body['id']}/accept/").status_code == 403
    accepted = api(owner).post(f"{base}claims/{body['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    twice = api(owner).post(f"{base}claims/{body['id']}/decline/")
    assert twice.status_code == 409 and twice.json()["error"] == "claim_decided"
    assert api(owner).get(f"{base}claims/").json() == []
    assert api(owner).get("/api/v1/tournaments/guests/no-club/claims/").status_code == 404
