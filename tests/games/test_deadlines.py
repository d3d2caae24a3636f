"""core.deadlines: the watcher that adjudicates flags with nobody watching (two-player games;
the tables' in tests/multiplayer/test_table_deadlines.py)."""

import dataclasses
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from core import deadlines
from core.deadlines import DeadlineWatcher
from tests.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_turn_adjudicates_what_is_due_and_waits_for_the_next_deadline(new_game, players):
    black, white = players
    now = timezone.now()
    due = new_game(base=60, now=now - timedelta(seconds=120))  # first move missed long ago
    later = new_game(base=60, now=now, first_move=30)  # its deadline: in 30 s
    watcher = DeadlineWatcher(poll_seconds=1.0)
    assert watcher.turn() == 1.0  # the next deadline is further than a poll away
    due.refresh_from_db()
    later.refresh_from_db()
    assert (due.status, due.termination) == ("finished", "abandoned")
    assert later.status == "started"
    soon = DeadlineWatcher(poll_seconds=60.0)
    assert 25 < soon.turn() <= 30  # it sleeps until the next deadline, not a fixed poll


def test_a_turn_with_no_game_in_progress_waits_one_poll():
    assert DeadlineWatcher(poll_seconds=0.5).turn() == 0.5
    assert deadlines.next_deadline() is None


def test_a_database_outage_is_logged_once_and_retried(monkeypatch, new_game):
    watcher = DeadlineWatcher(poll_seconds=0.25)
    logged = []
    for level in ("exception", "warning"):
        monkeypatch.setattr(deadlines.logger, level, lambda message, *args: logged.append(message))

    def down(**kwargs):
        raise OperationalError("the database is down")

    games = deadlines._clocked["games"]
    monkeypatch.setitem(deadlines._clocked, "games", dataclasses.replace(games, sweep=down))
    assert watcher.turn() == 0.25
    assert watcher.turn() == 0.25
    assert logged == ["deadline watcher: cannot reach the database; retrying"]
    monkeypatch.setitem(deadlines._clocked, "games", games)
    game = new_game(base=60, now=timezone.now() - timedelta(seconds=120))
    watcher.turn()
    game.refresh_from_db()
    assert game.status == "finished"
    assert logged[-1] == "deadline watcher: the database is back"


def test_the_watcher_thread_starts_once_per_process_and_stops(settings, new_game, players):
    settings.DEADLINE_WATCH_SECONDS = 0.1
    first = deadlines.start_watcher()
    try:
        assert first is deadlines.start_watcher()
        game = new_game(base=60, now=timezone.now() - timedelta(seconds=120))

        def finished_yet() -> bool:
            try:
                return type(game).objects.get(pk=game.pk).status == "finished"
            except OperationalError:  # in-memory SQLite's shared cache: the watcher is writing
                return False

        finished = wait_for(finished_yet, 20)
        game.refresh_from_db()
        assert finished, (game.status, first._thread.is_alive(), first._failing)
    finally:
        deadlines.stop_watcher()
    settings.DEADLINE_WATCHER = False
    assert deadlines.start_watcher() is None
