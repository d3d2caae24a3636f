"""A player's profile shows three- and four-player games apart, and the ``multi`` rating."""

import pytest

from multiplayer.models import Table
from tests.multiplayer.test_tables import PUSH_OFF_LINE, full_table, play


@pytest.mark.django_db
def test_the_profile_lists_tables_apart_with_the_multi_rating(trio, client):
    table = full_table(trio)
    table.marbles_to_win = 1
    table.save()
    play(table, PUSH_OFF_LINE)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    page = client.get("/players/ann/").content.decode()
    section = page[page.index('id="table-games"') : page.index('id="head-to-head"')]
    assert f"/tables/{table.pk}/" in section and "bob" in section and "cid" in section
    assert "+20" in section  # first of three at 1500 each: two wins worth K/2 each
    assert 'data-category="multi"' in page
    # Its rating history: a chart on the page, one point in the API, as the other categories.
    chart = page[page.index('<figure class="rating-chart" data-category="multi">') :]
    chart = chart[: chart.index("</figure>")]
    assert chart.count('<circle class="point"') == 1 and "1520 (+20)" in chart
    ratings = client.get("/api/v1/ratings/players/ann/").json()
    history = ratings["ratings"]["multi"]["history"]
    assert [(p["rating"], p["change"]) for p in history] == [(1520, 20)]
    board = client.get("/ratings/?category=multi").content.decode()
    assert "ann" in board and "bob" in board
    assert client.get("/api/v1/ratings/leaderboard/?category=multi").status_code == 200
