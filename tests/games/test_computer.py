"""Games against the computer (games.computer): a game starts unrated, the computer's turn
queues a worker task, the task plays once at the ply it was asked about, levels and bad input."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import computer, computer_players, engine
from games.models import Game, Move


@pytest.fixture
def queued(monkeypatch):
    calls = []
    for module in (computer, computer_players):  # the sweep's, and each turn's (maybe_move)
        monkeypatch.setattr(module, "enqueue", lambda name, *args: calls.append((name, args)))
    return calls


def create(api, player, **body):
    body = {"level": 3, "base_seconds": 600, "increment_seconds": 0, **body}
    return api(player).post("/api/v1/computer/games/", body, format="json")


@pytest.mark.django_db
def test_the_computer_moves_first_as_black_from_a_worker_task(
    api, make_player, queued, django_capture_on_commit_callbacks
):
    ann = make_player("ann")
    with django_capture_on_commit_callbacks(execute=True):
        answer = create(api, ann, colour="white")
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    assert not game.rated and game.white_id == ann.pk
    assert game.black.username == "Sumito level 3"
    assert queued == [(computer.MOVE_TASK, (game.pk, 0))]
    with django_capture_on_commit_callbacks(execute=True):
        played = computer.computer_move_play(game_id=game.pk, ply=0)
    game.refresh_from_db()
    assert game.ply == 1 and Move.objects.get(game=game).notation == played
    # the same task again, or a stale one, plays nothing
    assert computer.computer_move_play(game_id=game.pk, ply=0) is None
    assert game.ply == 1 and Move.objects.filter(game=game).count() == 1
    # now the player's turn: nothing queued for the computer after its own move
    assert [args for name, args in queued if args[1] == 1] == []


@pytest.mark.django_db
def test_the_player_moves_and_the_computer_answers(
    api, make_player, queued, django_capture_on_commit_callbacks
):
    ann = make_player("ann")
    game_id = create(api, ann, colour="black", level=1).json()["id"]
    assert queued == []  # the player moves first
    position = engine.start_position("standard")
    first = position.legal_moves()[0].notation
    with django_capture_on_commit_callbacks(execute=True):
        moved = api(ann).post(
            f"/api/v1/games/{game_id}/moves/", {"move": first, "ply": 0}, format="json"
        )
    assert moved.status_code == 200
    assert queued == [(computer.MOVE_TASK, (game_id, 1))]
    assert computer.computer_move_play(game_id=game_id, ply=1) is not None
    assert Game.objects.get(pk=game_id).ply == 2


@pytest.mark.django_db
def test_the_computer_places_marbles_in_the_placement_phase(api, make_player, queued):
    ann = make_player("ann")
    game_id = create(api, ann, colour="white", start="placement").json()["id"]
    played = computer.computer_move_play(game_id=game_id, ply=0)
    assert played.startswith("@") and Game.objects.get(pk=game_id).ply == 1


@pytest.mark.django_db
def test_the_sweep_queues_a_lost_move_again(api, make_player, queued):
    ann = make_player("ann")
    game_id = create(api, ann, colour="white").json()["id"]
    queued.clear()
    assert computer.computer_sweep(now=timezone.now()) == 0  # just asked: not stuck
    later = timezone.now() + timedelta(seconds=computer.STUCK_SECONDS + 1)
    assert computer.computer_sweep(now=later) == 1
    assert queued == [(computer.MOVE_TASK, (game_id, 0))]


@pytest.mark.django_db
def test_levels_and_bad_input(api, make_player):
    levels = api().get("/api/v1/computer/levels/").json()["levels"]
    assert [level["level"] for level in levels] == list(range(1, 9))
    ann = make_player("ann")
    for body in ({"level": 0}, {"level": 9}, {"level": "x"}):
        answer = create(api, ann, **body)
        assert answer.status_code == 400 and answer.json()["error"]
    bad_start = create(api, ann, start="custom", start_position="b|a1|")
    assert bad_start.status_code in (400, 422)
    assert api().post("/api/v1/computer/games/", {"level": 3}, format="json").status_code in (
        401,
        403,
    )
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_a_computer_account_made_by_another_process_is_recognised(make_player, monkeypatch):
    """Another process (a web process, a worker) may make a level's account after this one
    first asked about the computer: this process must still recognise it."""
    monkeypatch.setattr(computer_players, "_levels_by_user", {})
    person = make_player("someone")
    assert computer.computer_level_of(person.pk) is None  # looked at before any computer exists
    assert computer.computer_sweep(now=timezone.now()) == 0
    # Made elsewhere: straight into the database, not through this process's computer_user.
    made = make_player(computer.computer_username(5))
    assert computer.computer_level_of(made.pk) == 5
    assert computer.computer_level_of(person.pk) is None


@pytest.mark.django_db(transaction=True)
def test_an_account_seen_in_a_transaction_that_rolls_back_is_not_remembered(monkeypatch):
    """SQLite hands a rolled-back id out again: a computer's account made (and looked at) in a
    transaction that rolls back must not mark that id as the computer's."""
    from django.db import transaction

    monkeypatch.setattr(computer_players, "_levels_by_user", {})
    with pytest.raises(RuntimeError), transaction.atomic():
        made = computer.computer_user(4)
        assert computer.computer_level_of(made.pk) == 4
        raise RuntimeError("rolled back")
    assert computer_players._levels_by_user == {}
    kept = computer.computer_user(4)
    assert computer_players._levels_by_user == {kept.pk: 4}
