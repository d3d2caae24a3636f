"""Celery tasks: thin and idempotent. Flags are found by the deadline watcher of every web
process (core.deadlines); beat's sweep here is the second net."""

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from core.workers import this_host
from games import services


@shared_task(name="games.tasks.sweep_flags", ignore_result=True, expires=5)
def sweep_flags() -> int:
    """Every second (beat): adjudicate every game whose deadline has passed."""
    return services.games_sweep_flags(now=timezone.now())


@shared_task(name="games.tasks.expire_challenges", ignore_result=True, expires=60)
def expire_challenges() -> int:
    return services.challenges_expire(now=timezone.now())


@shared_task(name="games.tasks.correspondence_notify", ignore_result=True, expires=30)
def correspondence_notify() -> int:
    """Every 30 s (beat): the clocks of vacations over started again (and of vacations running,
    stopped where a move raced the vacation's start), conditional moves whose answer a dead
    process left unplayed, then correspondence games' "your move" and reminders (once each)."""
    now = timezone.now()
    return (
        services.vacations_resume(now=now)
        + services.vacations_hold(now=now)
        + services.conditional_moves_pending(now=now)
        + services.correspondence_notify(now=now)
    )


@shared_task(name="games.tasks.computer_move", ignore_result=True)
def computer_move(game_id: int, ply: int) -> str | None:
    """The computer thinks and plays its move in ``game_id`` if still to move at ``ply``."""
    from games.computer import computer_move_play

    return computer_move_play(game_id=game_id, ply=ply)


@shared_task(name="games.tasks.computer_sweep", ignore_result=True, expires=10)
def computer_sweep() -> int:
    """Every few seconds (beat): queue again the computer moves whose task was lost."""
    from games.computer import computer_sweep as sweep

    return sweep(now=timezone.now())


@worker_ready.connect
def release_dead_claims(**_kwargs) -> None:
    """A worker starting (a killed one restarted on its host) sends again at once the
    computer's turns that a gone process of this host was thinking on."""
    from games.computer import turns_release_dead

    try:
        sent = turns_release_dead(host=this_host(), now=timezone.now())
    except Exception:  # the database away: the sweep sends them when their claims run out
        logging.getLogger(__name__).exception("the computer's turns of gone processes")
        return
    if sent:
        logging.getLogger(__name__).warning("sent again %s turns of gone processes", sent)
