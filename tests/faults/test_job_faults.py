"""Every kind of background work comes back after a fault (issue 24): analyses, tables,
background pairing and e-mail, as the computer's turns do (test_computer_faults.py).

Each test starts the stack (tests/faults/harness.py), breaks one part while that work is in
flight (a worker killed while it runs an analysis, Redis down when a job is sent, the mail server
refusing), and checks the work is done once, within the delay docs/deploy.md promises after
the fault ends.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.utils import timezone

from analysis.models import Analysis
from clubs.models import Club, JoinRequest
from clubs.services import club_create
from multiplayer import services as tables
from multiplayer.models import Table, TableMove
from notifications.models import Kind, Notification
from notifications.services import notification_create
from ratings.models import TableRatingChange
from tests.faults.harness import free_port
from tests.faults.mailserver import MailServer
from tests.faults.support import (
    FLAG_AFTER_FAULT_SECONDS,
    FLAG_ON_TIME_SECONDS,
    Http,
    new_player,
    summary,
)
from tests.support import wait_for

FAST = {"CATCH_UP_SECONDS": "3", "PAIRING_JOB_PATIENCE_SECONDS": "5"}


def _analysis(pk: int) -> Analysis:
    return Analysis.objects.get(pk=pk)


def test_an_analysis_whose_worker_is_killed_while_it_runs_runs_again_at_once(
    stack_factory, make_player, report
):
    stack = stack_factory(env=FAST)
    player = Http.for_player(stack.base_url, new_player(make_player, "an"))
    status, asked = player.call("POST", "/api/v1/analysis/", {"position": "standard", "seconds": 8})
    assert status == 202, asked
    assert wait_for(lambda: _analysis(asked["id"]).claimed_by != "", 15, every=0.02), stack.tails()
    time.sleep(1.0)  # a depth or two written
    stack.kill("worker")  # in the middle of its run
    assert _analysis(asked["id"]).status == Analysis.Status.RUNNING
    assert wait_for(lambda: stack.worker_ready(times=2), 60), stack.tails()
    back = time.monotonic()  # the fault ends: a worker is back
    assert wait_for(lambda: _analysis(asked["id"]).attempts == 2, 30, every=0.05), stack.tails()
    running_again = time.monotonic() - back
    assert wait_for(lambda: _analysis(asked["id"]).status == "done", 30), stack.tails()
    time.sleep(3.0)  # the sweep meanwhile must not run it a third time
    done = _analysis(asked["id"])
    assert (done.status, done.attempts, done.error) == ("done", 2, "")
    assert done.result["lines"] and done.result["best"]
    status, again = player.call("GET", f"/api/v1/analysis/{asked['id']}/")
    assert status == 200 and again["status"] == "done"
    report(analysis_running_again_after_worker_back_s=round(running_again, 2))
    # before: only when its heartbeat went stale (its 8 s and 15 s), 20-25 s after the kill
    assert running_again <= FLAG_AFTER_FAULT_SECONDS, stack.tails()


def test_an_analysis_asked_for_while_redis_is_down_runs_when_it_is_back(
    stack_factory, make_player, report
):
    stack = stack_factory(env=FAST)
    player = Http.for_player(stack.base_url, new_player(make_player, "ar"))
    stack.down("redis")
    asked = []
    for _ in range(2):  # the player's whole allowance of open analyses
        status, answer = player.call(
            "POST", "/api/v1/analysis/", {"position": "standard", "seconds": 1}
        )
        assert status == 202, answer  # written; its message is lost with Redis
        asked.append(answer["id"])
    time.sleep(4.0)  # the outage
    stack.release("redis")
    assert wait_for(stack.redis_up, 15), stack.tails()
    back = time.monotonic()

    def all_done() -> bool:
        return Analysis.objects.filter(pk__in=asked, status="done").count() == len(asked)

    assert wait_for(all_done, 30, every=0.05), stack.tails()
    took = time.monotonic() - back
    time.sleep(3.0)
    assert list(Analysis.objects.filter(pk__in=asked).values_list("attempts", flat=True)) == [1, 1]
    status, third = player.call("POST", "/api/v1/analysis/", {"position": "standard", "seconds": 1})
    assert status == 202, third  # the allowance is free again
    report(analyses_done_after_redis_back_s=round(took, 2))
    assert took <= FLAG_AFTER_FAULT_SECONDS, stack.tails()


#: Black's, White's and Red's first moves from the start of three (tests/multiplayer).
FIRST_MOVES = ["b2c2", "i6h6", "e8e7"]


def _table(make_player, left: int, *, base: int = 10, moved: bool = True) -> Table:
    """A full rated table of three on ``base`` seconds each, each player having moved once at
    its start (so its end is rated), started so that Black (to move) has ``left`` seconds
    from now."""
    users = [new_player(make_player, f"t{colour}") for colour in "bwr"]
    now = timezone.now() - timedelta(seconds=base - left)
    table = tables.table_create(
        creator=users[0], players=3, base_seconds=base, rated=True, colour="b", now=now
    )
    for user, colour in zip(users[1:], "wr", strict=True):
        tables.table_join(table_id=table.pk, user=user, colour=colour, now=now)
    for ply, (user, move) in enumerate(zip(users, FIRST_MOVES, strict=True)):
        if moved:
            tables.table_move(table_id=table.pk, user=user, move=move, expected_ply=ply, now=now)
    table.refresh_from_db()
    return table


def test_tables_flag_on_time_and_take_moves_with_the_database_alone(
    stack_factory, make_player, report
):
    """Redis, the worker and beat all down: table flags fall on time (every web process's
    deadline watcher), and a table move is answered and stored."""
    stack = stack_factory(env=FAST)
    flagging = [_table(make_player, base) for base in (3, 4, 5, 6)]
    played = _table(make_player, 600, base=600, moved=False)
    mover = Http.for_player(stack.base_url, played.seats.get(colour="b").user)
    for name in ("beat", "worker", "redis"):
        stack.down(name)
    status, answer = mover.call(
        "POST", f"/api/v1/tables/{played.pk}/moves/", {"move": "b2c2", "ply": 0}
    )
    assert status == 200, answer
    assert answer["ply"] == 1

    ids = [t.pk for t in flagging]
    assert wait_for(
        lambda: not Table.objects.filter(pk__in=ids, status=Table.Status.STARTED).exists(), 30
    ), stack.tails()
    delays = []
    for table in flagging:
        ended = Table.objects.get(pk=table.pk)
        assert (ended.status, ended.termination) == ("finished", "time")
        delays.append((ended.ended_at - table.flag_deadline).total_seconds())
    ends = dict(Table.objects.filter(pk__in=ids).values_list("pk", "ended_at"))
    for name in ("redis", "worker", "beat"):
        stack.release(name)
    assert wait_for(lambda: stack.worker_ready(times=2), 60), stack.tails()
    time.sleep(3.0)  # beat's sweeps run again: nothing is ended or rated twice
    assert dict(Table.objects.filter(pk__in=ids).values_list("pk", "ended_at")) == ends
    for table in flagging:
        assert TableRatingChange.objects.filter(table=table).count() == 3
    assert list(TableMove.objects.filter(table=played).values_list("ply", "notation")) == [
        (1, "b2c2")
    ]
    report(table_flags_with_redis_worker_and_beat_down=summary(delays))
    assert max(delays) <= FLAG_ON_TIME_SECONDS


def test_a_background_pairing_asked_for_while_redis_is_down_is_done_when_it_is_back(
    stack_factory, make_player, report
):
    from tournaments import services as tournament_services
    from tournaments.models import Board, Round

    stack = stack_factory(env={**FAST, "TOURNAMENT_INLINE_PAIRING_LIMIT": "2"})
    owner = new_player(make_player, "td")
    club = club_create(owner=owner, name="Paired Later Club")
    tournament = tournament_services.tournament_create(
        club=club,
        actor=owner,
        name="Paired After The Outage",
        play_mode="server",
        round_start="auto",
        entry="open",
    )
    for _ in range(6):
        tournament_services.tournament_register(
            tournament=tournament, user=new_player(make_player, "tp"), now=timezone.now()
        )
    director = Http.for_player(stack.base_url, owner)
    stack.down("redis")
    status, answer = director.call("POST", f"/api/v1/tournaments/{tournament.slug}/start/")
    assert status == 202, answer  # started; round 1 is a job's, whose message is lost
    time.sleep(3.0)  # the outage
    assert not Round.objects.filter(tournament=tournament).exists()
    stack.release("redis")
    assert wait_for(stack.redis_up, 15), stack.tails()
    back = time.monotonic()

    def started() -> bool:
        return Round.objects.filter(tournament=tournament, number=1, status="started").exists()

    assert wait_for(started, 60), stack.tails()
    took = time.monotonic() - back
    time.sleep(6.0)  # move_on runs again: no second pairing, no second game
    boards = Board.objects.filter(round__tournament=tournament)
    assert boards.count() == 3 and boards.filter(game__isnull=False).count() == 3
    assert Round.objects.filter(tournament=tournament).count() == 1
    report(round_paired_after_redis_back_s=round(took, 2), patience_s=5)
    # asked again once PAIRING_JOB_PATIENCE_SECONDS (5 here) has passed since the start, at
    # move_on's next tick (every 5 s)
    assert took <= 5 + FLAG_AFTER_FAULT_SECONDS, stack.tails()


def test_e_mails_the_mail_server_refused_are_sent_once_when_it_is_back(
    stack_factory, make_player, report
):
    """A join request's notice to the club's admins and a notification wanted by e-mail, while
    the mail server refuses every connection: neither is marked sent; each is sent once when
    the server is back (by the periodic jobs), and never again."""
    mail = MailServer(free_port())
    env = {**FAST, "EMAIL_URL": mail.url, "EMAIL_SWEEP_SECONDS": "2"}
    env["NOTIFICATION_EMAIL_DELAY_SECONDS"] = "0"
    stack = stack_factory(env=env)
    owner = new_player(make_player, "own")
    club = club_create(owner=owner, name="Mailless Club", admission=Club.Admission.REQUEST)
    applicant = Http.for_player(stack.base_url, new_player(make_player, "app"))
    status, _ = applicant.call("POST", f"/api/v1/clubs/{club.slug}/join/", {"message": "hi"})
    assert status == 201
    request = JoinRequest.objects.get(club=club)
    player = new_player(make_player, "np")
    notice = notification_create(
        user=player,
        kind=Kind.ROUND_PAIRED,
        key=f"fault-suite-{player.pk}",
        data={"tournament": "Mailless Open", "round": 1},
        now=timezone.now() - timedelta(seconds=1),
    )
    assert notice.email_wanted
    worker_log = stack.services["worker"].log

    def refused_twice() -> bool:
        text = worker_log.read_text(errors="replace")
        return (
            text.count(f"could not e-mail the join request {request.pk}") >= 2
            and text.count(f"could not e-mail notification {notice.pk}") >= 2
        )

    assert wait_for(refused_twice, 30), stack.tails()  # tried, refused, tried again

    def released() -> bool:  # not marked sent (a sweep may hold its claim for an instant)
        return (
            JoinRequest.objects.get(pk=request.pk).admins_notified_at is None
            and Notification.objects.get(pk=notice.pk).emailed_at is None
        )

    assert wait_for(released, 10, every=0.01)
    assert mail.mails == []
    mail.start()
    try:
        back = time.monotonic()
        assert wait_for(lambda: mail.to(owner.email) and mail.to(player.email), 30), stack.tails()
        took = time.monotonic() - back
        time.sleep(5.0)  # the periodic jobs run twice more
        assert len(mail.to(owner.email)) == 1 and "asks to join" in mail.to(owner.email)[0].subject
        assert len(mail.to(player.email)) == 1
        assert JoinRequest.objects.get(pk=request.pk).admins_notified_at is not None
        assert Notification.objects.get(pk=notice.pk).emailed_at is not None
    finally:
        mail.stop()
    report(e_mails_sent_after_the_mail_server_is_back_s=round(took, 2))
    assert took <= FLAG_AFTER_FAULT_SECONDS
