"""The event's prize list: a director adds and removes prizes (the order they are added is
their priority); :mod:`tournaments.prizes` gives them out from the standings."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import InvalidInput, NotFound
from tournaments.models import Prize, Tournament
from tournaments.permissions import require_director
from tournaments.services.common import locked

#: Prizes an event may list.
MAX_PRIZES = 100


def prize_add(
    *,
    tournament: Tournament,
    actor: User,
    kind: str = Prize.Kind.OVERALL,
    threshold: int | None = None,
    club: str = "",
    amount=None,
    label: str = "",
) -> Prize:
    """A prize at the end of the list: an overall place or a category's place (a rating limit
    for "rated under", an age for the age prizes, a club's name for the club prize); money
    (``amount``) or a prize in kind (``label``), or both."""
    if kind not in Prize.Kind.values:
        raise InvalidInput(
            _("kind must be one of %(values)s.") % {"values": ", ".join(Prize.Kind.values)}
        )
    needs = {"rating_below": (1, 4000), "age_under": (1, 120), "age_over": (1, 120)}
    if kind in needs:
        low, high = needs[kind]
        if threshold is None or not low <= int(threshold) <= high:
            raise InvalidInput(
                _("A prize of the category “%(kind)s” needs a limit from %(low)s to %(high)s.")
                % {"kind": Prize.Kind(kind).label, "low": low, "high": high},
                code="prize_threshold",
            )
        threshold = int(threshold)
    else:
        threshold = None
    club = " ".join((club or "").split())[:80]
    if kind == Prize.Kind.CLUB and not club:
        raise InvalidInput(_("A club prize names the club."), code="prize_club")
    if amount in ("", None):
        amount = None
    else:
        try:
            amount = Decimal(str(amount)).quantize(Decimal("0.01"))
        except InvalidOperation as error:
            raise InvalidInput(_("The amount is a number, such as 100 or 25.50.")) from error
        if not Decimal(0) <= amount < Decimal(10_000_000):
            raise InvalidInput(_("The amount is a number, such as 100 or 25.50."))
    label = " ".join((label or "").split())[:80]
    if amount is None and not label:
        raise InvalidInput(
            _("A prize is money, a prize in kind (a trophy, a book), or both."), code="prize_empty"
        )
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("set its prizes"))
        count = Prize.objects.filter(tournament=tournament).count()
        if count >= MAX_PRIZES:
            raise InvalidInput(_("An event lists at most %(most)s prizes.") % {"most": MAX_PRIZES})
        last = Prize.objects.filter(tournament=tournament).aggregate(Max("position"))
        return Prize.objects.create(
            tournament=tournament,
            position=(last["position__max"] or 0) + 1,
            kind=kind,
            threshold=threshold,
            club=club if kind == Prize.Kind.CLUB else "",
            amount=amount,
            label=label,
        )


def prize_remove(*, tournament: Tournament, actor: User, prize_id: int) -> None:
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("set its prizes"))
        if not Prize.objects.filter(tournament=tournament, pk=prize_id).delete()[0]:
            raise NotFound(
                _("%(name)s has no prize %(prize)s.") % {"name": tournament.name, "prize": prize_id}
            )
