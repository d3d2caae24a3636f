"""Who may run a tournament: every permission check of the tournament services and pages.

Directors are the club's owner and admins and the arbiters they appoint for one tournament.
Creating a club's tournaments and appointing arbiters is for the club's admins only.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club, Membership
from core.errors import NotAllowed
from teams.models import Team
from teams.services import may_keep_roster
from tournaments.models import Arbiter, Tournament

ADMIN_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def is_club_admin(club: Club, user: User) -> bool:
    return (
        user.is_authenticated
        and Membership.objects.filter(club=club, user=user, role__in=ADMIN_ROLES).exists()
    )


def is_director(tournament: Tournament, user: User) -> bool:
    if not user.is_authenticated:
        return False
    return (
        is_club_admin(tournament.club, user)
        or Arbiter.objects.filter(tournament=tournament, user=user).exists()
    )


def acts_for(tournament: Tournament, team: Team, user: User, *, directors: bool = True) -> bool:
    """The team's captain, its club's admins and (``directors``) the event's directors act for
    a team."""
    return may_keep_roster(team, user) or (directors and is_director(tournament, user))


def require_club_admin(club: Club, user: User, action: str) -> None:
    if not is_club_admin(club, user):
        raise NotAllowed(
            _("Only an admin of %(name)s may %(action)s.") % {"name": club.name, "action": action}
        )


def require_director(tournament: Tournament, user: User, action: str) -> None:
    if not is_director(tournament, user):
        raise NotAllowed(
            _("Only the directors of %(name)s (club admins and arbiters) may %(action)s.")
            % {"name": tournament.name, "action": action}
        )
