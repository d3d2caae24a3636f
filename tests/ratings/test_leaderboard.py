"""Leaderboards: one category at a time, active players only, overall or one club's members."""

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import services as club_services
from ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(make_player):
    """``rated(username, category, rating, games=40, days_ago=1)``: a player with a rating row."""

    def make(username, category, rating, *, games=40, days_ago=1, user=None):
        user = user or make_player(username)
        PlayerRating.objects.create(
            user=user,
            category=category,
            rating=rating,
            games=games,
            peak=rating,
            last_game_at=timezone.now() - timedelta(days=days_ago),
        )
        return user

    return make


def names(response):
    assert response.status_code == 200
    return [row["username"] for row in response.json()["results"]]


def page_names(text):
    return re.findall(r'<a href="/players/([^/]+)/">', text.split("<tbody>", 1)[1])


def test_ranked_by_rating_within_one_category(api, rated):
    ann = rated("ann", "rapid", 1700)
    rated("bob", "rapid", 1800)
    rated("cid", "rapid", 1600, games=5)
    rated("dee", "blitz", 2000)
    rated("ann", "blitz", 1400, user=ann)
    response = api().get("/api/v1/ratings/leaderboard/", {"category": "rapid"})
    assert names(response) == ["bob", "ann", "cid"]
    data = response.json()
    assert (data["category"], data["days"], data["club"], data["count"]) == ("rapid", 90, None, 3)
    assert [r["rank"] for r in data["results"]] == [1, 2, 3]
    assert [r["provisional"] for r in data["results"]] == [False, False, True]
    assert data["results"][2]["games"] == 5
    assert names(api().get("/api/v1/ratings/leaderboard/", {"category": "blitz"})) == [
        "dee",
        "ann",
    ]
    assert names(api().get("/api/v1/ratings/leaderboard/")) == ["bob", "ann", "cid"]  # rapid


def test_only_players_active_in_the_window(api, rated):
    rated("ann", "rapid", 1700, days_ago=10)
    rated("bob", "rapid", 1800, days_ago=100)
    rated("cid", "rapid", 1900, days_ago=400)
    rated("dee", "rapid", 1500, games=0, days_ago=1)  # never played: not listed
    url = "/api/v1/ratings/leaderboard/"
    assert names(api().get(url)) == ["ann"]
    assert names(api().get(url, {"days": "7"})) == []
    assert names(api().get(url, {"days": "365"})) == ["bob", "ann"]
    assert names(api().get(url, {"days": "3650"})) == ["cid", "bob", "ann"]


def test_club_leaderboard_lists_members_only(api, client, make_player, rated):
    owner = rated("owner", "rapid", 1650)
    club = club_services.club_create(owner=owner, name="Marble Heads")
    member = rated("member", "rapid", 1550)
    club_services.club_join(user=member, club=club)
    rated("outsider", "rapid", 2100)
    url = "/api/v1/ratings/leaderboard/"
    assert names(api().get(url, {"club": club.slug})) == ["owner", "member"]
    assert api().get(url, {"club": club.slug}).json()["club"] == club.slug
    html = client.get("/ratings/", {"club": club.slug}).content.decode()
    assert page_names(html) == ["owner", "member"] and "Marble Heads" in html


def test_page_shows_tabs_ranks_games_and_provisional_marks(client, rated):
    rated("ann", "classical", 1700, games=12)
    rated("bob", "classical", 1800, games=31)
    rated("cid", "rapid", 1900)
    response = client.get("/ratings/", {"category": "classical"})
    assert response.status_code == 200
    html = response.content.decode()
    assert page_names(html) == ["bob", "ann"]
    rows = re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S)
    assert '1800<abbr class="provisional"' not in rows[0]
    assert re.search(r'1700<abbr class="provisional"', rows[1])
    assert '<td class="num">12</td>' in rows[1] and '<td class="num">31</td>' in rows[0]
    for category in ("blitz", "rapid", "classical"):
        assert f"?category={category}" in html
    assert 'aria-current="page">Classical' in html
    assert page_names(client.get("/ratings/").content.decode()) == ["cid"]  # rapid by default


def test_leaderboards_are_paginated(api, client, make_player, rated):
    for index in range(55):
        rated(f"p{index:02d}", "blitz", 1000 + index)
    html = client.get("/ratings/", {"category": "blitz", "days": "30"}).content.decode()
    assert len(page_names(html)) == 50 and "Page 1 of 2" in html
    assert "?category=blitz&amp;days=30&amp;page=2" in html
    second = client.get("/ratings/", {"category": "blitz", "page": "2"}).content.decode()
    assert page_names(second) == ["p04", "p03", "p02", "p01", "p00"]
    assert re.search(r'<td class="num rank">51</td>', second)
    data = (
        api()
        .get("/api/v1/ratings/leaderboard/", {"category": "blitz", "limit": 10, "offset": 50})
        .json()
    )
    assert data["count"] == 55 and [r["rank"] for r in data["results"]] == [51, 52, 53, 54, 55]
    assert data["next"] is None and data["previous"]


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"category": "bullet"}, "bad_category"),
        ({"days": "abc"}, "bad_days"),
        ({"days": "0"}, "bad_days"),
        ({"days": "-5"}, "bad_days"),
        ({"days": "99999999999999999999"}, "bad_days"),
        ({"days": "1.5"}, "bad_days"),
        ({"limit": "0"}, "bad_page"),
    ],
)
def test_bad_parameters_are_400(api, client, db, params, error):
    response = api().get("/api/v1/ratings/leaderboard/", params)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == error and body["detail"]
    if error != "bad_page":  # the page has pages of its own
        page = client.get("/ratings/", params)
        assert page.status_code == 400 and body["detail"] in html.unescape(page.content.decode())


def test_an_unknown_club_is_404_naming_it(api, client, db):
    response = api().get("/api/v1/ratings/leaderboard/", {"club": "no-such-club"})
    assert response.status_code == 404
    assert response.json() == {"error": "bad_club", "detail": "There is no club 'no-such-club'."}
    page = client.get("/ratings/", {"club": "no-such-club"})
    assert page.status_code == 404 and "There is no club" in html.unescape(page.content.decode())


def tbody(response) -> str:
    return response.content.decode().split("<tbody>", 1)[1].split("</tbody>", 1)[0]


def rows_drawn(response) -> bool:
    """Whether the page drew its rows (or took them from the cache)."""
    assert response.status_code == 200
    return "ratings/_leaderboard_rows.html" in [t.name for t in response.templates]


def test_a_page_s_rows_are_drawn_once_then_again_whenever_what_they_show_changes(client, rated):
    """The rows are kept in the cache under the values they show (bench/ratings.py): a second
    reader is served without drawing them, and any change to a rating, a count of games, a
    name or the players listed is on the next page read, not an hour later."""
    ann = rated("ann", "rapid", 1700, games=12)
    bob = rated("bob", "rapid", 1800)
    first = client.get("/ratings/")
    assert rows_drawn(first) and page_names(first.content.decode()) == ["bob", "ann"]
    again = client.get("/ratings/")
    assert not rows_drawn(again)
    assert tbody(again) == tbody(first)

    PlayerRating.objects.filter(user=ann).update(rating=1900, games=31, peak=1900)
    moved = client.get("/ratings/")
    assert rows_drawn(moved)
    html = moved.content.decode()
    assert page_names(html) == ["ann", "bob"]
    assert "1900<abbr" not in html and '<td class="num">31</td>' in html  # no longer provisional

    bob.display_name = "Bobby Tables"
    bob.save(update_fields=["display_name"])
    assert (
        '>Bobby Tables</a> <span class="muted">@bob</span>'
        in client.get("/ratings/").content.decode()
    )

    bob.is_active = False  # a closed account leaves the list
    bob.save(update_fields=["is_active"])
    assert page_names(client.get("/ratings/").content.decode()) == ["ann"]


def test_each_language_draws_its_own_rows(client, rated):
    rated("ann", "rapid", 1700, games=3)
    english = client.get("/ratings/").content.decode()
    client.cookies["django_language"] = "fr"
    french = client.get("/ratings/")
    assert rows_drawn(french)  # not the English rows kept a moment ago
    assert "Provisional: fewer than" in english
    assert "Provisional: fewer than" not in french.content.decode()
