"""The public player page: ratings, charts, record by colour, games, tournaments, head to head."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine, services
from games.options import GameOptions
from ratings.models import PlayerRating, RatingChange
from tests.ratings.support import rated_otb_round_robin
from tournaments import services as tournament_services
from tournaments.models import Board

pytestmark = pytest.mark.django_db


def play(black, white, result, *, at, base=600, rated=True):
    """A finished game between two players with two moves played; ``result`` as "1-0"."""
    game = services.game_create(
        black=black,
        white=white,
        now=at,
        options=GameOptions(base, 0, 6, "belgian", rated),
    )
    for seconds, player in ((1, black), (2, white)):
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game = services.game_move_apply(
            game_id=game.pk,
            player=player,
            move=notation,
            expected_ply=game.ply,
            now=at + timedelta(seconds=seconds),
        )
    end = at + timedelta(seconds=3)
    if result == "1-0":
        services.game_resign(game_id=game.pk, player=white, now=end)
    elif result == "0-1":
        services.game_resign(game_id=game.pk, player=black, now=end)
    else:
        services.game_draw_offer(game_id=game.pk, player=black, now=end)
        services.game_draw_answer(game_id=game.pk, player=white, accept=True, now=end)
    game.refresh_from_db()
    return game


def page_of(client, username, **params):
    response = client.get(f"/players/{username}/", params)
    assert response.status_code == 200
    return response.content.decode()


def section(html, section_id):
    match = re.search(rf'<section class="card" id="{section_id}">(.*?)</section>', html, re.S)
    assert match, f"no section {section_id}"
    return match.group(1)


def record_row(record_html, name):
    """Games, wins, draws, losses of one row of the record table."""
    cells = re.search(rf'<tr class="record-{name}">(.*?)</tr>', record_html, re.S).group(1)
    return [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', cells)]


def autumn_cup(make_player, start):
    """ann, bob, cid and dee's rated OTB round-robin: ann wins every game, otherwise Black."""
    return rated_otb_round_robin(
        make_player,
        usernames=["ann", "bob", "cid", "dee"],
        result_for=lambda board: "0-1" if board.white.user.username == "ann" else "1-0",
        start=start,
        club_name="Daisy Club",
        name="Autumn Cup",
    )


@pytest.fixture
def start():
    return timezone.now() - timedelta(days=10)


def test_ratings_with_provisional_mark_and_peak(client, make_player, start):
    ann, bob = make_player("ann", display_name="Ann B."), make_player("bob")
    play(ann, bob, "1-0", at=start)
    play(ann, bob, "1-0", at=start + timedelta(hours=1), base=180)
    html = page_of(client, "ann")
    ratings = section(html, "ratings")
    rapid = PlayerRating.objects.get(user=ann, category="rapid")
    assert rapid.rating == 1520 and rapid.provisional
    assert re.search(r'data-category="rapid">.*?1520<abbr class="provisional"', ratings, re.S)
    assert "1 game · peak 1520" in ratings
    assert 'data-category="blitz"' in ratings and 'data-category="classical"' not in ratings
    # the profile keeps what it showed before
    assert "Ann B." in html and "No clubs." in section(html, "clubs")


def test_no_provisional_mark_after_thirty_games(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    for index in range(30):
        play(ann, bob, "1/2-1/2", at=start + timedelta(minutes=index))
    ratings = section(page_of(client, "ann"), "ratings")
    assert "30 games" in ratings and 'class="provisional"' not in ratings


def test_chart_has_one_point_per_rated_game(client, make_player, start):
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    for index, (opponent, result) in enumerate(
        [(bob, "1-0"), (cid, "0-1"), (bob, "1/2-1/2"), (cid, "1-0")]
    ):
        play(ann, opponent, result, at=start + timedelta(hours=index))
    play(ann, bob, "1-0", at=start + timedelta(hours=5), rated=False)  # casual: no point
    play(bob, ann, "1-0", at=start + timedelta(hours=6), base=180)  # blitz chart
    html = page_of(client, "ann")
    charts = dict(
        re.findall(r'<figure class="rating-chart" data-category="(\w+)">(.*?)</figure>', html, re.S)
    )
    assert set(charts) == {"blitz", "rapid"}
    assert "<svg" in charts["rapid"] and "<polyline" in charts["rapid"]
    assert charts["rapid"].count('<circle class="point"') == 4
    assert charts["blitz"].count('<circle class="point"') == 1
    final = RatingChange.objects.filter(user=ann, category="rapid").last().rating_after
    assert f": {final} (" in charts["rapid"]  # the last point's label
    assert "http" not in charts["rapid"].replace("http://www.w3.org", "")  # nothing external


@pytest.mark.parametrize("language", ["de", "fr", "hu", "uk", "en"])
def test_the_chart_s_geometry_is_never_written_the_language_s_way(
    client, make_player, start, language
):
    """Coordinates are SVG numbers: "176.0" in every language, never "176,0" (in German,
    French, Hungarian and Ukrainian every label then stood at one place and read "1")."""
    ann, bob = make_player("ann"), make_player("bob")
    for index, result in enumerate(["1-0", "0-1", "1-0", "1-0", "1/2-1/2"]):
        play(ann, bob, result, at=start + timedelta(days=index * 3))
    client.cookies["django_language"] = language
    html = page_of(client, "ann")
    svg = re.search(r"<svg class=\"rating-chart-svg\".*?</svg>", html, re.S).group(0)
    numbers = re.findall(r'\b(?:x|y|x1|x2|y1|y2|cx|cy|r|dy)="([^"]*)"', svg)
    assert numbers, "no geometry found"
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in numbers), numbers
    points = re.search(r'<polyline class="line" points="([^"]*)"', svg).group(1)
    assert re.fullmatch(r"(-?\d+(\.\d+)?,-?\d+(\.\d+)? ?)+", points), points
    labels = re.findall(r'text-anchor="end">(\d+)</text>', svg)
    assert len(set(labels)) == len(labels) > 1  # distinct ratings on the axis


def test_record_by_colour(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    results = [  # (black, white, result)
        (ann, bob, "1-0"),  # ann wins as Black
        (ann, bob, "1-0"),
        (ann, bob, "0-1"),  # ann loses as Black
        (bob, ann, "0-1"),  # ann wins as White
        (bob, ann, "1/2-1/2"),  # ann draws as White
    ]
    for index, (black, white, result) in enumerate(results):
        play(black, white, result, at=start + timedelta(hours=index))
    record = section(page_of(client, "ann"), "record")
    assert record_row(record, "overall") == [5, 3, 1, 1]
    assert record_row(record, "black") == [3, 2, 0, 1]
    assert record_row(record, "white") == [2, 1, 1, 0]


def test_record_counts_over_the_board_games_but_not_forfeits(client, make_player, start):
    event = autumn_cup(make_player, start)
    ann = event.players[0]
    boards = [
        board
        for board in Board.objects.filter(round__tournament=event.tournament)
        if ann.pk in (board.black.user_id, board.white.user_id)
    ]
    as_black = sum(board.black.user_id == ann.pk for board in boards)
    assert len(boards) == 3 and 0 < as_black < 3
    record = section(page_of(client, "ann"), "record")
    assert record_row(record, "overall") == [3, 3, 0, 0]
    assert record_row(record, "black") == [as_black, as_black, 0, 0]
    assert record_row(record, "white") == [3 - as_black, 3 - as_black, 0, 0]
    # a board corrected to a forfeit is no longer a game played
    forfeited = boards[0]
    tournament_services.board_result_set(
        board=forfeited,
        actor=event.owner,
        result="+-" if forfeited.black.user_id == ann.pk else "-+",
        reason="the opponent never came",
        now=event.last_result_at,
    )
    record = section(page_of(client, "ann"), "record")
    assert record_row(record, "overall") == [2, 2, 0, 0]


def test_recent_games_show_colour_result_and_rating_change(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob", display_name="Bobby")
    won = play(ann, bob, "1-0", at=start)
    lost = play(bob, ann, "1-0", at=start + timedelta(hours=1))
    casual = play(ann, bob, "1/2-1/2", at=start + timedelta(hours=2), rated=False)
    games = section(page_of(client, "ann"), "recent-games")
    rows = re.findall(r'<tr class="outcome-(\w+)">(.*?)</tr>', games, re.S)
    assert [outcome for outcome, _ in rows] == ["draw", "loss", "win"]  # newest first
    draw_row, loss_row, win_row = (cells for _, cells in rows)
    assert f'href="/games/{casual.pk}/"' in draw_row and "casual" in draw_row
    assert "—" in draw_row  # no rating change for a casual game
    assert f'href="/games/{won.pk}/"' in win_row and "Black" in win_row and "Bobby" in win_row
    assert "1520" in win_row and "+20" in win_row
    change = RatingChange.objects.get(user=ann, game=lost)
    assert f'href="/games/{lost.pk}/"' in loss_row and "White" in loss_row
    assert str(change.rating_after) in loss_row and f"{change.delta}" in loss_row
    assert change.delta < 0


def test_recent_games_include_the_over_the_board_games_the_record_counts(
    client, make_player, start
):
    """The record counts a rated over-the-board tournament game; the recent games list it too
    (its tournament, round and board, linked to the round), newest first among server games."""
    event = autumn_cup(make_player, start)
    ann = event.players[0]
    later = play(ann, event.players[1], "0-1", at=event.last_result_at + timedelta(hours=1))
    recent = section(page_of(client, "ann"), "recent-games")
    rows = re.findall(r'<tr class="outcome-(\w+)">(.*?)</tr>', recent, re.S)
    assert len(rows) == 4  # the server game and the three boards
    assert f'href="/games/{later.pk}/"' in rows[0][1] and rows[0][0] == "loss"
    slug = event.tournament.slug
    for number, (outcome, cells) in zip((3, 2, 1), rows[1:], strict=True):
        assert outcome == "win"
        assert f'href="/tournaments/{slug}/rounds/{number}/"' in cells
        assert "Autumn Cup" in cells
    board = Board.objects.get(
        Q(black__user=ann) | Q(white__user=ann),
        round__tournament=event.tournament,
        round__number=3,
    )
    change = RatingChange.objects.get(user=ann, board=board)
    assert f"{change.rating_after}" in rows[1][1] and f"+{change.delta}" in rows[1][1]
    # the record and the list agree on what is a game
    assert record_row(section(page_of(client, "ann"), "record"), "overall")[0] == 4


def test_recent_games_are_the_last_twenty(client, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    games = [play(ann, bob, "1-0", at=start + timedelta(minutes=i)) for i in range(22)]
    recent = section(page_of(client, "ann"), "recent-games")
    assert recent.count('<tr class="outcome-') == 20
    assert f'/games/{games[-1].pk}/"' in recent and f'/games/{games[1].pk}/"' not in recent


def test_tournaments_with_place_and_score(client, make_player, start):
    event = autumn_cup(make_player, start)
    owner, club, players = event.owner, event.club, event.players
    other = tournament_services.tournament_create(
        club=club, actor=owner, name="Not Entered", format="round_robin", play_mode="otb"
    )
    html = page_of(client, "ann")
    table = section(html, "tournaments")
    assert "Autumn Cup" in table and other.name not in table
    assert re.search(r'class="num place">1<span class="muted">/4</span>', table)
    assert re.search(r'class="num score">3</td>', table)
    # a member of the club now: the clubs section lists it
    assert "Daisy Club" in section(html, "clubs")
    # the OTB games rated ann: her classical/rapid chart has a point per board
    category = RatingChange.objects.filter(user=players[0]).first().category
    assert re.search(rf'data-category="{category}">.*?3 rated games', html, re.S)


def test_head_to_head(client, make_player, start):
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    first = play(ann, bob, "1-0", at=start)
    play(bob, ann, "1/2-1/2", at=start + timedelta(hours=1))
    play(bob, ann, "1-0", at=start + timedelta(hours=2))
    play(bob, ann, "0-1", at=start + timedelta(hours=3))
    other = play(ann, cid, "1-0", at=start + timedelta(hours=4))
    block = section(page_of(client, "ann", vs="BOB"), "head-to-head")
    assert "2 W · 1 D · 1 L" in block and "(4 games)" in block
    assert block.count('<tr class="outcome-') == 4
    assert f'/games/{first.pk}/"' in block and f'/games/{other.pk}/"' not in block
    # from the other side
    assert "1 W · 1 D · 2 L" in section(page_of(client, "bob", vs="ann"), "head-to-head")
    # never met; unknown; oneself
    assert "0 W · 0 D · 0 L" in section(page_of(client, "bob", vs="cid"), "head-to-head")
    assert "There is no player called" in section(page_of(client, "ann", vs="zed"), "head-to-head")
    assert "another player" in section(page_of(client, "ann", vs="ann"), "head-to-head")


def test_player_without_games(client, make_player):
    make_player("newbie")
    html = page_of(client, "newbie")
    assert "No rated games yet." in html and "No finished games." in html
    assert "No tournaments played yet." in html and "<svg" not in html


def test_profile_queries_do_not_grow_with_history(client, make_player, start):
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    play(ann, bob, "1-0", at=start)
    with CaptureQueriesContext(connection) as few:
        page_of(client, "ann", vs="bob")
    for index in range(12):
        play(ann, [bob, cid][index % 2], "0-1", at=start + timedelta(hours=index + 1))
    with CaptureQueriesContext(connection) as many:
        page_of(client, "ann", vs="bob")
    assert len(many.captured_queries) == len(few.captured_queries) <= 15


def test_rating_api_for_a_player(api, make_player, start):
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, bob, "1-0", at=start)
    play(bob, ann, "1-0", at=start + timedelta(hours=1))
    play(ann, bob, "1-0", at=start + timedelta(hours=2), base=180)
    data = api().get("/api/v1/ratings/players/ANN/").json()
    assert data["username"] == "ann"
    assert set(data["ratings"]) == {"rapid", "blitz"}
    rapid = data["ratings"]["rapid"]
    assert rapid["games"] == 2 and rapid["provisional"] is True and rapid["peak"] == 1520
    assert [p["rating"] for p in rapid["history"]] == [1520, rapid["rating"]]
    assert rapid["history"][0]["change"] == 20 and rapid["history"][0]["game"] is not None
    missing = api().get("/api/v1/ratings/players/nobody/")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_the_players_list_pages_keep_the_search_word(client, make_player):
    for index in range(52):
        make_player(f"marble{index:02d}")
    make_player("someone")

    first = client.get("/players/", {"q": "marble"}).content.decode()
    assert '?q=marble&amp;page=2">Next →</a>' in first
    assert "Older" not in first and "someone" not in first
    second = client.get("/players/", {"q": "marble", "page": 2}).content.decode()
    assert '?q=marble&amp;page=1">← Previous</a>' in second
