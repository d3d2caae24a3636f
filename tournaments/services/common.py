"""What every tournament service shares: the lock on the tournament row, the audit trail."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import NotFound
from tournaments.models import AuditEntry, Tournament


def locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this transaction (the first lock of every tournament
    service; see the lock order in ``tournaments.services``). NotFound if it was deleted."""
    found = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if found is None:
        raise NotFound(_("The tournament '%(slug)s' no longer exists.") % {"slug": tournament.slug})
    return found


def audit(
    tournament: Tournament, actor: User | None, what: str, detail: str, now: datetime | None
) -> None:
    """Write a director's action into the tournament's audit trail (in the caller's
    transaction: it is kept exactly when the action is)."""
    AuditEntry.objects.create(
        tournament=tournament,
        actor=actor,
        at=now or timezone.now(),
        what=what,
        detail=detail[:500],
    )
