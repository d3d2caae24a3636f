"""Reads of teams: a club's teams, a team, its roster with each player's rating."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import find_player
from clubs.models import Club
from clubs.selectors import guest_of_club
from core.errors import NotFound
from ratings.selectors import current_ratings
from teams.models import Team, TeamMember


def club_teams(club: Club) -> QuerySet[Team]:
    return (
        Team.objects.filter(club=club)
        .select_related("captain")
        .annotate(players=Count("members"))
        .order_by("name")
    )


def club_player(club: Club, username: str) -> User:
    """The player called ``username``: an account, or a guest player of ``club`` (the entries
    of a real event have them); NotFound naming who was asked for."""
    player = find_player(username)
    if player is not None:
        return player
    try:
        return guest_of_club(club, (username or "").strip())
    except NotFound as error:
        raise NotFound(
            _("There is no player called '%(username)s', nor a guest player of %(club)s.")
            % {"username": (username or "").strip(), "club": club.name}
        ) from error


def team_by_slug(slug: str) -> Team:
    team = Team.objects.select_related("club", "captain").filter(slug=slug).first()
    if team is None:
        raise NotFound(_("There is no team '%(slug)s'.") % {"slug": slug})
    return team


def team_member(team: Team, user: User) -> TeamMember:
    """``user``'s place on the team's roster; NotFound when they are not on it."""
    member = team.members.filter(user=user).first()
    if member is None:
        raise NotFound(
            _("%(username)s is not on %(team)s.") % {"username": user.username, "team": team.name}
        )
    return member


@dataclass(frozen=True)
class RosterRow:
    board: int
    username: str
    name: str
    rating: int
    reserve: bool
    captain: bool


def roster(team: Team) -> list[RosterRow]:
    """The team's players in board order (the regulars, then the reserves), each with their
    rating in the team's category."""
    members = list(TeamMember.objects.filter(team=team).select_related("user").order_by("board"))
    ratings = current_ratings([member.user_id for member in members], team.category)
    return [
        RosterRow(
            member.board,
            member.user.username,
            member.user.shown_name,
            ratings[member.user_id],
            member.reserve,
            member.user_id == team.captain_id,
        )
        for member in members
    ]
