"""Celery tasks that move tournaments on; thin and idempotent (pairing never happens twice).

A round that cannot be paired in the background is recorded on the tournament for its
directors (``round_pair_in_background``), never left "being paired"; a job that never ran (its
message lost) is asked for again by ``move_on``. The database says what is due; messages only
make it happen sooner.
"""

from celery import shared_task
from django.utils import timezone

from tournaments import notify, services


@shared_task(name="tournaments.tasks.advance_tournament", ignore_result=True)
def advance_tournament(tournament_id: int, number: int) -> None:
    """Pair and start round ``number`` (automatic round start, after the pause)."""
    services.round_pair_in_background(
        tournament_id=tournament_id, number=number, start=True, now=timezone.now()
    )


@shared_task(name="tournaments.tasks.pair_round", ignore_result=True)
def pair_round(tournament_id: int, number: int) -> None:
    services.round_pair_in_background(
        tournament_id=tournament_id, number=number, start=False, now=timezone.now()
    )


@shared_task(name="tournaments.tasks.move_on", ignore_result=True, expires=10)
def move_on() -> int:
    """Every few seconds (beat): start scheduled rounds, pair the next round of automatic
    tournaments after their pause, and ask again for pairings whose job never answered."""
    return services.tournaments_move_on(now=timezone.now())


@shared_task(name="tournaments.tasks.remind_players", ignore_result=True, expires=50)
def remind_players() -> int:
    """Every minute (beat): remind the players of events about to start, the captains whose
    line-up is not in before a scheduled round and the players of teams that play tomorrow
    (once each)."""
    now = timezone.now()
    return (
        notify.remind_players(now=now)
        + notify.remind_captains(now=now)
        + notify.remind_fixtures(now=now)
    )
