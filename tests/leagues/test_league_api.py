"""A league run through the API (PostgreSQL): a club's admin makes the league and its
divisions, the captains enter their teams through the division's event, the admin starts a
division's season and, once every division has played, makes the next season; every refusal
answers with its code and changes nothing."""

from __future__ import annotations

import pytest

from leagues.models import Division, League
from tournaments.models import Round, TeamEntry

from ..tournaments.team_league import league_club
from .conftest import play_season

pytestmark = pytest.mark.django_db

LEAGUES = "/api/v1/leagues/"


def post(client, url: str, body: dict | None = None):
    return client.post(url, body or {}, content_type="application/json")


def refused(answer, status: int, code: str | None = None) -> dict:
    """``answer`` is the refusal ``status`` (with ``code``), its body naming the problem."""
    body = answer.json()
    assert answer.status_code == status, body
    assert body["error"] and body["detail"]
    if code:
        assert body["error"] == code
    return body


def test_a_league_made_and_started_through_the_api(client, make_player):
    club, owner, teams = league_club(make_player)
    league = {"club": club.slug, "name": "Flanders League", "season": "2026-27"}
    refused(post(client, LEAGUES, league), 401, "not_authenticated")  # nobody logged in
    client.force_login(make_player("stranger"))
    refused(post(client, LEAGUES, league), 403)  # not an admin of the club
    client.force_login(owner)
    refused(post(client, LEAGUES, {**league, "club": "nowhere"}), 404)
    refused(post(client, LEAGUES, {**league, "name": 5}), 400)  # a number for a name
    refused(post(client, LEAGUES, {**league, "season": "x"}), 400, "bad_name")
    assert not League.objects.exists()

    made = post(client, LEAGUES, {**league, "description": "Thursdays at the club."})
    assert made.status_code == 201, made.json()
    slug = made.json()["slug"]
    assert made.json() == {
        "slug": slug,
        "name": "Flanders League",
        "season": "2026-27",
        "club": club.slug,
        "divisions": [],
    }
    refused(post(client, LEAGUES, league), 409, "league_exists")
    listed = client.get(LEAGUES, {"club": club.slug}).json()
    assert [row["slug"] for row in listed] == [slug]
    assert client.get(LEAGUES, {"club": "nowhere"}).status_code == 404

    divisions = f"{LEAGUES}{slug}/divisions/"
    division = {"name": "Division 1", "first_day": "2026-12-01", "boards": 4, "double": False}
    refused(post(client, divisions, {**division, "level": 12}), 400)
    refused(post(client, divisions, {**division, "first_day": "someday"}), 400)
    refused(post(client, divisions, {**division, "time_zone": "Mars/Olympus"}), 400)
    refused(post(client, f"{LEAGUES}no-such-league/divisions/", division), 404)
    made = post(client, divisions, {**division, "relegate": 1, "time_zone": "Europe/Brussels"})
    assert made.status_code == 201, made.json()
    first = made.json()
    assert (first["name"], first["level"], first["relegate"], first["table"]) == (
        "Division 1",
        1,
        1,
        [],
    )
    refused(post(client, divisions, division), 409, "division_exists")
    assert Division.objects.count() == 1
    client.force_login(make_player("intruder"))
    refused(post(client, divisions, {**division, "name": "Division 9"}), 403)
    assert Division.objects.count() == 1

    # The captains enter their teams through the division's event.
    start = f"{divisions}{first['id']}/start/"
    client.force_login(owner)
    refused(post(client, start), 409, "too_few_teams")
    for team in teams[:4]:
        client.force_login(team.captain)
        entered = post(client, f"/api/v1/tournaments/{first['event']}/teams/", {"team": team.slug})
        assert entered.status_code == 201, entered.json()
    refused(post(client, start), 403)  # a captain does not start the season
    refused(post(client, f"{divisions}{10**9}/start/"), 404)
    client.force_login(owner)
    started = post(client, start)
    assert started.status_code == 200, started.json()
    fixtures = started.json()["fixtures"]
    assert len(fixtures) == 6 and {f["round"] for f in fixtures} == {1, 2, 3}
    assert all(f["match"] for f in fixtures if f["round"] == 1)
    assert [row["team"] for row in started.json()["table"]] == [t.slug for t in teams[:4]]
    assert Round.objects.filter(tournament__slug=first["event"]).count() == 1  # round 1 paired
    refused(post(client, start), 409)  # started already: nothing changes
    assert Round.objects.filter(tournament__slug=first["event"]).count() == 1
    read = client.get(f"{LEAGUES}{slug}/").json()
    assert read["divisions"][0]["fixtures"] == fixtures


def test_the_next_season_through_the_api(season, client):
    league, owner, teams, ghent_team, first, second = season
    url = f"{LEAGUES}{league.slug}/next-season/"
    body = {"season": "2027-28", "first_day": "2027-10-01"}
    client.force_login(owner)
    refused(post(client, url, body), 409, "season_not_over")
    play_season(first, owner)
    play_season(second, owner)
    refused(post(client, url, {**body, "first_day": "soon"}), 400)
    client.force_login(teams[1].captain)
    refused(post(client, url, body), 403)
    assert League.objects.count() == 1

    client.force_login(owner)
    made = post(client, url, body)
    assert made.status_code == 201, made.json()
    new = made.json()
    assert (new["name"], new["season"]) == ("Flanders League", "2027-28")
    one, two = new["divisions"]
    assert (one["name"], one["level"], two["name"], two["level"]) == (
        "Division 1",
        1,
        "Division 2",
        2,
    )
    old = client.get(f"{LEAGUES}{league.slug}/").json()["divisions"]
    relegated = next(row["team"] for row in old[0]["table"] if row["mark"] == "relegated")
    promoted = next(row["team"] for row in old[1]["table"] if row["mark"] == "promoted")
    assert promoted in {row["team"] for row in one["table"]}
    assert relegated in {row["team"] for row in two["table"]}
    assert TeamEntry.objects.filter(tournament__slug=one["event"]).count() == 4
    refused(post(client, url, body), 409)  # that season exists: nothing more is made
    assert League.objects.count() == 2
