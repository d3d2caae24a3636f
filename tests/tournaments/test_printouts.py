"""What a director prints and shows in the hall (issue 25, item 5): the alphabetical pairing
list, table cards with QR codes, score sheets, the wall chart and the projector view (their
paper layout is checked as PDF in tests/browser/test_printouts_browser.py)."""

import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Board

from .conftest import T0, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(make_tournament, club_with_members):
    club, owner, players = club_with_members
    for number, player in enumerate(players, start=1):
        player.display_name = f"{'ZYXWVUTS'[number - 1]}. Player"
        player.save()
    tournament = make_tournament(register=7, rounds=3)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    return tournament, owner


def test_the_alphabetical_list_names_everyone_once_in_order_with_board_and_colour(paired, client):
    tournament, owner = paired
    page = client.get(reverse("tournament-alphabetical", args=[tournament.slug, 1]))
    text = page.content.decode()
    leading = re.findall(r"<tr><td>([^<]*)</td>", text)
    assert leading == sorted(f"{letter}. Player" for letter in "ZYXWVUT")  # A-Z, each once
    assert "Pairing-allocated bye" in text
    assert 'class="topbar"' not in text  # made for paper: no site header


def test_table_cards_and_score_sheets_one_per_game(paired, client):
    tournament, owner = paired
    games = Board.objects.filter(round__tournament=tournament, white__isnull=False).count()
    cards = client.get(reverse("tournament-cards", args=[tournament.slug, 1])).content.decode()
    assert cards.count('class="table-card"') == games == 3
    assert cards.count('class="segno"') == games
    board_url = reverse("tournament-board", args=[tournament.slug, 1, 1])
    assert f"http://testserver{board_url}" in cards  # the QR code's title is its link
    sheets = client.get(reverse("tournament-score-sheets", args=[tournament.slug, 1]))
    assert sheets.content.decode().count('class="score-sheet"') == games
    assert ">90</td>" in sheets.content.decode()  # three columns of 30 move lines


def test_the_wall_chart_and_the_projector_show_names_and_results(paired, client):
    tournament, owner = paired
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    board = Board.objects.filter(round__tournament=tournament, white__isnull=False).first()
    services.board_result_set(board=board, actor=owner, result="0-1", now=at(30))
    chart = client.get(reverse("tournament-wall-chart", args=[tournament.slug])).content.decode()
    assert board.white.user.display_name in chart and "print-a3-landscape.css" in chart
    shown = client.get(reverse("tournament-projector", args=[tournament.slug])).content.decode()
    assert 'id="projector-pairings-1"' in shown and 'id="projector-standings-1" hidden' in shown
    assert board.black.user.display_name in shown and ">0-1<" in shown


def test_printouts_of_a_round_that_does_not_exist_are_not_found(paired, client):
    tournament, owner = paired
    for name in ("tournament-alphabetical", "tournament-cards", "tournament-score-sheets"):
        assert client.get(reverse(name, args=[tournament.slug, 7])).status_code == 404
