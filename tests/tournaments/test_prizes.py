"""Prizes and the rating report at the end of an event (issue 25, item 6)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from core.errors import InvalidInput, NotAllowed
from ratings.models import RatingChange
from tournaments import award_selectors, exports, prizes, services
from tournaments.models import Board, Prize
from tournaments.rating_report import rating_report

from .conftest import T0, at

# --- the pure engines ------------------------------------------------------------------------

C = prizes.Contender


def _awarded(awards):
    return [([p.key for p in a.prizes], a.winners, a.share) for a in awards]


def test_each_player_receives_one_prize_at_most_and_categories_go_to_the_next_eligible():
    standings = [
        C(1, 1, 4.0, rating=2000, sex="w"),
        C(2, 2, 3.5, rating=1400, birth_year=2012),
        C(3, 3, 3.0, rating=1450, birth_year=2011),
        C(4, 4, 2.0, rating=0, sex="w", club="Gent"),
    ]
    listed = [
        prizes.Prize(1, amount=Decimal(100)),
        prizes.Prize(2, prizes.WOMEN, amount=Decimal(30)),  # the best woman won place 1
        prizes.Prize(3, prizes.RATING_BELOW, threshold=1500, amount=Decimal(20)),
        prizes.Prize(4, prizes.AGE_UNDER, threshold=16, label="book"),
        prizes.Prize(5, prizes.CLUB, club="gent", label="cup"),
        prizes.Prize(6, prizes.UNRATED, label="pen"),  # player 4 has the club's cup
    ]
    assert _awarded(prizes.award(listed, standings, year=2026)) == [
        ([1], [1], Decimal(100)),
        ([2], [4], Decimal(30)),
        ([3], [2], Decimal(20)),
        ([4], [3], None),
        ([5], [], None),
        ([6], [], None),
    ]


def test_the_model_offers_exactly_the_engine_s_categories():
    assert tuple(Prize.Kind.values) == prizes.CATEGORIES


def test_ties_are_broken_by_the_standings_order_or_shared_equally():
    standings = [C(1, 1, 4.0), C(2, 2, 4.0), C(3, 3, 4.0), C(4, 4, 3.0)]
    listed = [prizes.Prize(n, amount=Decimal(a)) for n, a in ((1, 100), (2, 50), (3, 25), (4, 10))]
    assert _awarded(prizes.award(listed, standings, year=2026)) == [
        ([1], [1], Decimal(100)),
        ([2], [2], Decimal(50)),
        ([3], [3], Decimal(25)),
        ([4], [4], Decimal(10)),
    ]
    split = prizes.award(listed, standings, year=2026, ties="split")
    assert _awarded(split) == [([1, 2, 3], [1, 2, 3], Decimal("58.33")), ([4], [4], Decimal(10))]
    # more players tied than places left: they share the places left
    two = prizes.award(listed[:2], standings, year=2026, ties="split")
    assert _awarded(two) == [([1, 2], [1, 2, 3], Decimal("50.00"))]
    # a prize in kind is never shared: the tie-breaks give it
    cups = [prizes.Prize(1, label="cup"), prizes.Prize(2, label="medal")]
    assert _awarded(prizes.award(cups, standings, year=2026, ties="split")) == [
        ([1], [1], None),
        ([2], [2], None),
    ]


def test_a_team_takes_the_overall_places_and_its_club_s_prize_only():
    """A team cup's sides: no rating, age or sex of their own, so never a player's category
    (unrated included); the overall places and their club's prize are theirs."""
    teams = [C(1, 1, -1, club="Gent", team=True), C(2, 2, -2, club="Gent", team=True)]
    kinds = [
        prizes.Prize(1),
        prizes.Prize(2, kind=prizes.UNRATED),
        prizes.Prize(3, kind=prizes.WOMEN),
        prizes.Prize(4, kind=prizes.AGE_UNDER, threshold=20),
        prizes.Prize(5, kind=prizes.CLUB, club="gent"),
        prizes.Prize(6, kind=prizes.RATING_BELOW, threshold=3000),
    ]
    assert _awarded(prizes.award(kinds, teams, year=2026)) == [
        ([1], [1], None),
        ([2], [], None),
        ([3], [], None),
        ([4], [], None),
        ([5], [2], None),
        ([6], [], None),
    ]


def test_ages_are_counted_in_the_event_s_year():
    player = C(1, 1, 1.0, birth_year=2010)
    under = prizes.Prize(1, prizes.AGE_UNDER, threshold=16)
    over = prizes.Prize(2, prizes.AGE_OVER, threshold=16)
    assert prizes.eligible(under, player, year=2025) and not prizes.eligible(
        over, player, year=2025
    )
    assert not prizes.eligible(under, player, year=2026) and prizes.eligible(
        over, player, year=2026
    )
    assert not prizes.eligible(under, C(2, 2, 1.0), year=2026)  # no birth year: no age prize


def test_the_rating_report_rates_played_games_against_rated_opponents_only():
    lines = rating_report(
        [
            (1, "A", 2000, [(1, 2, "1"), (2, 3, "="), (3, None, "U")]),
            (2, "B", 1800, [(1, 1, "0"), (2, 3, "+")]),
            (3, "C", 0, [(2, 1, "=")]),
        ]
    )
    a, b, c = lines
    assert (a.rated_games, a.points, a.opponents_average, a.change) == (1, 1.0, 1800, 4.8)
    assert (b.rated_games, b.change, b.performance) == (1, -4.8, 1200)
    assert (c.rated_games, c.change) == (1, 0.0)  # an unrated player's games: listed, no change


def test_the_rating_report_lists_the_applied_changes_when_given():
    players = [
        (1, "A", 1600, [(1, 2, "1"), (2, 3, "="), (3, None, "U")]),
        (2, "B", 1500, [(1, 1, "0"), (2, 0, "H")]),
        (3, "C", 0, [(2, 1, "=")]),
    ]
    applied = {
        (1, 1): (1490, 14.5),
        (2, 1): (1610, -14.5),
        (1, 2): (1500, -0.7),
        (3, 2): (1600, 2.1),
    }
    lines = {line.number: line for line in rating_report(players, applied=applied)}
    assert [(g.round, g.opponent_rating, g.change) for g in lines[1].games] == [
        (1, 1490, 14.5),
        (2, 1500, -0.7),
    ]
    assert lines[1].change == 13.8 and lines[3].change == 2.1  # the site rates everybody
    assert lines[2].rated_games == 1  # the bye is not a game


# --- in the database ----------------------------------------------------------------------------


@pytest.fixture
def finished(make_tournament, club_with_members):
    club, owner, players = club_with_members
    tournament = make_tournament(register=4, rounds=1)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    for board in Board.objects.filter(round__tournament=tournament):
        services.board_result_set(board=board, actor=owner, result="1/2-1/2", now=at(9))
    tournament.refresh_from_db()
    return tournament, owner, players


@pytest.mark.django_db
def test_the_prize_list_page_adds_removes_and_shows_the_winners(finished, client):
    tournament, owner, players = finished
    assert tournament.status == "finished"
    client.force_login(owner)
    add = reverse("tournament-action", args=[tournament.slug, "add-prize"])
    for data in ({"amount": "100"}, {"amount": "50"}, {"kind": "rating_below", "threshold": "1400", "label": "book"}):  # fmt: skip
        assert client.post(add, data).status_code == 302
    page = client.get(reverse("tournament-prizes", args=[tournament.slug])).content.decode()
    assert "Place 1" in page and "Place 2" in page and "Best rated under 1400" in page
    assert "nobody eligible" in page  # everybody is rated 1500
    services.tournament_update(tournament=tournament, actor=owner, prize_ties="split")
    shared = client.get(reverse("tournament-prizes", args=[tournament.slug])).content.decode()
    assert "37.50" in shared and "shared" in shared  # four on 0.5 share 150
    prize = Prize.objects.get(position=3)
    client.post(
        reverse("tournament-action", args=[tournament.slug, "remove-prize"]), {"prize": prize.pk}
    )
    assert Prize.objects.count() == 2


@pytest.mark.django_db
def test_prizes_are_the_directors_and_must_say_what_they_are(finished):
    tournament, owner, players = finished
    with pytest.raises(NotAllowed):
        services.prize_add(tournament=tournament, actor=players[0], amount=10)
    with pytest.raises(InvalidInput) as empty:
        services.prize_add(tournament=tournament, actor=owner)
    assert empty.value.code == "prize_empty"
    with pytest.raises(InvalidInput) as limit:
        services.prize_add(tournament=tournament, actor=owner, kind="age_under", label="x")
    assert limit.value.code == "prize_threshold"
    assert not Prize.objects.exists()


@pytest.mark.django_db
def test_the_rating_report_page_and_csv(finished, client):
    tournament, owner, players = finished
    page = client.get(reverse("tournament-rating-report", args=[tournament.slug]))
    assert page.status_code == 200 and "+0.0" in page.content.decode()
    text = exports.rating_report_csv(tournament)
    header, first = text.splitlines()[:2]
    assert (
        header
        == "number,player,federation,rating,games,opponents_average,points,performance,change"
    )
    assert first.startswith("1,") and first.endswith(",1,1500,0.5,1500,+0.0")
    assert len(award_selectors.rating_report(tournament)) == 4


@pytest.mark.django_db
def test_a_rated_event_s_report_gives_the_changes_the_site_applied(
    make_tournament, club_with_members
):
    """The report of an event the site rates computed its own K-20 changes from the starting
    ratings; the changes the players' ratings received were others (the site's K, its rating
    then). It now shows, game by game and in total, the changes the site applied."""
    club, owner, players = club_with_members
    tournament = make_tournament(register=4, rounds=2, rated=True)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    for number in (1, 2):
        if number == 2:
            services.round_pair_by(tournament=tournament, actor=owner, now=at(20))
        services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=at(number * 20 + 1)
        )
        for board in Board.objects.filter(round__tournament=tournament, round__number=number):
            services.board_result_set(
                board=board, actor=owner, result="1-0", now=at(number * 20 + 9)
            )
    tournament.refresh_from_db()
    changes = RatingChange.objects.filter(board__round__tournament=tournament)
    assert changes.count() == 8
    lines = {line.entrant.user_id: line for line in award_selectors.rating_report(tournament)}
    for change in changes.select_related("board__round"):
        line = lines[change.user_id]
        (game,) = [g for g in line.games if g.round == change.board.round.number]
        assert game.change == change.rating_after - change.rating_before
        assert game.opponent_rating == change.opponent_rating
    for user_id, line in lines.items():
        applied = sum(c.rating_after - c.rating_before for c in changes if c.user_id == user_id)
        assert line.change == applied and line.rated_games == 2
    # K 20 from the starting ratings would give +10.0 for a first win between equals
    assert any(g.change != 10.0 for line in lines.values() for g in line.games if g.score == 1)
