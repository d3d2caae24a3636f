"""A club's teams (PostgreSQL): made by the club's admins, a captain from the club, a roster in
board order (by rating unless the captain sets it, reserves after the regulars, renumbered on
every change), a player on one team of a club, guest players on rosters; who may do what; the
pages and the API, bad input changing nothing."""

import pytest
from django.urls import reverse

from clubs import services as club_services
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from ratings.models import PlayerRating
from teams import selectors, services
from teams.models import Team, TeamMember
from tournaments.services.entries import guest_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_player):
    owner = make_player("owner")
    club = club_services.club_create(owner=owner, name="Ghent")
    players = {}
    for name, rating in (("ann", 1900), ("bob", 2100), ("cid", 1700), ("dan", 1800), ("eve", 0)):
        player = make_player(name, display_name=name.capitalize())
        club_services.club_join(user=player, club=club)
        if rating:
            PlayerRating.objects.create(
                user=player, category="rapid", rating=rating, peak=rating, games=10
            )
        players[name] = player
    return club, owner, players


def boards(team: Team) -> list[tuple[str, bool]]:
    return [(row.username, row.reserve) for row in selectors.roster(team)]


def test_admins_make_teams_with_a_captain_of_the_club(club, make_player):
    club, owner, players = club
    team = services.team_create(club=club, actor=owner, name="  Ghent   1 ", captain=players["ann"])
    assert (team.name, team.captain, team.slug) == ("Ghent 1", players["ann"], "ghent-ghent-1")
    with pytest.raises(Conflict):
        services.team_create(club=club, actor=owner, name="ghent 1")
    with pytest.raises(NotAllowed):
        services.team_create(club=club, actor=players["bob"], name="Ghent 2")
    with pytest.raises(InvalidInput):
        services.team_create(club=club, actor=owner, name="Ghent 2", captain=make_player("zed"))
    with pytest.raises(InvalidInput):
        services.team_create(club=club, actor=owner, name=" ")
    with pytest.raises(InvalidInput):
        services.team_create(club=club, actor=owner, name="Ghent 2", category="bullet")
    assert Team.objects.count() == 1


def test_the_roster_is_in_rating_order_until_the_captain_sets_it(club):
    club, owner, players = club
    team = services.team_create(club=club, actor=owner, name="Ghent 1", captain=players["ann"])
    captain = players["ann"]
    for name in ("ann", "bob", "cid", "dan"):
        services.team_member_add(team=team, actor=captain, user=players[name])
    services.team_member_add(team=team, actor=captain, user=players["eve"], reserve=True)
    assert boards(team) == [
        ("bob", False),
        ("ann", False),
        ("dan", False),
        ("cid", False),
        ("eve", True),
    ]
    services.team_roster_order(
        team=team, actor=captain, usernames=["ann", "bob", "cid", "dan", "eve"]
    )
    assert [row.board for row in selectors.roster(team)] == [1, 2, 3, 4, 5]
    assert [name for name, _ in boards(team)] == ["ann", "bob", "cid", "dan", "eve"]
    services.team_member_reserve(team=team, actor=captain, user=players["bob"], reserve=True)
    assert boards(team)[-2:] == [("bob", True), ("eve", True)]  # reserves after the regulars
    services.team_member_remove(team=team, actor=captain, user=players["cid"])
    assert [row.board for row in selectors.roster(team)] == [1, 2, 3, 4]
    services.team_roster_by_rating(team=team, actor=captain)
    assert boards(team) == [("ann", False), ("dan", False), ("bob", True), ("eve", True)]


def test_a_roster_order_must_name_every_player_once(club):
    club, owner, players = club
    team = services.team_create(club=club, actor=owner, name="Ghent 1")
    for name in ("ann", "bob"):
        services.team_member_add(team=team, actor=owner, user=players[name])
    before = boards(team)
    for order in (["ann"], ["ann", "ann"], ["ann", "bob", "cid"], ["ann", "zed"]):
        with pytest.raises(InvalidInput):
            services.team_roster_order(team=team, actor=owner, usernames=order)
    assert boards(team) == before
    team.refresh_from_db()
    assert not team.order_set_by_hand


def test_a_player_is_on_one_team_of_a_club_and_must_belong_to_it(club, make_player):
    club, owner, players = club
    one = services.team_create(club=club, actor=owner, name="Ghent 1")
    two = services.team_create(club=club, actor=owner, name="Ghent 2")
    services.team_member_add(team=one, actor=owner, user=players["ann"])
    with pytest.raises(Conflict, match="already on Ghent 1"):
        services.team_member_add(team=two, actor=owner, user=players["ann"])
    with pytest.raises(InvalidInput):
        services.team_member_add(team=two, actor=owner, user=make_player("outsider"))
    guest = guest_create(club, "Gus Guest")
    services.team_member_add(team=two, actor=owner, user=guest)
    assert selectors.club_player(club, guest.username) == guest
    assert [row.name for row in selectors.roster(two)] == ["Gus Guest"]
    with pytest.raises(NotFound):
        services.team_member_remove(team=one, actor=owner, user=players["bob"])


def test_the_captain_keeps_the_roster_but_only_admins_change_the_team(club):
    club, owner, players = club
    team = services.team_create(club=club, actor=owner, name="Ghent 1", captain=players["ann"])
    services.team_member_add(team=team, actor=players["ann"], user=players["bob"])
    with pytest.raises(NotAllowed):
        services.team_member_add(team=team, actor=players["bob"], user=players["cid"])
    with pytest.raises(NotAllowed):
        services.team_update(team=team, actor=players["ann"], name="Ann's team")
    with pytest.raises(NotAllowed):
        services.team_delete(team=team, actor=players["ann"])
    services.team_update(team=team, actor=owner, captain=None)
    team.refresh_from_db()
    assert team.captain is None
    with pytest.raises(NotAllowed):  # no longer the captain
        services.team_member_add(team=team, actor=players["ann"], user=players["cid"])
    services.team_delete(team=team, actor=owner)
    assert not TeamMember.objects.exists()


def test_the_pages(club, client):
    club, owner, players = club
    listing = reverse("club-teams", kwargs={"slug": club.slug})
    assert "No team yet." in client.get(listing).content.decode()
    client.force_login(players["bob"])
    refused = client.post(listing, {"name": "Ghent 1", "category": "rapid"})
    assert refused.status_code == 403 and not Team.objects.exists()
    client.force_login(owner)
    made = client.post(listing, {"name": "Ghent 1", "captain": "ann", "category": "rapid"})
    team = Team.objects.get()
    assert made.status_code == 302 and made["Location"] == team.get_absolute_url()
    client.force_login(players["ann"])
    act = lambda action, **data: client.post(  # noqa: E731
        reverse("team-action", kwargs={"slug": team.slug, "action": action}), data
    )
    for name in ("cid", "bob"):
        assert act("add", username=name).status_code == 302
    act("up", username="cid")
    page = client.get(team.get_absolute_url()).content.decode()
    assert page.index("Cid") < page.index("Bob") and "board order set by the captain" in page
    act("add", username="nobody")
    assert (
        "There is no player called &#x27;nobody&#x27;"
        in client.get(team.get_absolute_url()).content.decode()
    )
    client.force_login(players["dan"])
    assert act("remove", username="cid").status_code == 403
    assert [name for name, _ in boards(team)] == ["cid", "bob"]


def test_the_api(club, api):
    club, owner, players = club
    admin, ann, bob = api(owner), api(players["ann"]), api(players["bob"])
    made = admin.post(
        "/api/v1/teams/", {"club": club.slug, "name": "Ghent 1", "captain": "ann"}, format="json"
    )
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    assert (
        bob.post("/api/v1/teams/", {"club": club.slug, "name": "X"}, format="json").status_code
        == 403
    )
    bad = admin.post("/api/v1/teams/", {"club": club.slug, "name": ""}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]
    again = admin.post("/api/v1/teams/", {"club": club.slug, "name": "ghent 1"}, format="json")
    assert again.status_code == 409
    for name in ("ann", "bob", "cid"):
        added = ann.post(f"/api/v1/teams/{slug}/members/", {"username": name}, format="json")
        assert added.status_code == 201, added.content
    assert [row["username"] for row in added.json()["roster"]] == ["bob", "ann", "cid"]
    wrong = ann.post(f"/api/v1/teams/{slug}/roster/", {"order": ["cid"]}, format="json")
    assert wrong.status_code == 400 and "every player" in wrong.json()["detail"]
    ordered = ann.post(
        f"/api/v1/teams/{slug}/roster/", {"order": ["cid", "ann", "bob"]}, format="json"
    )
    assert [row["username"] for row in ordered.json()["roster"]] == ["cid", "ann", "bob"]
    reserve = ann.patch(f"/api/v1/teams/{slug}/members/cid/", {"reserve": True}, format="json")
    assert [row["username"] for row in reserve.json()["roster"]] == ["ann", "bob", "cid"]
    unchanged = ann.patch(f"/api/v1/teams/{slug}/members/cid/", {}, format="json")
    assert unchanged.status_code == 200 and unchanged.json()["roster"] == reserve.json()["roster"]
    assert bob.patch(f"/api/v1/teams/{slug}/members/cid/", {}, format="json").status_code == 403
    assert ann.patch(f"/api/v1/teams/{slug}/members/dan/", {}, format="json").status_code == 404
    rated = ann.post(f"/api/v1/teams/{slug}/roster/by-rating/")
    assert [row["username"] for row in rated.json()["roster"]] == ["bob", "ann", "cid"]
    assert bob.delete(f"/api/v1/teams/{slug}/members/ann/").status_code == 403
    assert ann.delete(f"/api/v1/teams/{slug}/members/ann/").status_code == 204
    listed = api().get(f"/api/v1/teams/?club={club.slug}").json()
    assert [(t["name"], t["captain"], len(t["roster"])) for t in listed] == [("Ghent 1", "ann", 2)]
    assert api().get("/api/v1/teams/nope/").status_code == 404
    unnamed = api().get("/api/v1/teams/")
    assert unnamed.status_code == 400 and "?club=" in unnamed.json()["detail"]
    assert api().get("/api/v1/teams/?club=nope").status_code == 404
    assert admin.delete(f"/api/v1/teams/{slug}/").status_code == 204
