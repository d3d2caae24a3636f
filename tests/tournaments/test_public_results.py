"""The public results site (issue 25, item 7): every event in a list that can be filtered and
searched, each event's standings after each round, machine-readable."""

from datetime import date

import pytest
from django.urls import reverse

from clubs import services as club_services
from tournaments import public_selectors, selectors, services
from tournaments.models import Board

from .conftest import T0, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(club_with_members, make_player):
    club, owner, players = club_with_members
    other_owner = make_player("other-owner")
    other = club_services.club_create(owner=other_owner, name="Brugge Abalone")
    ghent = services.tournament_create(
        club=club, actor=owner, name="Ghent Open", entry="open", play_mode="otb",
        city="Gent", country="BE", starts_on=date(2026, 12, 5), ends_on=date(2026, 12, 6),
    )  # fmt: skip
    services.entries_import(tournament=ghent, actor=owner, text="Zora Quill,1800\np1\np2\np3")
    services.tournament_start(tournament=ghent, actor=owner, now=T0)
    winter = services.tournament_create(
        club=club, actor=owner, name="Winter Cup", format="round_robin", city="Gent",
        country="BE", starts_on=date(2027, 1, 10),
    )  # fmt: skip
    bruges = services.tournament_create(
        club=other, actor=other_owner, name="Bruges Blitz", city="Brugge", country="BE",
        starts_on=date(2026, 11, 1),
    )  # fmt: skip
    paris = services.tournament_create(
        club=other, actor=other_owner, name="Paris Trip", city="Paris", country="FR",
        starts_on=date(2026, 10, 1),
    )  # fmt: skip
    return {"ghent": ghent, "winter": winter, "bruges": bruges, "paris": paris}


def _names(filters):
    return [event.name for event in public_selectors.public_events(filters)]


def test_the_list_is_newest_first_and_every_filter_narrows_it(events):
    assert _names({}) == ["Winter Cup", "Ghent Open", "Bruges Blitz", "Paris Trip"]
    assert _names({"q": "zora"}) == ["Ghent Open"]  # a player's name finds their event
    assert _names({"q": "brugge"}) == ["Bruges Blitz", "Paris Trip"]  # the club's name, or the city
    assert _names({"q": "gent open"}) == ["Ghent Open"]  # every word must match
    assert _names({"club": "brugge-abalone"}) == ["Bruges Blitz", "Paris Trip"]
    assert _names({"country": "fr"}) == ["Paris Trip"]
    assert _names({"status": "running"}) == ["Ghent Open"]
    assert _names({"format": "round_robin"}) == ["Winter Cup"]
    assert _names({"from": "2026-11-01", "to": "2026-12-31"}) == ["Ghent Open", "Bruges Blitz"]
    assert _names({"from": "not a date"}) == _names({})  # an unreadable filter is ignored


def test_an_anonymous_visitor_searches_the_list_and_reads_it_as_json(events, client):
    page = client.get(reverse("tournament-list"), {"q": "Zora", "country": "BE"})
    text = page.content.decode()
    assert page.status_code == 200 and "Ghent Open" in text and "Winter Cup" not in text
    assert "1 event" in text and "Gent, BE" in text
    data = client.get(reverse("tournament-list-json"), {"country": "BE"}).json()
    assert data["count"] == 3 and [e["name"] for e in data["events"]][0] == "Winter Cup"
    ghent = next(e for e in data["events"] if e["slug"] == events["ghent"].slug)
    assert (ghent["players"], ghent["starts_on"], ghent["status"]) == (4, "2026-12-05", "running")
    assert ghent["url"] == f"http://testserver{events['ghent'].get_absolute_url()}"
    assert client.get(ghent["trf"]).status_code == 200  # the stable links work, no account
    assert client.get(ghent["standings_csv"]).status_code == 200


def test_the_standings_after_each_round(events, client, club_with_members):
    club, owner, players = club_with_members
    ghent = events["ghent"]
    for number in (1, 2):
        if number == 2:
            services.round_pair(tournament_id=ghent.pk, number=2, now=at(60))
        services.round_start(tournament_id=ghent.pk, number=number, actor=owner, now=at(number))
        for board in Board.objects.filter(round__tournament=ghent, round__number=number):
            services.board_result_set(board=board, actor=owner, result="1-0", now=at(number + 5))
    ghent.refresh_from_db()
    after_one = {
        row["username"]: row["points_value"] for row in selectors.standings(ghent, after=1)
    }
    now = {row["username"]: row["points_value"] for row in selectors.standings(ghent)}
    assert sum(after_one.values()) == 2 and sum(now.values()) == 4
    url = reverse("tournament-standings", args=[ghent.slug])
    page = client.get(url, {"after": 1}).content.decode()
    assert "Standings after round 1" in page and 'href="?after=1" aria-current="page"' in page
    assert "Standings after round 2" in client.get(url, {"after": "9"}).content.decode()
