"""The public game archive: search, replay page, record downloads and the record import."""

from datetime import timedelta

import pytest
from django.urls import reverse

from archive import selectors as archive
from clubs import services as club_services
from games import engine
from games.models import Game, Move
from games.records import game_record
from ratings.models import RatingChange
from tests.archive.support import (
    PUSH_OPENING,
    T0,
    archived_game,
    notations_for,
    record_text,
)
from tournaments import services as tournament_services
from tournaments.models import Board, Entrant, Round

SEARCH_API = "/api/v1/archive/games/"
IMPORT_API = "/api/v1/archive/import/"


@pytest.fixture
def alice(make_player):
    return make_player("alice")


@pytest.fixture
def bob(make_player):
    return make_player("bob")


@pytest.fixture
def carol(make_player):
    return make_player("carol")


@pytest.fixture
def club(make_player, alice, bob):
    """A club whose owner is "td"; alice and bob are members, carol is not."""
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Hex Club")
    club_services.club_join(user=alice, club=club)
    club_services.club_join(user=bob, club=club)
    return club


def tournament_board(club, black, white, *, play_mode="otb", result="", number=1):
    owner = club.memberships.get(role="owner").user
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name=f"Open {play_mode} {number}", play_mode=play_mode
    )
    round_ = Round.objects.create(tournament=tournament, number=1)
    return Board.objects.create(
        round=round_,
        number=number,
        black=Entrant.objects.create(tournament=tournament, user=black),
        white=Entrant.objects.create(tournament=tournament, user=white),
        result=result,
    )


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


# --- search ---------------------------------------------------------------------------------------


def test_search_filters_by_each_field(api, club, alice, bob, carol):
    board = tournament_board(club, carol, alice)
    at = [T0 + timedelta(days=day) for day in range(6)]
    ab = archived_game(alice, bob, ended_at=at[0], result="1-0", termination="resignation")
    ba = archived_game(bob, alice, ended_at=at[1], result="0-1", termination="time")
    ac = archived_game(alice, carol, ended_at=at[2], rated=False, start="standard")
    ca = archived_game(carol, alice, ended_at=at[3], result="1/2-1/2", termination="agreement")
    board.game = ca
    board.save()
    bc = archived_game(bob, carol, ended_at=at[4])
    aborted = archived_game(alice, bob, ended_at=at[5], status=Game.Status.ABORTED, plies=1)
    archived_game(alice, bob, status=Game.Status.STARTED)
    client = api()

    def search(**params):
        return ids(client.get(SEARCH_API, params))

    assert search() == [bc.pk, ca.pk, ac.pk, ba.pk, ab.pk]  # newest first, no aborted/started
    assert search(include_aborted="yes") == [aborted.pk, bc.pk, ca.pk, ac.pk, ba.pk, ab.pk]
    assert search(player="ALICE") == [ca.pk, ac.pk, ba.pk, ab.pk]
    assert search(player="alice", opponent="bob") == [ba.pk, ab.pk]
    assert search(player="carol", opponent="alice") == [ca.pk, ac.pk]
    # The club: games between current members, and its tournaments' games (carol is no member).
    assert search(club=club.slug) == [ca.pk, ba.pk, ab.pk]
    assert search(tournament=board.round.tournament.slug) == [ca.pk]
    assert search(start="standard") == [ac.pk]
    assert search(result="0-1") == [ba.pk]
    assert search(result="1/2-1/2") == [ca.pk]
    assert search(termination="time") == [ba.pk]
    assert search(rated="no") == [ac.pk]
    assert search(rated="true") == [bc.pk, ca.pk, ba.pk, ab.pk]
    assert search(**{"from": "2026-11-22", "to": "2026-11-23"}) == [ac.pk, ba.pk]
    assert search(**{"to": "2026-11-21"}) == [ab.pk]

    row = client.get(SEARCH_API, {"tournament": board.round.tournament.slug}).json()["results"][0]
    assert row["tournament"] == {
        "slug": board.round.tournament.slug,
        "name": board.round.tournament.name,
        "round": 1,
        "board": 1,
    }
    assert row["replay_url"] == f"/archive/games/{ca.pk}/"
    assert row["record_url"] == f"/archive/games/{ca.pk}.txt"


def test_search_query_count_does_not_grow_with_rows(
    api, club, alice, bob, carol, django_assert_max_num_queries
):
    board = tournament_board(club, carol, alice)
    board.game = archived_game(carol, alice, plies=1)
    board.save()
    for _ in range(10):
        archived_game(alice, bob, plies=1)
    with django_assert_max_num_queries(3):  # count, rows (players and boards joined)
        assert len(ids(api().get(SEARCH_API))) == 11


def test_the_search_page_s_queries_do_not_grow_with_its_rows(
    client, club, alice, bob, carol, django_assert_max_num_queries
):
    """The page: the player named, the count, the page's ids, its games with their players and
    boards: the same four queries for 3 games as for a full page of 50 (and a tournament's)."""
    board = tournament_board(club, carol, alice)
    board.game = archived_game(carol, alice, plies=1)
    board.save()
    for _ in range(2):
        archived_game(alice, bob, plies=1)
    with django_assert_max_num_queries(4):
        few = client.get("/archive/", {"player": "alice"}).content.decode()
    assert few.count("<tr data-game=") == 3
    assert f'<a href="{board.round.tournament.get_absolute_url()}">Open otb 1</a>' in few
    for _ in range(60):
        archived_game(bob, alice, plies=1)
    with django_assert_max_num_queries(4):
        many = client.get("/archive/", {"player": "alice"}).content.decode()
    assert many.count("<tr data-game=") == 50


def test_search_pages(api, client, alice, bob):
    games = [
        archived_game(alice, bob, plies=0, ended_at=T0 + timedelta(minutes=m)) for m in range(53)
    ]
    newest_first = [game.pk for game in reversed(games)]
    body = api().get(SEARCH_API).json()
    assert body["count"] == 53
    assert [row["id"] for row in body["results"]] == newest_first[:50]
    assert ids(api().get(SEARCH_API, {"limit": 5, "offset": 50})) == newest_first[50:]

    page_one = client.get("/archive/", {"player": "alice"})
    assert page_one.status_code == 200
    assert len(page_one.context["page"].object_list) == 50
    assert "page=2" in page_one.content.decode()
    assert "player=alice&amp;page=2" in page_one.content.decode()
    assert "Older →" in page_one.content.decode()  # the pages run from the newest
    assert "Next →" not in page_one.content.decode()
    page_two = client.get("/archive/", {"player": "alice", "page": 2})
    assert '?player=alice&amp;page=1">← Newer</a>' in page_two.content.decode()
    assert [row["id"] for row in page_two.context["rows"]] == newest_first[50:]
    assert list(page_two.context["page"].object_list) == newest_first[50:]
    assert f'href="/archive/games/{games[0].pk}/"' in page_two.content.decode()


@pytest.mark.parametrize(
    ("params", "field", "status", "error"),
    [
        ({"result": "2-0"}, "result", 400, "invalid_filter"),
        ({"from": "yesterday"}, "from", 400, "invalid_filter"),
        ({"to": "2026-13-40"}, "to", 400, "invalid_filter"),
        ({"rated": "maybe"}, "rated", 400, "invalid_filter"),
        ({"include_aborted": "AAA"}, "include_aborted", 400, "invalid_filter"),
        ({"termination": "boredom"}, "termination", 400, "invalid_filter"),
        ({"start": "chess"}, "start", 400, "invalid_filter"),
        ({"player": "nobody"}, "player", 404, "not_found"),
        ({"opponent": "nobody"}, "opponent", 404, "not_found"),
        ({"club": "no-such-club"}, "club", 404, "not_found"),
        ({"club": "not a slug!"}, "club", 404, "not_found"),
        ({"tournament": "no-such-event"}, "tournament", 404, "not_found"),
    ],
)
def test_bad_filters_are_400_unknown_names_404_and_form_errors(
    api, client, alice, params, field, status, error
):
    response = api().get(SEARCH_API, params)
    assert response.status_code == status
    body = response.json()
    assert body["error"] == error
    assert body["detail"].startswith(f"{field}: ")

    page = client.get("/archive/", params)
    assert page.status_code == 200
    assert page.context["page"] is None
    assert 'class="error"' in page.content.decode()

    download = client.get("/archive/download", params)
    assert download.status_code == status
    assert download["Content-Type"].startswith("text/plain")


def test_an_end_date_before_the_start_finds_nothing_in_the_api_and_is_an_error_on_the_page(
    api, client, alice, bob
):
    archived_game(alice, bob, ended_at=T0)
    day = T0.date().isoformat()
    params = {"from": day, "to": (T0 - timedelta(days=1)).date().isoformat()}
    assert api().get(SEARCH_API, {"from": day, "to": day}).json()["count"] == 1
    response = api().get(SEARCH_API, params)
    assert response.status_code == 200 and response.json()["results"] == []
    page = client.get("/archive/", params)
    assert page.context["page"] is None
    assert "The end date is before the start date." in page.content.decode()


def test_opponent_alone_finds_that_players_games(api, alice, bob, carol):
    archived_game(alice, bob, ended_at=T0)
    archived_game(carol, alice, ended_at=T0 + timedelta(days=1))
    archived_game(bob, carol, ended_at=T0 + timedelta(days=2))
    alone = api().get(SEARCH_API, {"opponent": "alice"}).json()
    as_player = api().get(SEARCH_API, {"player": "alice"}).json()
    assert alone["count"] == 2 and alone["results"] == as_player["results"]


def test_archive_page_lists_rows_with_links(client, alice, bob):
    game = archived_game(alice, bob, result="0-1", termination="time")
    html = client.get("/archive/").content.decode()
    assert f'data-game="{game.pk}"' in html
    assert f'href="/archive/games/{game.pk}/"' in html
    assert f'href="/archive/games/{game.pk}.txt"' in html
    assert 'href="/archive/download"' in html


# --- replay ---------------------------------------------------------------------------------------


def test_replay_data_has_every_ply_with_clocks_and_marbles(alice, bob):
    notations = notations_for(4, PUSH_OPENING)
    game = archived_game(alice, bob, notations=notations, base_seconds=300, spend_ms=3000)
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    data = archive.replay_data(game)
    frames = data["frames"]
    assert [frame["ply"] for frame in frames] == [0, 1, 2, 3, 4]
    assert frames[0]["position"] == game.start_position
    assert [frame["position"] for frame in frames[1:]] == [move.position_after for move in moves]
    # Each side's clock: from its own last move, the base time before it has moved.
    assert (frames[0]["black_ms"], frames[0]["white_ms"]) == (300_000, 300_000)
    assert (frames[1]["black_ms"], frames[1]["white_ms"]) == (moves[0].clock_ms, 300_000)
    assert (frames[2]["black_ms"], frames[2]["white_ms"]) == (moves[0].clock_ms, moves[1].clock_ms)
    assert (frames[3]["black_ms"], frames[3]["white_ms"]) == (moves[2].clock_ms, moves[1].clock_ms)
    # White pushed a black marble off with the second move.
    assert [frame["black_lost"] for frame in frames] == [0, 0, 1, 1, 1]
    assert [frame["white_lost"] for frame in frames] == [0, 0, 0, 0, 0]
    assert [move["mover"] for move in data["moves"]] == ["b", "w", "b", "w"]
    assert data["moves"][1]["pushed_off"] is True


def test_replay_page_shows_players_ratings_result_and_tournament(client, club, alice, bob):
    board = tournament_board(club, alice, bob, play_mode="server")
    game = archived_game(alice, bob, plies=4, result="0-1", termination="resignation")
    board.game = game
    board.save()
    for user, before, after in ((alice, 1500, 1488), (bob, 1500, 1520)):
        RatingChange.objects.create(
            user=user,
            game=game,
            category="blitz",
            rating_before=before,
            rating_after=after,
            opponent_rating=1500,
            score=0,
            played_at=T0,
        )
    response = client.get(f"/archive/games/{game.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="replay-data"' in html
    assert "1520 <span" in html and "(+20)" in html and "(-12)" in html
    assert "White wins by resignation" in html
    round_url = reverse("tournament-round", args=[board.round.tournament.slug, 1])
    assert f'href="{round_url}#board-1"' in html
    assert response.context["replay"]["frames"][-1]["position"] == game.position


def test_replay_of_a_game_in_progress_redirects_to_the_live_page(client, alice, bob):
    game = archived_game(alice, bob, status=Game.Status.STARTED, plies=2)
    response = client.get(f"/archive/games/{game.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert client.get("/archive/games/999999/").status_code == 404


# --- downloads --------------------------------------------------------------------------------------


def split_records(text: str) -> list[str]:
    return ["[" + part if index else part for index, part in enumerate(text.split("\n\n["))]


def test_one_record_reads_back_as_the_same_game(client, api, alice, bob):
    notations = notations_for(9)
    game = archived_game(
        alice, bob, notations=notations, result="0-1", termination="time", increment_seconds=2
    )
    response = client.get(f"/archive/games/{game.pk}.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    headers, engine_game = engine.read_record(text)
    assert list(engine_game.notations) == notations
    assert (engine_game.result, engine_game.termination) == ("0-1", "time")
    assert headers["Black"] == "alice" and headers["White"] == "bob"
    assert headers["Event"] == "Rated game"
    assert headers["Start"] == "belgian"
    assert headers["TimeControl"] == "300+2"
    assert headers["Date"] == "2026.11.21"
    assert headers["Site"] == "Sumito" and headers["GameId"] == str(game.pk)

    api_response = api().get(f"/api/v1/archive/games/{game.pk}/record")
    assert api_response.status_code == 200
    assert api_response.content.decode() == text
    missing = api().get("/api/v1/archive/games/999999/record")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_rule_ended_and_aborted_games_are_written(alice, bob):
    # Back and forth twice: the start occurs a third time and the engine ends it a draw.
    repeated = ["a2a3", "i6i7", "a3a2", "i7i6"] * 2
    game = archived_game(alice, bob, notations=repeated, result="1/2-1/2", termination="repetition")
    _headers, engine_game = engine.read_record(game_record(game))
    assert (engine_game.result, engine_game.termination) == ("1/2-1/2", "repetition")

    aborted = archived_game(alice, bob, status=Game.Status.ABORTED, plies=1)
    headers, engine_game = engine.read_record(game_record(aborted))
    assert engine_game.result is None and headers["Status"] == "aborted"


def test_tournament_download_holds_every_game(client, club, alice, bob, carol):
    board = tournament_board(club, alice, bob)
    other = Board.objects.create(
        round=board.round,
        number=2,
        black=Entrant.objects.create(tournament=board.round.tournament, user=carol),
        white=board.white,
    )
    first = archived_game(alice, bob, notations=notations_for(5))
    second = archived_game(carol, bob, notations=notations_for(7), ended_at=T0 + timedelta(1))
    board.game, other.game = first, second
    board.save()
    other.save()
    archived_game(alice, carol)  # not in the tournament
    slug = board.round.tournament.slug
    response = client.get("/archive/download", {"tournament": slug})
    assert response.status_code == 200
    assert f'filename="sumito-{slug}.txt"' in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode()
    records = split_records(text)
    assert len(records) == 2
    read = [engine.read_record(record) for record in records]
    assert [headers["GameId"] for headers, _ in read] == [str(second.pk), str(first.pk)]
    assert [headers["Round"] for headers, _ in read] == ["1.2", "1.1"]
    assert read[0][0]["Event"] == board.round.tournament.name
    assert list(read[0][1].notations) == notations_for(7)
    assert list(read[1][1].notations) == notations_for(5)


def test_a_tournament_export_writes_each_game_as_the_archive_does(
    client, club, alice, bob, carol, django_assert_max_num_queries
):
    """The same game is the same record wherever it is downloaded from, and the tournament's
    export reads its games a batch at a time, not a query per board."""
    board = tournament_board(club, alice, bob)
    tournament = board.round.tournament
    games = []
    for number in range(1, 7):
        black, white = (alice, bob) if number % 2 else (carol, alice)
        game = archived_game(black, white, notations=notations_for(number + 2))
        if number == 1:
            board.game = game
            board.save()
        else:
            Board.objects.create(
                round=board.round,
                number=number,
                black=Entrant.objects.get_or_create(tournament=tournament, user=black)[0],
                white=Entrant.objects.get_or_create(tournament=tournament, user=white)[0],
                game=game,
            )
        games.append(game)
    with django_assert_max_num_queries(8):
        exported = client.get(f"/tournaments/{tournament.slug}/export/games.txt").content.decode()
    records = split_records(exported)
    archive = [client.get(f"/archive/games/{game.pk}.txt").content.decode() for game in games]
    assert [r.strip() for r in records] == [r.strip() for r in archive]


def test_search_download_uses_the_same_filters(client, alice, bob, carol):
    archived_game(alice, bob, result="0-1")
    wanted = archived_game(bob, carol, result="1-0")
    archived_game(alice, carol, status=Game.Status.ABORTED, plies=0)
    text = b"".join(client.get("/archive/download", {"player": "carol"}).streaming_content)
    records = split_records(text.decode())
    assert len(records) == 1
    assert engine.read_record(records[0])[0]["GameId"] == str(wanted.pk)
    with_aborted = b"".join(
        client.get(
            "/archive/download", {"player": "carol", "include_aborted": "on"}
        ).streaming_content
    ).decode()
    assert len(split_records(with_aborted)) == 2


# --- import -----------------------------------------------------------------------------------------


@pytest.fixture
def otb_board(club, alice, bob):
    return tournament_board(club, alice, bob)


@pytest.fixture
def director(club):
    return club.memberships.get(role="owner").user


def test_import_creates_an_unrated_finished_game_on_the_board(api, otb_board, director):
    notations = notations_for(8, PUSH_OPENING)
    text = record_text(notations, black="Alice", white="?", result="0-1")
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 201, response.content
    body = response.json()
    otb_board.refresh_from_db()
    game = otb_board.game
    assert body["game"]["id"] == game.pk
    assert body["result_agrees"] is None and body["board_result"] is None
    assert body["record_result"] == "0-1"
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "resignation")
    assert game.rated is False
    assert (game.black.username, game.white.username) == ("alice", "bob")
    assert game.ply == 8
    moves = list(game.moves.order_by("ply"))
    assert [move.notation for move in moves] == notations
    assert all(move.clock_ms == 0 for move in moves)
    assert moves[1].pushed_off is True
    assert otb_board.result == ""  # the director enters it on the tournament pages
    assert not RatingChange.objects.exists()
    # The record written back is the same game; the replay shows no clocks.
    _headers, engine_game = engine.read_record(game_record(game))
    assert list(engine_game.notations) == notations
    assert archive.replay_data(game)["frames"][3]["black_ms"] is None


@pytest.mark.parametrize(("board_result", "agrees"), [("1-0", True), ("+-", True), ("0-1", False)])
def test_import_says_whether_the_board_result_agrees(
    api, otb_board, director, board_result, agrees
):
    otb_board.result = board_result
    otb_board.save()
    text = record_text(notations_for(4), black="alice", white="BOB", result="1-0")
    body = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text}).json()
    assert body["result_agrees"] is agrees
    otb_board.refresh_from_db()
    assert otb_board.result == board_result


def test_import_names_the_first_bad_move(api, otb_board, director):
    notations = notations_for(6)
    notations[3] = "a1a1"  # White's second move
    notations[5] = "zz99"
    text = record_text(notations)
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "illegal_move"
    assert "move 2 (White) a1a1" in body["detail"]
    assert "zz99" not in body["detail"]
    assert not Game.objects.exists()


def test_import_refuses_other_players_names(api, otb_board, director):
    text = record_text(notations_for(4), black="alice", white="carol")
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 422
    assert response.json()["error"] == "players_mismatch"
    assert "White is 'carol'" in response.json()["detail"]
    swapped = record_text(notations_for(4), black="bob", white="alice")
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": swapped})
    assert "other way round" in response.json()["detail"]
    assert not Game.objects.exists()


def test_import_by_a_non_director_is_403_and_changes_nothing(api, otb_board, alice):
    text = record_text(notations_for(4))
    response = api(alice).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 403
    assert response.json()["error"] == "permission_denied"
    assert api().post(IMPORT_API, {"board": otb_board.pk, "record": text}).status_code in (401, 403)
    assert not Game.objects.exists() and not Move.objects.exists()
    otb_board.refresh_from_db()
    assert otb_board.game is None


def test_import_on_a_board_with_a_game_is_409(api, otb_board, director, alice, bob):
    existing = archived_game(alice, bob)
    otb_board.game = existing
    otb_board.save()
    text = record_text(notations_for(4))
    response = api(director).post(IMPORT_API, {"board": otb_board.pk, "record": text})
    assert response.status_code == 409
    assert response.json()["error"] == "board_has_game"
    assert list(Game.objects.all()) == [existing]


def test_import_refuses_server_boards_unfinished_records_and_unknown_boards(
    api, club, director, alice, bob
):
    server_board = tournament_board(club, alice, bob, play_mode="server", number=2)
    text = record_text(notations_for(4))
    response = api(director).post(IMPORT_API, {"board": server_board.pk, "record": text})
    assert response.status_code == 409 and response.json()["error"] == "not_over_the_board"
    otb = tournament_board(club, alice, bob, number=3)
    unfinished = record_text(notations_for(4), result="*", termination="unterminated")
    response = api(director).post(IMPORT_API, {"board": otb.pk, "record": unfinished})
    assert response.status_code == 422 and response.json()["error"] == "unfinished_record"
    assert api(director).post(IMPORT_API, {"board": 999999, "record": text}).status_code == 404
    assert not Game.objects.exists()


def test_import_page(client, otb_board, director, alice):
    url = f"/archive/import/{otb_board.pk}/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(url).status_code == 403
    client.force_login(director)
    assert client.get(url).status_code == 200

    bad = record_text(["i8i7", "a1a1"])
    response = client.post(url, {"record": bad})
    assert response.status_code == 400
    assert "move 1 (White) a1a1" in response.content.decode()
    assert not Game.objects.exists()

    good = record_text(notations_for(4), black="alice", white="bob")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.txt", good.encode(), content_type="text/plain")
    response = client.post(url, {"record": "", "upload": upload}, follow=True)
    otb_board.refresh_from_db()
    assert otb_board.game is not None
    assert response.redirect_chain[-1][0] == f"/archive/games/{otb_board.game_id}/"
    assert "board has no result yet" in response.content.decode()


def test_replay_without_a_clock_and_the_replay_api(api, alice, bob):
    game = archived_game(alice, bob, plies=3, base_seconds=None, rated=False)
    body = api().get(f"/api/v1/archive/games/{game.pk}/replay").json()
    assert body["clocks_known"] is False
    assert {frame["black_ms"] for frame in body["frames"]} == {None}
    assert len(body["frames"]) == 4
    headers, _ = engine.read_record(game_record(game))
    assert (headers["TimeControl"], headers["Event"]) == ("-", "Casual game")
    assert api().get("/api/v1/archive/games/999999/replay").status_code == 404


def search_part(response) -> str:
    """The form and the results (the rest of the page carries a fresh nonce)."""
    html = response.content.decode()
    return html[html.index('id="archive-search"') : html.index("</table>")]


def search_drawn(response) -> bool:
    """Whether the search page drew its form and results (or took them from the cache)."""
    assert response.status_code == 200
    return "archive/_search_body.html" in [t.name for t in response.templates]


def test_a_search_page_is_drawn_once_then_again_whenever_its_games_change(client, club, alice, bob):
    """The form and the results are kept in the cache under the page's games read as values
    (bench/ratings.py): a second reader is served without drawing them; a game that ends, a
    renamed event, another page or another search is drawn at once."""
    board = tournament_board(club, alice, bob)
    board.game = archived_game(alice, bob, plies=1)
    board.save()
    search = {"player": "alice"}
    first = client.get("/archive/", search)
    assert search_drawn(first)
    again = client.get("/archive/", search)
    assert not search_drawn(again) and search_part(again) == search_part(first)
    assert again.content.decode().count("<tr data-game=") == 1

    newer = archived_game(bob, alice, plies=1, ended_at=T0 + timedelta(days=1))
    ended = client.get("/archive/", search)
    assert search_drawn(ended) and f'data-game="{newer.pk}"' in ended.content.decode()

    tournament = board.round.tournament
    tournament.name = "Renamed Open"
    tournament.save(update_fields=["name"])
    renamed = client.get("/archive/", search).content.decode()
    assert ">Renamed Open</a>" in renamed and "Open otb 1" not in renamed

    by_bob = client.get("/archive/", {"player": "bob", "result": "1-0"})
    assert search_drawn(by_bob)  # another search: its own form and rows
    assert 'value="bob"' in by_bob.content.decode()
