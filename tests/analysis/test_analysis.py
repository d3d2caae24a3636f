"""The analysis board's backend (analysis.services through the API): positions searched as they
deepen, finished games evaluated move by move with the biggest drops, limits and bad input."""

import pytest
from django.utils import timezone

from analysis import services
from analysis.models import Analysis
from games import engine
from games import services as game_services
from games.models import Game
from games.options import GameOptions

WIN_NOW = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,e2,e3|e1,h5,h6,h7,i5,i6,i7,i8,i9"


@pytest.fixture
def no_queue(monkeypatch):
    queued = []
    monkeypatch.setattr(services, "enqueue", lambda name, *args: queued.append((name, args)))
    return queued


def finished_game(make_player, plies=12):
    black, white = make_player("b_an"), make_player("w_an")
    now = timezone.now()
    game = game_services.game_create(
        black=black, white=white, options=GameOptions(None, 0, 6, "belgian", False), now=now
    )
    for _ in range(plies):
        game.refresh_from_db()
        position = engine.Position.from_string(game.position)
        move = sorted(position.legal_moves(), key=lambda m: (not m.pushed, m.notation))[0]
        player = black if game.side_to_move == "b" else white
        game_services.game_move_apply(
            game_id=game.pk, player=player, move=move.notation, expected_ply=game.ply, now=now
        )
    game_services.game_resign(game_id=game.pk, player=white, now=now)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_a_position_is_analysed_depth_by_depth_and_finds_the_winning_push(
    api, make_player, no_queue
):
    ann = make_player("ann")
    answer = api(ann).post("/api/v1/analysis/", {"position": WIN_NOW, "seconds": 1}, format="json")
    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    analysis_id = answer.json()["id"]
    assert no_queue == [(services.RUN_TASK, (analysis_id,))]
    assert services.analysis_run(analysis_id=analysis_id) is True
    assert services.analysis_run(analysis_id=analysis_id) is False  # once
    document = api().get(f"/api/v1/analysis/{analysis_id}/").json()
    assert document["status"] == "done" and document["best"] == "e3e2"
    assert document["lines"][0]["depth"] == 1 and document["lines"][-1]["pv"][0] == "e3e2"


@pytest.mark.django_db
def test_a_finished_game_is_evaluated_after_each_move(api, make_player, no_queue):
    game = finished_game(make_player)
    ann = make_player("ann")
    answer = api(ann).post("/api/v1/analysis/", {"game": game.pk}, format="json")
    assert answer.status_code == 202
    services.analysis_run(analysis_id=answer.json()["id"])
    document = api().get(f"/api/v1/analysis/{answer.json()['id']}/").json()
    evaluations = document["evaluations"]
    assert [e["ply"] for e in evaluations] == list(range(game.ply + 1))
    assert evaluations[0]["move"] is None and evaluations[1]["move"]
    assert evaluations[-1]["position"] == game.position
    assert len(document["drops"]) <= 3
    assert all(1 <= ply <= game.ply for ply in document["drops"])


def test_the_biggest_drops_are_the_movers_losses():
    evaluations = [
        {"ply": 0, "score": 0, "position": "b|"},
        {"ply": 1, "score": -900, "position": "w|"},  # Black's move lost 900
        {"ply": 2, "score": -800, "position": "b|"},  # White's move lost 100 (White's view)
        {"ply": 3, "score": 500, "position": "w|"},  # Black gained
        {"ply": 4, "score": 2000, "position": "b|"},  # White's move lost 1500
    ]
    assert services.biggest_drops(evaluations) == [4, 1, 2]


@pytest.mark.django_db
def test_bad_requests_and_limits(api, make_player, no_queue):
    ann = make_player("ann")
    client = api(ann)
    bad = client.post("/api/v1/analysis/", {"position": "b|a1,a1|"}, format="json")
    assert bad.status_code == 422 and bad.json()["error"] == "bad_position"
    assert client.post("/api/v1/analysis/", {"game": 999999}, format="json").status_code == 404
    black, white = make_player("x1"), make_player("x2")
    live = game_services.game_create(
        black=black,
        white=white,
        options=GameOptions(600, 0, 6, "belgian", False),
        now=timezone.now(),
    )
    unfinished = client.post("/api/v1/analysis/", {"game": live.pk}, format="json")
    assert unfinished.status_code == 409
    assert Analysis.objects.count() == 0
    for _ in range(services.ANALYSIS_OPEN_LIMIT):
        assert (
            client.post("/api/v1/analysis/", {"position": "standard"}, format="json").status_code
            == 202
        )
    over = client.post("/api/v1/analysis/", {"position": "standard"}, format="json")
    assert over.status_code == 429 and over.json()["error"] == "too_many_analyses"
    assert Analysis.objects.count() == services.ANALYSIS_OPEN_LIMIT
    assert api().post("/api/v1/analysis/", {"position": "standard"}, format="json").status_code in (
        401,
        403,
    )


@pytest.mark.django_db
def test_the_legal_moves_of_a_position(api):
    document = api().get("/api/v1/analysis/moves/", {"position": "standard"}).json()
    assert len(document["moves"]) == 44 and document["side_to_move"] == "b"
    first = document["moves"][0]
    assert engine.Position.from_string(first["position"]).side_to_move == "w"
    bad = api().get("/api/v1/analysis/moves/", {"position": "nonsense"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_position"


@pytest.mark.django_db
def test_the_board_page_says_when_a_position_could_not_be_read(client):
    page = client.get("/analysis/", {"position": "b|a1,a1|"}).content.decode()
    assert 'id="position-error"' in page and "standard start" in page
    good = client.get("/analysis/", {"position": "belgian"})
    assert good.status_code == 200 and 'id="position-error"' not in good.content.decode()
    # no game 999999: the page says so and shows the position given
    missing = client.get("/analysis/", {"position": "belgian", "game": "999999", "ply": "5"})
    assert missing.status_code == 200
    assert 'id="game-error"' in missing.content.decode()
    assert missing.context["position"] == engine.start_position("belgian").to_string()
    assert client.get("/analysis/999999/").status_code == 404


@pytest.mark.django_db
def test_the_board_page_on_a_game_that_is_over_carries_its_moves_and_analysis(client, make_player):
    game = finished_game(make_player)
    page = client.get("/analysis/", {"game": str(game.pk), "ply": "5", "moves": "a1b2,c3d4"})
    assert page.status_code == 200 and 'id="from-game"' in page.content.decode()
    line = page.context["line"]
    moves = list(game.moves.order_by("ply"))
    assert line["start"] == game.start_position == page.context["position"]
    assert line["moves"] == [{"notation": m.notation, "position": m.position_after} for m in moves]
    assert line["finished"] is True and line["analysis"] is None
    assert page.context["start"] == {"ply": 5, "moves": ["a1b2", "c3d4"]}
    # a done analysis of the game comes with it
    analysis = Analysis.objects.create(
        requested_by=game.black, kind=Analysis.Kind.GAME, game=game, seconds=0.1,
        status=Analysis.Status.DONE, created=timezone.now(),
        result={"evaluations": [{"ply": 0, "score": 5}], "drops": []},
    )  # fmt: skip
    line = client.get("/analysis/", {"game": str(game.pk)}).context["line"]
    assert line["analysis"]["id"] == analysis.pk
    assert line["analysis"]["evaluations"] == [{"ply": 0, "score": 5}]
    # a game still being played is not shown with its moves
    live = game_services.game_create(
        black=game.black, white=game.white, options=GameOptions(None, 0, 6, "standard", False),
        now=timezone.now(),
    )  # fmt: skip
    refused = client.get("/analysis/", {"game": str(live.pk)})
    assert refused.context["line"] is None and 'id="game-error"' in refused.content.decode()
