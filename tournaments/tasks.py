"""Celery tasks that move tournaments on; thin and idempotent (pairing never happens twice)."""

import logging

from celery import shared_task
from django.utils import timezone

from abalone_site.errors import ServiceError
from tournaments import services

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.tasks.advance_tournament", ignore_result=True)
def advance_tournament(tournament_id: int, number: int) -> None:
    """Pair and start round ``number`` (automatic round start, after the pause)."""
    try:
        services.tournament_advance(tournament_id=tournament_id, number=number, now=timezone.now())
    except ServiceError as error:
        # e.g. a director paired or finished it meanwhile: the state says what to do next.
        logger.warning(
            "round %s of tournament %s not advanced: %s", number, tournament_id, error.detail
        )


@shared_task(name="tournaments.tasks.pair_round", ignore_result=True)
def pair_round(tournament_id: int, number: int) -> None:
    try:
        services.round_pair(tournament_id=tournament_id, number=number, now=timezone.now())
    except ServiceError as error:
        logger.warning(
            "round %s of tournament %s not paired: %s", number, tournament_id, error.detail
        )


@shared_task(name="tournaments.tasks.start_scheduled_rounds", ignore_result=True, expires=30)
def start_scheduled_rounds() -> int:
    return services.tournaments_start_scheduled(now=timezone.now())
