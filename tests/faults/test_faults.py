"""Nothing lost, nothing done twice, no flag missed: the production shape under faults.

Each test starts the stack (tests/faults/harness.py: its own Redis, two web processes, a
Celery worker, one beat, restarted by a supervisor when they die), breaks one part, and checks
the promises of docs/deploy.md: a flag falls within 2 s of its deadline while everything runs,
and within 10 s of the last fault ending, exactly once; a committed request is answered as
committed; a lost message is made up for by the periodic jobs; nothing happens twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import threading
import time

import pytest
from django.utils import timezone
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from clubs.models import Club, JoinRequest
from clubs.services import club_create
from games import engine
from games.models import Game, Move
from games.records import engine_game_of
from tests.faults.support import (
    FLAG_AFTER_FAULT_SECONDS,
    FLAG_ON_TIME_SECONDS,
    Http,
    flag_delays,
    flag_games,
    new_player,
    send_task,
    summary,
    unchanged_afterwards,
)
from tests.support import wait_for

# Faster catch-ups than production's minute, so a lost message is made up for within a test.
FAST = {"CATCH_UP_SECONDS": "3", "PAIRING_JOB_PATIENCE_SECONDS": "5"}


def test_flags_fall_within_two_seconds_while_everything_runs(stack_factory, make_player, report):
    stack_factory(env=FAST)
    games = flag_games(make_player, [2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
    delays = flag_delays(games)
    unchanged_afterwards(games)
    report(flags=summary(delays))
    assert max(delays) <= FLAG_ON_TIME_SECONDS


@pytest.mark.parametrize("keeps_data", [False, True], ids=["redis-empty", "redis-with-its-data"])
def test_a_worker_holding_a_task_lives_through_a_redis_restart_and_flags_still_fall(
    stack_factory, make_player, report, keeps_data
):
    """The issue's reproduction: a worker holding a task it has not acknowledged when Redis
    dies used to exit for good ("Unrecoverable error ... 'hostname'"), and flags stopped."""
    stack = stack_factory(env=FAST, redis_keeps_data=keeps_data)
    send_task(stack, "games.tasks.sweep_flags", countdown=60)  # held by the worker, unacked
    time.sleep(1.0)
    worker = stack.services["worker"].pid
    games = flag_games(make_player, [2, 3, 4, 5, 6])
    stack.down("redis")
    time.sleep(4.0)  # the outage
    stack.release("redis")  # the supervisor brings it back
    assert wait_for(stack.redis_up, 10)
    back = timezone.now()
    delays = flag_delays(games)  # the web processes' watchers need only the database
    unchanged_afterwards(games)

    owner = new_player(make_player, "own")
    club = club_create(owner=owner, name="Held Task Club", admission=Club.Admission.REQUEST)
    request = JoinRequest.objects.create(club=club, user=new_player(make_player, "app"))
    send_task(stack, "clubs.tasks.notify_join_request", request.pk)
    ran = wait_for(
        lambda: JoinRequest.objects.get(pk=request.pk).admins_notified_at is not None,
        FLAG_AFTER_FAULT_SECONDS,
    )
    took = (timezone.now() - back).total_seconds()
    assert stack.services["worker"].pid == worker and stack.services["worker"].alive(), (
        stack.tails()
    )
    assert "Unrecoverable error" not in stack.services["worker"].log.read_text()
    assert ran, stack.tails()
    report(flags=summary(delays), worker_runs_tasks_again_within_s=round(took, 2))
    assert max(delays) <= FLAG_ON_TIME_SECONDS


def test_flags_and_tasks_through_a_worker_kill(stack_factory, make_player, report):
    stack = stack_factory(env=FAST)
    games = flag_games(make_player, [2, 3, 4, 5, 6, 7])
    owner = new_player(make_player, "own")
    club = club_create(owner=owner, name="Killed Worker Club", admission=Club.Admission.REQUEST)
    stack.down("worker")
    applicant = Http.for_player(stack.base_url, new_player(make_player, "app"))
    status, _ = applicant.call("POST", f"/api/v1/clubs/{club.slug}/join/", {"message": "hi"})
    assert status == 201  # committed; its notice waits in Redis for a worker
    time.sleep(3.0)
    stack.release("worker")
    assert wait_for(lambda: stack.worker_ready(times=2), 60), stack.tails()
    restarted = time.monotonic()  # the fault ends: a worker is back
    request = JoinRequest.objects.get(club=club)
    assert wait_for(
        lambda: JoinRequest.objects.get(pk=request.pk).admins_notified_at is not None,
        FLAG_AFTER_FAULT_SECONDS,
    ), stack.tails()
    notified = JoinRequest.objects.get(pk=request.pk).admins_notified_at
    delays = flag_delays(games)
    unchanged_afterwards(games)
    time.sleep(4.0)  # the catch-up job runs meanwhile: it must not notify again
    assert JoinRequest.objects.get(pk=request.pk).admins_notified_at == notified
    report(
        flags=summary(delays),
        worker_back_and_task_done_within_s=round(time.monotonic() - restarted, 2),
    )
    assert max(delays) <= FLAG_ON_TIME_SECONDS


def test_flags_through_a_beat_kill_and_the_tournament_moves_on_when_it_is_back(
    stack_factory, make_player, report
):
    from tournaments import services as tournament_services
    from tournaments.models import Round

    stack = stack_factory(env=FAST)
    owner = new_player(make_player, "td")
    club = club_create(owner=owner, name="Beatless Club")
    players = [new_player(make_player, "tp") for _ in range(2)]
    tournament = tournament_services.tournament_create(
        club=club,
        actor=owner,
        name="Beatless Double Round-Robin",
        format="double_round_robin",
        play_mode="server",
        base_seconds=300,
        round_start="auto",
        round_pause_seconds=2,
        entry="open",
    )
    for player in players:
        tournament_services.tournament_register(
            tournament=tournament, user=player, now=timezone.now()
        )
    tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())
    games = flag_games(make_player, [2, 3, 4, 5])
    stack.down("beat")
    round_one = Round.objects.get(tournament=tournament, number=1)
    board = round_one.boards.get()
    from games import services as game_services

    game_services.game_resign(game_id=board.game_id, player=board.white.user, now=timezone.now())
    time.sleep(5.0)  # the pause ends while beat is down: nothing asks for round 2
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    stack.release("beat")
    back = time.monotonic()
    assert wait_for(  # waited for longer than promised, so that the promise below can fail
        lambda: Round.objects.filter(tournament=tournament, number=2, status="started").exists(),
        60,
    ), stack.tails()
    round_two_within = time.monotonic() - back
    delays = flag_delays(games)
    unchanged_afterwards(games)
    assert Round.objects.filter(tournament=tournament).count() == 2
    report(flags=summary(delays), round_2_started_after_beat_back_s=round(round_two_within, 2))
    assert max(delays) <= FLAG_ON_TIME_SECONDS
    assert round_two_within <= FLAG_AFTER_FAULT_SECONDS + 5  # beat's start, then its 5 s tick


@pytest.mark.parametrize("keeps_data", [False, True], ids=["redis-empty", "redis-with-its-data"])
def test_while_redis_is_down_committed_requests_answer_and_nothing_is_lost(
    stack_factory, make_player, report, keeps_data
):
    stack = stack_factory(env=FAST, redis_keeps_data=keeps_data)
    black, white = new_player(make_player, "rb"), new_player(make_player, "rw")
    mover = Http.for_player(stack.base_url, black)
    status, challenge = Http.for_player(stack.base_url, white).call(
        "POST", "/api/v1/challenges/", {"preset": "rapid-10+0", "colour": "white"}
    )
    assert status == 201
    status, state = mover.call("POST", f"/api/v1/challenges/{challenge['id']}/accept/")
    assert status == 201
    game_id = state["id"]
    owner = new_player(make_player, "own")
    club = club_create(owner=owner, name="Outage Club", admission=Club.Admission.REQUEST)
    games = flag_games(make_player, [2, 4, 6])

    # A blitz game: after Black's move White has 4 s, a deadline close enough that the move
    # used to schedule a task for it, which failed with Redis down: stored, but answered 500.
    blitz = flag_games(make_player, [4])[0].game
    blitz_mover = Http.for_player(stack.base_url, blitz.black)

    stack.down("redis")
    move = engine.legal_moves(engine.Position.from_string(state["position"]))[0].notation
    status, after = mover.call("POST", f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": 0})
    assert status == 200 and after["version"] == 1  # stored, answered; its event is lost
    move = engine.legal_moves(engine.Position.from_string(blitz.position))[0].notation
    status, after = blitz_mover.call(
        "POST", f"/api/v1/games/{blitz.pk}/moves/", {"move": move, "ply": blitz.ply}
    )
    assert status == 200 and after["version"] == blitz.ply + 1
    applicant = Http.for_player(stack.base_url, new_player(make_player, "app"))
    status, _ = applicant.call("POST", f"/api/v1/clubs/{club.slug}/join/", {"message": "hi"})
    assert status == 201  # stored; its notice message is lost with Redis
    socket_url = stack.base_url.replace("http://", "ws://") + f"/ws/games/{game_id}/"

    async def first_state():
        async with connect(socket_url, origin=stack.base_url) as socket:
            return json.loads(await asyncio.wait_for(socket.recv(), 5))

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(first_state())
    assert refused.value.response.status_code == 503  # not a 500: the page retries
    time.sleep(2.0)
    stack.release("redis")
    assert wait_for(stack.redis_up, 10)
    back = timezone.now()

    assert wait_for(lambda: _socket_opens(first_state), FLAG_AFTER_FAULT_SECONDS)
    request = JoinRequest.objects.get(club=club)
    assert wait_for(  # made up for by beat's catch-up job (CATCH_UP_SECONDS: 3 here)
        lambda: JoinRequest.objects.get(pk=request.pk).admins_notified_at is not None,
        FLAG_AFTER_FAULT_SECONDS + 10,
    ), stack.tails()
    caught_up = (timezone.now() - back).total_seconds()
    delays = flag_delays(games)
    unchanged_afterwards(games)
    assert Move.objects.filter(game_id=game_id).count() == 1
    report(flags=summary(delays), lost_notice_sent_after_redis_back_s=round(caught_up, 2))
    assert max(delays) <= FLAG_ON_TIME_SECONDS


def _socket_opens(first_state) -> bool:
    try:
        return asyncio.run(first_state())["type"] == "state"
    except (InvalidStatus, OSError):
        return False


def test_a_web_process_killed_during_a_move_burst_loses_and_doubles_no_move(
    stack_factory, make_player, report
):
    """Moves acknowledged are stored exactly once; a move whose answer was lost with its
    process is found stored or not by the client's refetch, never twice."""
    stack = stack_factory(env=FAST)
    games, clients = [], []
    for _ in range(6):
        black, white = new_player(make_player, "wb"), new_player(make_player, "ww")
        black_http = Http.for_player(stack.base_url, black)
        white_http = Http.for_player(stack.base_url, white)
        status, challenge = white_http.call(
            "POST", "/api/v1/challenges/", {"preset": "classical-30+0", "colour": "white"}
        )
        status, state = black_http.call("POST", f"/api/v1/challenges/{challenge['id']}/accept/")
        assert status == 201
        games.append(state["id"])
        clients.append({"b": black_http, "w": white_http})
    acknowledged: dict[int, dict[int, str]] = {game: {} for game in games}
    lost_answers = []
    plies = 400  # a cap: the burst goes on until the kills are done
    stop = threading.Event()

    def play(game_id: int, players: dict) -> None:
        chooser = random.Random(game_id)
        status, state = players["b"].call("GET", f"/api/v1/games/{game_id}/")
        while not stop.is_set() and state["version"] < plies and state["status"] == "started":
            side = state["side_to_move"]
            move = chooser.choice(state["legal_moves"])["notation"]
            status, answer = players[side].call(
                "POST", f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": state["version"]}
            )
            if status == 200:
                acknowledged[game_id][answer["version"]] = move
                state = answer
                continue
            lost_answers.append(status)  # the process died under it: look where the game is
            for _ in range(100):
                status, state = players["b"].call("GET", f"/api/v1/games/{game_id}/")
                if status == 200:
                    break
                time.sleep(0.1)

    threads = [
        threading.Thread(target=play, args=pair) for pair in zip(games, clients, strict=True)
    ]
    for thread in threads:
        thread.start()
    killed = []

    def replaced() -> bool:
        return len([pid for pid in stack.web_process_pids() if pid not in killed]) == 2

    # One web process, then the other, in the middle of moves; then again until a request in
    # flight was lost with its process (a process may happen to be idle at the instant it dies,
    # and the clients open a connection per request, so which process serves which is chance).
    for _attempt in range(10):
        time.sleep(0.7)
        victim = [pid for pid in stack.web_process_pids() if pid not in killed][0]
        os.kill(victim, signal.SIGKILL)  # uvicorn's parent starts another in its place
        killed.append(victim)
        assert wait_for(replaced, 30)
        if len(killed) >= 2 and lost_answers:
            break
    stop.set()
    for thread in threads:
        thread.join(180)
    assert wait_for(
        lambda: (
            len(stack.web_process_pids()) == 2 and not set(killed) & set(stack.web_process_pids())
        ),
        30,
    )
    assert lost_answers, "no request was in flight in the killed processes: the test saw no fault"

    for game_id in games:
        game = Game.objects.get(pk=game_id)
        moves = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "notation"))
        assert [ply for ply, _ in moves] == list(range(1, game.ply + 1))  # none lost, none twice
        assert game.ply > 0
        for ply, notation in acknowledged[game_id].items():
            assert dict(moves)[ply] == notation  # every acknowledged move, as acknowledged
        replayed = engine_game_of(game)
        assert replayed.position.to_string() == game.position
    report(
        moves=sum(Game.objects.get(pk=game_id).ply for game_id in games),
        acknowledged=sum(len(moves) for moves in acknowledged.values()),
        answers_lost_with_the_process=len(lost_answers),
    )


def test_a_postgres_connection_loss_is_recovered(stack_factory, make_player, report):
    """Every connection to the database is terminated while moves are being written in two
    games: each move is answered 200 and stored, or refused with a clear error and not stored
    (never a 500, never stored unanswered); flags still fall; every request after the loss
    answers 200."""
    from django.db import connection

    stack = stack_factory(env=FAST)
    games = flag_games(make_player, [3, 4, 5])
    black, white = new_player(make_player, "pb"), new_player(make_player, "pw")
    http_white = Http.for_player(stack.base_url, white)
    status, challenge = http_white.call("POST", "/api/v1/challenges/", {"preset": "rapid-10+0"})
    assert status == 201

    # two games whose moves are written while the connections die
    played, answers_in_flight, unconfirmed = [], [], set()
    stop = threading.Event()
    for _ in range(2):
        b, w = new_player(make_player, "db"), new_player(make_player, "dw")
        players = {"b": Http.for_player(stack.base_url, b), "w": Http.for_player(stack.base_url, w)}
        status, offer = players["w"].call(
            "POST", "/api/v1/challenges/", {"preset": "classical-30+0", "colour": "white"}
        )
        status, state = players["b"].call("POST", f"/api/v1/challenges/{offer['id']}/accept/")
        assert status == 201
        played.append((state["id"], players, {}))

    def play(game_id: int, players: dict, acknowledged: dict) -> None:
        chooser = random.Random(game_id)
        status, state = players["b"].call("GET", f"/api/v1/games/{game_id}/")
        while not stop.is_set() and state["status"] == "started" and state["version"] < 300:
            move = chooser.choice(state["legal_moves"])["notation"]
            status, answer = players[state["side_to_move"]].call(
                "POST", f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": state["version"]}
            )
            answers_in_flight.append(status)
            if status == 200:
                acknowledged[answer["version"]] = move
                state = answer
                continue
            assert isinstance(answer, dict) and answer.get("error"), (status, answer)
            if status == 503:  # the connection died under it: stored or not, the state says
                assert answer["error"] == "database_unavailable", answer
                unconfirmed.add((game_id, state["version"] + 1, move))
            status, state = players["b"].call("GET", f"/api/v1/games/{game_id}/")
            assert status == 200, state

    threads = [threading.Thread(target=play, args=game) for game in played]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # moves being written
    with connection.cursor() as cursor:  # every other connection to the test database dies
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        terminated = cursor.fetchone()[0]
    lost_at = timezone.now()
    time.sleep(1.5)  # and written on after the loss
    stop.set()
    for thread in threads:
        thread.join(60)
    answers = []
    http_black = Http.for_player(stack.base_url, black)
    for _ in range(10):
        answers.append(http_black.call("GET", f"/api/v1/challenges/{challenge['id']}/")[0])
    delays = flag_delays(games, fault_ended=lost_at)
    unchanged_afterwards(games)
    for game_id, _players, acknowledged in played:
        stored = dict(Move.objects.filter(game_id=game_id).values_list("ply", "notation"))
        # every move answered 200 is stored, at its ply; any other stored is one whose answer
        # said the database went away under it (its commit unconfirmed), never one refused
        assert acknowledged.items() <= stored.items(), game_id
        others = {(game_id, ply, move) for ply, move in stored.items() - acknowledged.items()}
        assert others <= unconfirmed, (others, unconfirmed)
        engine_game_of(Game.objects.get(pk=game_id))  # and the game replays
    report(
        connections_terminated=terminated,
        flags=summary(delays),
        moves_answered_around_the_loss={
            str(code): answers_in_flight.count(code) for code in sorted(set(answers_in_flight))
        },
        answers_after_the_loss=answers,
    )
    assert terminated >= 2
    assert set(answers_in_flight) <= {200, 409, 503}, answers_in_flight  # never a 500
    assert max(delays) <= FLAG_AFTER_FAULT_SECONDS
    assert answers == [200] * 10  # recovered at once


def test_every_task_delivered_three_times_does_its_work_once(
    stack_factory, make_player, report, settings
):
    """The Redis transport can deliver a message twice (and a lost message is sent again by the
    periodic jobs): every task must be harmless repeated."""
    from datetime import timedelta

    from analysis.models import Analysis
    from core.push_keys import public_key
    from games import services as game_services
    from games.models import Challenge, Vacation
    from games.options import GameOptions
    from notifications.models import Notification
    from notifications.services import notification_create, push_subscription_save
    from pools.models import PoolSeek
    from ratings.models import RatingChange, RecomputeRequest
    from ratings.recompute import ratings_recompute
    from tests.push_service import PushService
    from tournaments import services as tournament_services
    from tournaments.models import Board, Round

    stack = stack_factory(env=FAST)
    stack.down("beat")  # only the deliveries sent here
    settings.TOURNAMENT_INLINE_PAIRING_LIMIT = 1  # both tournaments: paired by a job

    flagged = flag_games(make_player, [1])
    time.sleep(1.5)
    challenger = new_player(make_player, "ch")
    challenge = Challenge.objects.create(
        challenger=challenger,
        created_at=timezone.now() - timedelta(hours=1),
        expires_at=timezone.now() - timedelta(minutes=1),
        base_seconds=600,
    )
    owner = new_player(make_player, "own")
    club = club_create(owner=owner, name="Twice Club", admission=Club.Admission.REQUEST)
    fresh = JoinRequest.objects.create(club=club, user=new_player(make_player, "a1"))
    old = JoinRequest.objects.create(club=club, user=new_player(make_player, "a2"))
    JoinRequest.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    tournaments = {}
    for round_start in ("manual", "auto"):
        tournament = tournament_services.tournament_create(
            club=club,
            actor=owner,
            name=f"Twice {round_start}",
            play_mode="server",
            round_start=round_start,
            entry="open",
        )
        for _ in range(4):
            tournament_services.tournament_register(
                tournament=tournament, user=new_player(make_player, "tp"), now=timezone.now()
            )
        tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())
        tournaments[round_start] = tournament
    request = RecomputeRequest.objects.create(
        since=timezone.now() - timedelta(days=1), requested_at=timezone.now()
    )
    # an analysis asked for, a pool with two players waiting, the computer to move
    analysis = Analysis.objects.create(
        requested_by=owner,
        kind=Analysis.Kind.POSITION,
        position=engine.start_position("belgian").to_string(),
        seconds=0.5,
        created=timezone.now(),
        sent_at=timezone.now(),
    )
    waiting = [new_player(make_player, "pw") for _ in range(2)]
    for user in waiting:
        PoolSeek.objects.create(user=user, pool="blitz-5+0", rating=1500, joined_at=timezone.now())
    human = Http.for_player(stack.base_url, new_player(make_player, "vc"))
    status, against = human.call(
        "POST", "/api/v1/computer/games/", {"level": 1, "colour": "white", "preset": "rapid-10+0"}
    )
    assert status == 201, against  # the computer, Black, is to move at ply 0
    # A correspondence game just begun (its player to move is told once), and a player back
    # from a vacation whose planned end passed (the stopped turn goes on, once).
    days = GameOptions(3 * 86_400, 0, 6, "standard", True)
    told = new_player(make_player, "cb")
    game_services.game_create(
        black=told, white=new_player(make_player, "cw"), options=days, now=timezone.now()
    )
    away = new_player(make_player, "vb")
    stopped = game_services.game_create(
        black=away,
        white=new_player(make_player, "vw"),
        options=days,
        now=timezone.now() - timedelta(days=2),
    )
    game_services.vacation_start(user=away, now=timezone.now() - timedelta(days=1))
    Vacation.objects.filter(user=away).update(ends_at=timezone.now() - timedelta(minutes=1))
    # Web Push: the correspondence player's device wants "your move", another player's device
    # a challenge already notified; each is pushed once however often the tasks run.
    push_service = PushService(public_key(settings.VAPID_PRIVATE_KEY))
    told_device, challenged_device = push_service.device(), push_service.device()
    challenged = new_player(make_player, "pc")
    for user, device, kind in (
        (told, told_device, "your_move"),
        (challenged, challenged_device, "challenge_received"),
    ):
        keys = device.subscription()["keys"]
        push_subscription_save(
            user=user,
            endpoint=device.endpoint,
            p256dh=keys["p256dh"],
            auth=keys["auth"],
            kinds=[kind],
            device="phone",
            now=timezone.now(),
        )
    challenge_note = notification_create(
        user=challenged,
        kind="challenge_received",
        key="push-twice",
        data={"from": "ch", "clock": "5+0", "rated": True},
        now=timezone.now(),
    )

    deliveries = [
        ("games.tasks.sweep_flags", ()),
        ("games.tasks.expire_challenges", ()),
        ("clubs.tasks.notify_join_request", (fresh.pk,)),
        ("clubs.tasks.notify_pending_join_requests", ()),
        ("tournaments.tasks.pair_round", (tournaments["manual"].pk, 1)),
        ("tournaments.tasks.advance_tournament", (tournaments["auto"].pk, 1)),
        ("tournaments.tasks.move_on", ()),
        ("ratings.tasks.recompute_requested", ()),
        ("accounts.tasks.purge_expired_sessions", ()),
        ("analysis.tasks.run_analysis", (analysis.pk,)),
        ("analysis.tasks.recover", ()),
        ("games.tasks.computer_move", (against["id"], 0)),
        ("games.tasks.computer_sweep", ()),
        ("multiplayer.tasks.sweep_flags", ()),
        ("notifications.tasks.send_due_emails", ()),
        ("pools.tasks.pair", ()),
        ("tournaments.tasks.remind_players", ()),
        ("games.tasks.correspondence_notify", ()),
        ("notifications.tasks.send_pushes", (challenge_note.pk,)),
        ("notifications.tasks.send_due_pushes", ()),
    ]
    # every task the site has (not Celery's own, nor those other tests register): a new one
    # must be added here
    from abalone_site.celery import app

    app.loader.import_default_modules()
    site_tasks = {n for n in app.tasks if not n.startswith(("celery.", "tests."))}
    assert {name for name, _ in deliveries} == site_tasks
    for _ in range(3):
        for name, args in deliveries:
            send_task(stack, name, *args)

    def all_done() -> bool:
        return (
            not Game.objects.filter(pk=flagged[0].game.pk, status="started").exists()
            and Challenge.objects.get(pk=challenge.pk).status == "expired"
            and JoinRequest.objects.filter(admins_notified_at__isnull=True).count() == 0
            and Round.objects.filter(tournament__in=tournaments.values()).count() == 2
            and Round.objects.get(tournament=tournaments["auto"]).status == "started"
            and RecomputeRequest.objects.get(pk=request.pk).done_at is not None
            and Analysis.objects.get(pk=analysis.pk).status == Analysis.Status.DONE
            and PoolSeek.objects.filter(status=PoolSeek.Status.PAIRED).count() == 2
            and Game.objects.get(pk=against["id"]).ply == 1
            and Notification.objects.filter(user=told, kind="your_move").exists()
            and Vacation.objects.get(user=away).resumed
            and push_service.pushes_to(told_device)
            and push_service.pushes_to(challenged_device)
        )

    assert wait_for(all_done, 30), stack.tails()
    first_notices = dict(JoinRequest.objects.values_list("pk", "admins_notified_at"))
    resumed_deadline = Game.objects.get(pk=stopped.pk).flag_deadline
    time.sleep(3.0)  # the rest of the deliveries arrive and find the work done
    unchanged_afterwards(flagged)
    assert dict(JoinRequest.objects.values_list("pk", "admins_notified_at")) == first_notices
    for tournament in tournaments.values():
        boards = Board.objects.filter(round__tournament=tournament)
        assert boards.count() == 2  # one round, its two boards, once
    auto_games = Board.objects.filter(round__tournament=tournaments["auto"], game__isnull=False)
    assert (
        auto_games.count() == 2
        and Game.objects.filter(tournament_board__round__tournament=tournaments["auto"]).count()
        == 2
    )
    assert RatingChange.objects.filter(game=flagged[0].game).count() == 2
    done = Analysis.objects.get(pk=analysis.pk)
    assert done.attempts == 1 and done.result["lines"], (done.attempts, done.result)
    paired = Game.objects.filter(black__in=waiting, white__in=waiting)
    assert paired.count() == 1  # one game for the two, not one per delivery
    assert Move.objects.filter(game_id=against["id"]).count() == 1  # the computer moved once
    assert Game.objects.get(pk=against["id"]).ply == 1
    assert Notification.objects.filter(user=told, kind="your_move").count() == 1
    # the turn went on from the two days it had left when the vacation began (a day into its
    # three), once: a second resume would have moved the deadline
    assert resumed_deadline is not None
    assert Game.objects.get(pk=stopped.pk).flag_deadline == resumed_deadline
    assert timedelta(hours=47) < resumed_deadline - timezone.now() <= timedelta(days=2)
    assert ratings_recompute().changes_that_differed == 0
    your_move = Notification.objects.get(user=told, kind="your_move")
    assert [push["id"] for push in push_service.pushes_to(told_device)] == [your_move.pk]
    assert [push["id"] for push in push_service.pushes_to(challenged_device)] == [challenge_note.pk]
    assert push_service.refused == []
    push_service.close()
    worker_log = stack.services["worker"].log.read_text()
    assert "Traceback" not in worker_log, worker_log[-3000:]
    report(tasks=len(deliveries), deliveries_each=3)  # every task name the site has
