"""Parts of a TRF file Sumito's individual and team exports share: the time control, the day
a moment fell on where the event is played, an entrant's ``001`` identity."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from tournaments.models import Entrant, Tournament
from tournaments.pairing.trf import TrfIdentity


def time_control(tournament: Tournament) -> tuple[str, str]:
    """The time control as words (``122``) and as TRF-26's code ``S+I`` (``222``)."""
    if tournament.base_seconds is None:
        return "no clock", ""
    minutes, seconds = divmod(tournament.base_seconds, 60)
    words = f"{minutes} min" + (f" {seconds} s" if seconds else "")
    if tournament.increment_seconds:
        words += f" + {tournament.increment_seconds} s per move"
        return words, f"{tournament.base_seconds}+{tournament.increment_seconds}"
    return words, str(tournament.base_seconds)


def local_date(moment, tournament: Tournament) -> date | None:
    """The day of ``moment`` where the event is played."""
    if moment is None:
        return None
    if timezone.is_naive(moment):
        return moment.date()
    return timezone.localtime(moment, tournament.zone).date()


def entrant_identity(entrant: Entrant) -> TrfIdentity:
    """The entrant's ``001`` columns besides name and rating."""
    return TrfIdentity(
        sex=entrant.sex,
        title=entrant.title,
        federation=entrant.federation,
        birth=str(entrant.birth_year) if entrant.birth_year else "",
    )
