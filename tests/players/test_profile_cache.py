"""A player's page keeps its history sections (ratings, charts, record, games) in the cache
under a stamp of what they are drawn from: read once, drawn again as soon as any of it changes.

``bench/ratings.py`` found the page at 190 ms p95 (four clients, two web processes): eleven
queries and their lines drawn for every visitor. Each test here fails on the page as it was
(nothing kept) or on a cache that missed a change (a page showing an old result).
"""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from games.models import Game
from players.selectors.profile import history_stamp
from ratings.models import PlayerRating, RatingChange
from tests.players.test_profile import autumn_cup, page_of, play, record_row, section
from tournaments.models import Board

pytestmark = pytest.mark.django_db


@pytest.fixture
def start():
    return timezone.now() - timedelta(days=10)


def games_listed(html: str) -> int:
    return section(html, "recent-games").count('<tr class="outcome-')


def history_reads(queries) -> list[str]:
    """The queries of a page that read the player's games or rating changes themselves (the
    stamp's one query reads counts of them)."""
    return [
        q["sql"]
        for q in queries
        if ('FROM "games_game"' in q["sql"] or 'FROM "ratings_ratingchange"' in q["sql"])
    ]


def test_the_history_is_read_once_then_again_when_a_game_ends(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, bob, "1-0", at=start)
    with CaptureQueriesContext(connection) as first:
        first_html = page_of(client, "ann")
    with CaptureQueriesContext(connection) as second:
        second_html = page_of(client, "ann")
    assert history_reads(first.captured_queries)  # drawn: the games and changes read
    assert history_reads(second.captured_queries) == []  # kept: only the stamp asked
    assert len(second.captured_queries) < len(first.captured_queries) - 4
    assert section(second_html, "recent-games") == section(first_html, "recent-games")
    assert games_listed(second_html) == 1

    play(bob, ann, "1-0", at=start + timedelta(hours=1))  # ann loses the next one
    with CaptureQueriesContext(connection) as third:
        third_html = page_of(client, "ann")
    assert history_reads(third.captured_queries)
    assert games_listed(third_html) == 2
    assert record_row(section(third_html, "record"), "overall") == [2, 1, 0, 1]
    rating = PlayerRating.objects.get(user=ann, category="rapid").rating
    assert f'<span class="rating-value">{rating}' in section(third_html, "ratings")


def test_each_language_keeps_its_own_sections(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, bob, "1-0", at=start)
    with translation.override("fr"):
        french = translation.gettext("Recent games")
    assert french != "Recent games"
    in_french = client.get("/players/ann/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert french in section(in_french, "recent-games")
    english = client.get("/players/ann/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Recent games" in section(english, "recent-games")
    assert french not in english


def test_a_result_or_a_rating_changed_in_place_changes_the_stamp(make_player, start):
    """Results corrected and ratings recomputed rewrite rows without adding any: the stamp
    still changes (a director's correction, ``ratings_recompute``)."""
    event = autumn_cup(make_player, start)
    ann, bob = event.players[0], event.players[1]
    game = play(ann, bob, "1-0", at=start + timedelta(days=1))
    stamps = [history_stamp(ann)]

    def changed() -> bool:
        stamps.append(history_stamp(ann))
        return stamps[-1] != stamps[-2]

    Game.objects.filter(pk=game.pk).update(result="0-1")
    assert changed()
    change = RatingChange.objects.filter(user=ann).latest("pk")
    RatingChange.objects.filter(pk=change.pk).update(rating_after=change.rating_after + 1)
    assert changed()
    PlayerRating.objects.filter(user=ann).update(peak=2999)
    assert changed()
    board = Board.objects.filter(round__tournament=event.tournament, black__user=ann).first()
    Board.objects.filter(pk=board.pk).update(result="1/2-1/2")
    assert changed()
    assert history_stamp(ann) == stamps[-1]  # and nothing else moves it
    assert history_stamp(bob) != stamps[-1]


def test_the_page_is_drawn_when_the_cache_is_unreachable(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, bob, "1-0", at=start)
    down = ConnectionError("the cache is down")
    with (
        mock.patch("core.fragments.cache.get", side_effect=down),
        mock.patch("core.fragments.cache.set", side_effect=down),
    ):
        html = page_of(client, "ann")
    assert games_listed(html) == 1
    assert record_row(section(html, "record"), "overall") == [1, 1, 0, 0]


def test_the_head_to_head_is_kept_until_either_plays_or_is_renamed(client, make_player, start):
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    play(ann, bob, "1-0", at=start)

    def head_to_head() -> tuple[str, list[str]]:
        with CaptureQueriesContext(connection) as queries:
            html = section(page_of(client, "ann", vs="bob"), "head-to-head")
        return html, history_reads(queries.captured_queries)

    first, first_reads = head_to_head()
    again, again_reads = head_to_head()
    assert first_reads and again_reads == [] and again == first
    assert first.count('<tr class="outcome-') == 1 and 'class="h2h-record">1 W' in first

    play(ann, cid, "1-0", at=start + timedelta(hours=1))  # another opponent: ann's stamp moves
    play(bob, ann, "1-0", at=start + timedelta(hours=2))
    after, after_reads = head_to_head()
    assert after_reads and after.count('<tr class="outcome-') == 2
    assert 'class="h2h-record">1 W · 0 D · 1 L' in after

    bob.display_name = "Bob the Builder"
    bob.save(update_fields=["display_name"])
    renamed, _reads = head_to_head()
    assert "Bob the Builder" in renamed
