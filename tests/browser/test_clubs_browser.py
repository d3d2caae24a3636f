"""Clubs through a real browser, with two players logged in side by side."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, JoinRequest, Membership
from tests.conftest import PASSWORD

# Screenshots for a human look at the layout (an admin's view, and the owner's with a request).
SCREENSHOT = "/tmp/sumito-club.png"
OWNER_SCREENSHOT = "/tmp/sumito-club-owner.png"


def messages(page):
    return page.locator(".messages .message")


def member_row(page, username: str):
    members = page.locator(
        "section.card", has=page.get_by_role("heading", name=re.compile("^Members"))
    )
    return members.locator("tbody tr", has=page.get_by_role("link", name=username, exact=True))


def role_of(club: Club, user) -> str | None:
    membership = Membership.objects.filter(club=club, user=user).first()
    return membership.role if membership else None


def create_club(page, name: str, *, location: str, description: str, admission: str):
    page.goto("/clubs/")
    page.get_by_role("link", name="Create a club").click()
    expect(page).to_have_url(re.compile(r"/clubs/new/$"))
    page.locator("input[name=name]").fill(name)
    page.locator("input[name=location]").fill(location)
    page.locator("textarea[name=description]").fill(description)
    page.locator(f"input[name=admission][value={admission}]").check()
    page.get_by_role("button", name="Create club").click()


@pytest.mark.browser
def test_request_approve_promote_hand_over_and_delete(new_page, make_player, log_in):
    olga = make_player("olga", display_name="Olga K")
    pavel = make_player("pavel")
    owner_page = log_in(new_page(), "olga", PASSWORD)
    pavel_page = log_in(new_page(), "pavel", PASSWORD)

    # The owner creates a by-request club through the form.
    create_club(
        owner_page,
        "Marble Masters",
        location="Ghent",
        description="Tuesday nights.\nBring your own board.",
        admission="request",
    )
    expect(owner_page).to_have_url(re.compile(r"/clubs/marble-masters/$"))
    expect(messages(owner_page)).to_have_text("Marble Masters is open. You are its owner.")
    expect(owner_page.get_by_role("heading", name="Marble Masters")).to_be_visible()
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    expect(owner_page.get_by_text("Ghent · By request: an admin approves")).to_be_visible()
    expect(owner_page.get_by_role("heading", name="Join requests")).to_be_visible()
    expect(owner_page.get_by_text("No pending requests.")).to_be_visible()
    expect(owner_page.locator(".danger-zone")).to_be_visible()
    club = Club.objects.get(slug="marble-masters")
    assert (club.name, club.location, club.admission) == ("Marble Masters", "Ghent", "request")
    # Browsers submit textarea line breaks as CRLF; the site stores them as sent.
    assert club.description.replace("\r\n", "\n") == "Tuesday nights.\nBring your own board."
    expect(owner_page.locator("section.card p", has_text="Tuesday nights.")).to_contain_text(
        "Bring your own board."
    )
    assert role_of(club, olga) == Membership.Role.OWNER

    # The second player asks to join, with a message.
    pavel_page.goto("/clubs/")
    pavel_page.get_by_role("link", name="Marble Masters").click()
    expect(pavel_page.get_by_role("button", name="Join", exact=True)).to_have_count(0)
    pavel_page.get_by_label("Message to the admins").fill("I play on Tuesdays too.")
    pavel_page.get_by_role("button", name="Ask to join").click()
    expect(messages(pavel_page)).to_have_text("Request sent: an admin will approve or decline it.")
    expect(pavel_page.get_by_text("Request pending")).to_be_visible()
    expect(pavel_page.get_by_role("button", name="Withdraw request")).to_be_visible()
    expect(pavel_page.get_by_role("heading", name="Join requests")).to_have_count(0)
    request = JoinRequest.objects.get(club=club, user=pavel)
    assert (request.status, request.message) == ("pending", "I play on Tuesdays too.")
    assert role_of(club, pavel) is None

    # The owner reloads, sees the request and approves it.
    owner_page.reload()
    requests = owner_page.locator("section.card", has_text="Join requests")
    request_row = requests.locator("tr", has_text="pavel")
    expect(request_row).to_contain_text("I play on Tuesdays too.")
    owner_page.screenshot(path=OWNER_SCREENSHOT, full_page=True)
    request_row.get_by_role("button", name="Approve").click()
    expect(messages(owner_page)).to_have_text("Request of pavel approved.")
    expect(owner_page.get_by_text("No pending requests.")).to_be_visible()
    expect(member_row(owner_page, "pavel")).to_contain_text("Member")
    expect(owner_page.get_by_role("heading", name="Members (2)")).to_be_visible()
    request.refresh_from_db()
    assert request.status == JoinRequest.Status.APPROVED
    assert request.decided_by == olga
    assert request.decided_at is not None
    assert role_of(club, pavel) == Membership.Role.MEMBER

    # The second player now sees themself as a member.
    pavel_page.reload()
    expect(pavel_page.get_by_text("You: Member")).to_be_visible()
    expect(pavel_page.get_by_role("button", name="Leave")).to_be_visible()
    expect(pavel_page.get_by_text("Request pending")).to_have_count(0)
    expect(pavel_page.get_by_role("link", name="Edit")).to_have_count(0)
    expect(pavel_page.get_by_role("button", name="Make admin")).to_have_count(0)

    # The owner promotes them to admin.
    member_row(owner_page, "pavel").get_by_role("button", name="Make admin").click()
    expect(messages(owner_page)).to_have_text("pavel is now an admin.")
    expect(member_row(owner_page, "pavel").locator(".badge.role-admin")).to_have_text("Admin")
    expect(
        member_row(owner_page, "pavel").get_by_role("button", name="Make member")
    ).to_be_visible()
    assert role_of(club, pavel) == Membership.Role.ADMIN

    # As an admin they see the requests and the Edit link, but not the owner's danger zone,
    # nor any action on the owner's row.
    pavel_page.reload()
    expect(pavel_page.get_by_text("You: Admin")).to_be_visible()
    expect(pavel_page.get_by_role("heading", name="Join requests")).to_be_visible()
    expect(pavel_page.get_by_role("link", name="Edit")).to_be_visible()
    expect(pavel_page.locator(".danger-zone")).to_have_count(0)
    expect(pavel_page.get_by_role("button", name="Hand over ownership")).to_have_count(0)
    expect(pavel_page.get_by_role("button", name="Delete the club")).to_have_count(0)
    expect(member_row(pavel_page, "olga").get_by_role("button")).to_have_count(0)

    pavel_page.screenshot(path=SCREENSHOT, full_page=True)

    # The owner hands over ownership (the username is matched ignoring case).
    owner_page.get_by_label("New owner's username").fill("Pavel")
    owner_page.get_by_role("button", name="Hand over ownership").click()
    expect(messages(owner_page)).to_have_text("pavel now owns Marble Masters.")
    expect(owner_page.get_by_text("You: Admin")).to_be_visible()
    expect(owner_page.locator(".danger-zone")).to_have_count(0)
    expect(owner_page.get_by_role("button", name="Leave")).to_be_visible()
    expect(member_row(owner_page, "pavel").locator(".badge.role-owner")).to_have_text("Owner")
    assert role_of(club, pavel) == Membership.Role.OWNER
    assert role_of(club, olga) == Membership.Role.ADMIN
    assert Membership.objects.filter(club=club, role=Membership.Role.OWNER).count() == 1

    pavel_page.reload()
    expect(pavel_page.get_by_text("You: Owner")).to_be_visible()
    expect(pavel_page.locator(".danger-zone")).to_be_visible()
    expect(pavel_page.get_by_role("button", name="Leave")).to_have_count(0)

    # The new owner demotes the former owner; the former owner then leaves.
    member_row(pavel_page, "olga").get_by_role("button", name="Make member").click()
    expect(messages(pavel_page)).to_have_text("olga is a member again.")
    assert role_of(club, olga) == Membership.Role.MEMBER
    owner_page.reload()
    expect(owner_page.get_by_text("You: Member")).to_be_visible()
    expect(owner_page.get_by_role("heading", name="Join requests")).to_have_count(0)
    owner_page.get_by_role("button", name="Leave").click()
    expect(messages(owner_page)).to_have_text("You left Marble Masters.")
    expect(owner_page.get_by_role("button", name="Ask to join")).to_be_visible()
    assert role_of(club, olga) is None

    # Deleting asks for confirmation: dismissing keeps the club, accepting deletes it.
    pavel_page.reload()
    expect(pavel_page.get_by_role("heading", name="Members (1)")).to_be_visible()
    pavel_page.once("dialog", lambda dialog: dialog.dismiss())
    pavel_page.get_by_role("button", name="Delete the club").click()
    expect(pavel_page).to_have_url(re.compile(r"/clubs/marble-masters/$"))
    assert Club.objects.filter(pk=club.pk).exists()
    dialogs = []

    def accept(dialog):
        dialogs.append(dialog.message)
        dialog.accept()

    pavel_page.once("dialog", accept)
    pavel_page.get_by_role("button", name="Delete the club").click()
    expect(pavel_page).to_have_url(re.compile(r"/clubs/$"))
    expect(messages(pavel_page)).to_have_text("Marble Masters was deleted.")
    expect(pavel_page.get_by_text("No clubs match.")).to_be_visible()
    assert dialogs == ["Delete Marble Masters for good?"]
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Membership.objects.filter(club_id=club.pk).exists()
    assert not JoinRequest.objects.filter(club_id=club.pk).exists()


@pytest.mark.browser
def test_decline_withdraw_and_open_club(new_page, make_player, log_in):
    olga = make_player("olga")
    pavel = make_player("pavel")
    owner_page = log_in(new_page(), "olga", PASSWORD)
    pavel_page = log_in(new_page(), "pavel", PASSWORD)
    create_club(owner_page, "Daisy Club", location="Lyon", description="", admission="request")
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    create_club(owner_page, "Open Marbles", location="Paris", description="", admission="open")
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    daisy = Club.objects.get(name="Daisy Club")
    open_club = Club.objects.get(name="Open Marbles")

    # Search the list, then ask to join without a message and withdraw.
    pavel_page.goto("/clubs/")
    pavel_page.get_by_label("Search clubs").fill("lyon")
    pavel_page.get_by_role("button", name="Search").click()
    expect(pavel_page).to_have_url(re.compile(r"/clubs/\?q=lyon$"))
    expect(pavel_page.get_by_role("link", name="Daisy Club")).to_be_visible()
    expect(pavel_page.get_by_role("link", name="Open Marbles")).to_have_count(0)
    pavel_page.get_by_role("link", name="Daisy Club").click()
    pavel_page.get_by_role("button", name="Ask to join").click()
    expect(pavel_page.get_by_text("Request pending")).to_be_visible()
    pavel_page.get_by_role("button", name="Withdraw request").click()
    expect(messages(pavel_page)).to_have_text("Request withdrawn.")
    expect(pavel_page.get_by_role("button", name="Ask to join")).to_be_visible()
    assert JoinRequest.objects.get(club=daisy, user=pavel).status == "withdrawn"

    owner_page.goto(daisy.get_absolute_url())
    expect(owner_page.get_by_text("No pending requests.")).to_be_visible()

    # Ask again; the owner declines.
    pavel_page.get_by_label("Message to the admins").fill("Second try")
    pavel_page.get_by_role("button", name="Ask to join").click()
    expect(pavel_page.get_by_text("Request pending")).to_be_visible()
    owner_page.reload()
    row = owner_page.locator("section.card", has_text="Join requests").locator(
        "tr", has_text="pavel"
    )
    expect(row).to_contain_text("Second try")
    row.get_by_role("button", name="Decline").click()
    expect(messages(owner_page)).to_have_text("Request of pavel declined.")
    expect(owner_page.get_by_text("No pending requests.")).to_be_visible()
    expect(member_row(owner_page, "pavel")).to_have_count(0)
    declined = JoinRequest.objects.get(club=daisy, user=pavel, message="Second try")
    assert (declined.status, declined.decided_by) == ("declined", olga)
    assert role_of(daisy, pavel) is None
    pavel_page.reload()
    expect(pavel_page.get_by_role("button", name="Ask to join")).to_be_visible()

    # An open club is joined at once; the owner removes the member.
    pavel_page.goto(open_club.get_absolute_url())
    expect(pavel_page.get_by_label("Message to the admins")).to_have_count(0)
    pavel_page.get_by_role("button", name="Join", exact=True).click()
    expect(messages(pavel_page)).to_have_text("Welcome to Open Marbles!")
    expect(pavel_page.get_by_text("You: Member")).to_be_visible()
    assert role_of(open_club, pavel) == Membership.Role.MEMBER
    assert not JoinRequest.objects.filter(club=open_club).exists()

    owner_page.goto(open_club.get_absolute_url())
    member_row(owner_page, "pavel").get_by_role("button", name="Remove").click()
    expect(messages(owner_page)).to_have_text("pavel was removed.")
    expect(member_row(owner_page, "pavel")).to_have_count(0)
    assert role_of(open_club, pavel) is None
    pavel_page.reload()
    expect(pavel_page.get_by_role("button", name="Join", exact=True)).to_be_visible()


@pytest.mark.browser
def test_refused_hand_overs_and_anonymous_visitor(new_page, make_player, log_in):
    olga = make_player("olga")
    stranger = make_player("stranger")
    owner_page = log_in(new_page(), "olga", PASSWORD)
    create_club(owner_page, "Lone Marble", location="", description="", admission="open")
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    expect(owner_page.get_by_role("button", name="Leave")).to_have_count(0)
    club = Club.objects.get(slug="lone-marble")

    # Handing the club to a player who is not a member, or to oneself, is refused with a message.
    for username, refusal in [
        ("stranger", "stranger is not a member of Lone Marble."),
        ("OLGA", "You already own this club."),
    ]:
        owner_page.get_by_label("New owner's username").fill(username)
        owner_page.get_by_role("button", name="Hand over ownership").click()
        expect(owner_page).to_have_url(re.compile(r"/clubs/lone-marble/$"))
        expect(owner_page.locator(".messages .message.error")).to_have_text(refusal)
        expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    assert role_of(club, olga) == Membership.Role.OWNER
    assert role_of(club, stranger) is None

    # An anonymous visitor is offered to log in and comes back to the club.
    visitor = new_page()
    visitor.goto("/clubs/lone-marble/")
    expect(visitor.get_by_role("button", name="Join", exact=True)).to_have_count(0)
    visitor.get_by_role("link", name="Log in to join").click()
    expect(visitor).to_have_url(re.compile(r"/accounts/login/\?next=/clubs/lone-marble/$"))
    visitor.get_by_label("Username").fill("Stranger")
    visitor.get_by_label("Password").fill(PASSWORD)
    visitor.get_by_role("button", name="Log in").click()
    expect(visitor).to_have_url(re.compile(r"/clubs/lone-marble/$"))
    visitor.get_by_role("button", name="Join", exact=True).click()
    expect(visitor.get_by_text("You: Member")).to_be_visible()
    assert role_of(club, stranger) == Membership.Role.MEMBER


@pytest.mark.browser
def test_hand_over_to_unknown_username_is_refused_with_a_message(new_page, make_player, log_in):
    make_player("olga")
    owner_page = log_in(new_page(), "olga", PASSWORD)
    create_club(owner_page, "Lone Marble", location="", description="", admission="open")
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
    owner_page.get_by_label("New owner's username").fill("nobody-here")
    with owner_page.expect_navigation():
        owner_page.get_by_role("button", name="Hand over ownership").click()
    assert owner_page.url.endswith("/clubs/lone-marble/"), owner_page.url
    expect(owner_page.locator(".messages .message.error")).to_contain_text("nobody-here")
    expect(owner_page.get_by_text("You: Owner")).to_be_visible()
