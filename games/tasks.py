"""Celery tasks: thin, idempotent, fetching by id. The clock's correctness is the sweep's."""

from celery import shared_task
from django.utils import timezone

from games import services


@shared_task(name="games.tasks.adjudicate_game", ignore_result=True)
def adjudicate_game(game_id: int) -> bool:
    """Scheduled at a game's deadline; a late, early or duplicate delivery changes nothing."""
    return services.game_adjudicate(game_id=game_id, now=timezone.now())


@shared_task(name="games.tasks.sweep_flags", ignore_result=True, expires=5)
def sweep_flags() -> int:
    """Every second (beat): adjudicate every game whose deadline has passed."""
    return services.games_sweep_flags(now=timezone.now())


@shared_task(name="games.tasks.expire_challenges", ignore_result=True, expires=60)
def expire_challenges() -> int:
    return services.challenges_expire(now=timezone.now())
