"""Games against the computer (games.computer): a game starts unrated, the computer's turn
queues a worker task, the task plays once at the ply it was asked about, levels and bad input."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import computer, computer_players, engine
from games.models import ComputerTurn, Game, Move


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
def test_the_sweep_queues_a_lost_move_again(
    api, make_player, queued, django_capture_on_commit_callbacks
):
    """A turn whose task no worker took (lost with the broker, or sent while Redis was down) is
    sent again RESEND_SECONDS after it was sent, once per sweep that finds it, not before."""
    ann = make_player("ann")
    with django_capture_on_commit_callbacks(execute=True):  # the state published
        game_id = create(api, ann, colour="white").json()["id"]
    turn = ComputerTurn.objects.get(game_id=game_id)
    assert (turn.ply, turn.claimed_until, turn.sends) == (0, None, 1)  # written before sent
    queued.clear()
    assert computer.computer_sweep(now=timezone.now()) == 0  # just sent: not lost
    later = turn.sent_at + timedelta(seconds=computer.RESEND_SECONDS + 0.5)
    assert computer.computer_sweep(now=later) == 1
    assert queued == [(computer.MOVE_TASK, (game_id, 0))]
    assert ComputerTurn.objects.get(game_id=game_id).sends == 2
    assert computer.computer_sweep(now=later) == 0  # sent again just now: not twice


@pytest.mark.django_db
def test_a_worker_s_claim_keeps_the_turn_until_it_runs_out(api, make_player, queued):
    """A worker takes the turn for its thinking time and the margin: a second task (the same
    turn sent twice) does not think; the sweep leaves it alone until the claim runs out (the
    worker died), then sends it again; the move played deletes the turn."""
    ann = make_player("ann")
    game_id = create(api, ann, colour="white").json()["id"]
    now = timezone.now()
    assert computer.turn_claim(game_id, 0, seconds=2.0, now=now) is True
    assert computer.turn_claim(game_id, 0, seconds=2.0, now=now) is False  # held
    held = now + timedelta(seconds=2.0 + computer.CLAIM_MARGIN_SECONDS - 0.5)
    assert computer.computer_sweep(now=held) == 0
    assert computer.turn_claim(game_id, 0, seconds=2.0, now=held) is False
    ran_out = now + timedelta(seconds=2.0 + computer.CLAIM_MARGIN_SECONDS + 0.5)
    queued.clear()
    assert computer.computer_sweep(now=ran_out) == 1
    assert queued == [(computer.MOVE_TASK, (game_id, 0))]
    assert ComputerTurn.objects.get(game_id=game_id).claimed_until is None
    # the task sent again plays; the turn is gone; a stale copy plays nothing
    assert computer.computer_move_play(game_id=game_id, ply=0) is not None
    assert not ComputerTurn.objects.filter(game_id=game_id, ply=0).exists()
    assert Game.objects.get(pk=game_id).ply == 1
    assert computer.computer_move_play(game_id=game_id, ply=0) is None


@pytest.mark.django_db
def test_a_restarted_worker_sends_again_the_turns_of_gone_processes(api, make_player, queued):
    """A worker killed while it thought is restarted on its host: the new one, when ready,
    sends that turn again at once instead of waiting for the claim to run out; a turn held by
    a live process, or another host's, is left alone."""
    import os
    import socket
    import subprocess

    games = [create(api, make_player(name), colour="white").json()["id"] for name in "abc"]
    now = timezone.now()
    for game_id in games:
        assert computer.turn_claim(game_id, 0, seconds=5.0, now=now)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process number no process has now
    host = socket.gethostname()
    ComputerTurn.objects.filter(game_id=games[0]).update(claimed_by=f"{host}:{gone.pid}")
    ComputerTurn.objects.filter(game_id=games[1]).update(claimed_by=f"{host}:{os.getpid()}")
    ComputerTurn.objects.filter(game_id=games[2]).update(claimed_by=f"elsewhere:{gone.pid}")
    queued.clear()
    assert computer.turns_release_dead(host=host, now=now) == 1
    assert queued == [(computer.MOVE_TASK, (games[0], 0))]
    released = ComputerTurn.objects.get(game_id=games[0])
    assert (released.claimed_until, released.claimed_by, released.sends) == (None, "", 2)
    assert ComputerTurn.objects.get(game_id=games[1]).claimed_until is not None
    assert computer.turns_release_dead(host=host, now=now) == 0  # once


@pytest.mark.django_db
def test_a_turn_never_written_is_found_and_stale_turns_go(api, make_player, queued):
    """The web process died between the commit and the turn's write: the sweep finds the game
    where the computer has been to move with no turn, and writes and sends it; turns of games
    that ended or moved on are deleted."""
    ann = make_player("ann")
    game_id = create(api, ann, colour="white").json()["id"]
    ComputerTurn.objects.filter(game_id=game_id).delete()
    queued.clear()
    game = Game.objects.get(pk=game_id)
    later = game.turn_started_at + timedelta(seconds=computer.RESEND_SECONDS + 0.5)
    assert computer.computer_sweep(now=later) == 1
    assert queued == [(computer.MOVE_TASK, (game_id, 0))]
    assert ComputerTurn.objects.get(game_id=game_id).ply == 0
    # a turn left from an earlier ply, and one of a game that ended, are swept away
    other = create(api, make_player("bea"), colour="white").json()["id"]
    ComputerTurn.objects.filter(game_id=game_id).update(ply=7)
    Game.objects.filter(pk=other).update(status=Game.Status.ABORTED)
    computer.computer_sweep(now=timezone.now())
    assert not ComputerTurn.objects.filter(game_id__in=[game_id, other]).exists()


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
