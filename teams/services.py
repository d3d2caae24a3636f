"""Writes of teams: a club's admins make, rename and remove its teams and name their captains;
the admins and a team's captain keep its roster (who is on it, who is a reserve, the board
order). Every write locks the team's club first, then the team, so two captains' edits never
interleave; a roster's board order is rewritten whole (1..n, the regulars first)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club, GuestPlayer, Membership
from clubs.selectors import membership_of
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from ratings.elo import CATEGORIES
from ratings.selectors import current_ratings
from teams.models import Team, TeamMember
from teams.selectors import team_member

MAX_NAME = 60
MAX_ROSTER = 40

#: ``team_update(captain=KEEP)``, the default: the captain stays who it is (``captain=None``
#: leaves the team without one).
KEEP = object()


def _club_admin(club: Club, actor: User) -> bool:
    membership = membership_of(club, actor)
    return membership is not None and membership.is_admin


def _require_admin(club: Club, actor: User, action: str) -> None:
    if not _club_admin(club, actor):
        raise NotAllowed(
            _("Only an admin of %(club)s may %(action)s.") % {"club": club.name, "action": action}
        )


def may_keep_roster(team: Team, actor: User) -> bool:
    """The team's captain and the club's admins keep its roster."""
    if not actor.is_authenticated:
        return False
    return team.captain_id == actor.pk or _club_admin(team.club, actor)


def require_roster_keeper(team: Team, actor: User) -> None:
    """NotAllowed unless ``actor`` keeps the team's roster (:func:`may_keep_roster`)."""
    if not may_keep_roster(team, actor):
        raise NotAllowed(
            _("Only the captain of %(team)s or an admin of %(club)s may change its roster.")
            % {"team": team.name, "club": team.club.name}
        )


def _locked(team: Team) -> Team:
    Club.objects.select_for_update().filter(pk=team.club_id).first()
    found = Team.objects.select_for_update().select_related("club").filter(pk=team.pk).first()
    if found is None:
        raise NotFound(_("The team '%(slug)s' no longer exists.") % {"slug": team.slug})
    return found


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput(_("A team needs a name."))
    if len(name) > MAX_NAME:
        raise InvalidInput(_("A team's name has at most %(max)s characters.") % {"max": MAX_NAME})
    return name


def _belongs_to_club(club: Club, user: User) -> bool:
    return (
        Membership.objects.filter(club=club, user=user).exists()
        or GuestPlayer.objects.filter(club=club, user=user).exists()
    )


def _check_captain(club: Club, captain: User | None) -> None:
    if captain is not None and not _belongs_to_club(club, captain):
        raise InvalidInput(
            _("%(username)s is not a member of %(club)s: a captain is one of the club's.")
            % {"username": captain.username, "club": club.name}
        )


def _unique_slug(club: Club, name: str) -> str:
    base = slugify(f"{club.slug}-{name}")[:70] or "team"
    slug, suffix = base, 2
    while Team.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


def team_create(
    *,
    club: Club,
    actor: User,
    name: str,
    captain: User | None = None,
    category: str = "rapid",
) -> Team:
    """A new team of ``club`` (its admins only), its roster empty."""
    name = _clean_name(name)
    if category not in CATEGORIES:
        raise InvalidInput(
            _("The rating category is one of %(categories)s.")
            % {"categories": ", ".join(CATEGORIES)}
        )
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        _require_admin(club, actor, _("make its teams"))
        _check_captain(club, captain)
        if Team.objects.filter(club=club, name__iexact=name).exists():
            raise Conflict(
                _("%(club)s already has a team called %(name)s.")
                % {"club": club.name, "name": name},
                code="team_name_taken",
            )
        return Team.objects.create(
            club=club,
            name=name,
            slug=_unique_slug(club, name),
            captain=captain,
            category=category,
        )


def team_update(
    *, team: Team, actor: User, name: str | None = None, captain: User | None | object = KEEP
) -> Team:
    """Rename the team or name its captain (the club's admins). ``captain=None`` leaves it
    without one; :data:`KEEP` (the default) leaves the captain as is."""
    with transaction.atomic():
        team = _locked(team)
        _require_admin(team.club, actor, _("change its teams"))
        fields = []
        if name is not None:
            name = _clean_name(name)
            if Team.objects.filter(club=team.club, name__iexact=name).exclude(pk=team.pk).exists():
                raise Conflict(
                    _("%(club)s already has a team called %(name)s.")
                    % {"club": team.club.name, "name": name},
                    code="team_name_taken",
                )
            team.name = name
            fields.append("name")
        if captain is not KEEP:
            _check_captain(team.club, captain)
            team.captain = captain
            fields.append("captain")
        if fields:
            team.save(update_fields=fields)
        return team


def team_delete(*, team: Team, actor: User) -> None:
    with transaction.atomic():
        team = _locked(team)
        _require_admin(team.club, actor, _("remove its teams"))
        team.delete()


def team_member_add(*, team: Team, actor: User, user: User, reserve: bool = False) -> TeamMember:
    """Put ``user`` (a member or a guest player of the team's club, on no other team of it) on
    the roster: by rating among the regulars (or the reserves), unless the board order was set
    by hand, where a newcomer goes last of them."""
    with transaction.atomic():
        team = _locked(team)
        require_roster_keeper(team, actor)
        if not _belongs_to_club(team.club, user):
            raise InvalidInput(
                _("%(username)s is not a member of %(club)s.")
                % {"username": user.username, "club": team.club.name}
            )
        other = TeamMember.objects.filter(club=team.club, user=user).select_related("team").first()
        if other is not None:
            raise Conflict(
                _("%(username)s is already on %(team)s.")
                % {"username": user.username, "team": other.team.name},
                code="on_a_team",
            )
        members = list(team.members.select_related("user"))
        if len(members) >= MAX_ROSTER:
            raise Conflict(
                _("A roster has at most %(max)s players.") % {"max": MAX_ROSTER},
                code="roster_full",
            )
        try:
            member = TeamMember.objects.create(
                team=team, club=team.club, user=user, board=len(members) + 1, reserve=reserve
            )
        except IntegrityError as error:  # pragma: no cover - the lock above orders adds
            raise Conflict(
                _("%(username)s is already on a team.") % {"username": user.username}
            ) from error
        _renumber(team, [*members, member], by_rating=not team.order_set_by_hand)
        member.refresh_from_db()
        return member


def team_member_remove(*, team: Team, actor: User, user: User) -> None:
    with transaction.atomic():
        team = _locked(team)
        require_roster_keeper(team, actor)
        deleted, _count = TeamMember.objects.filter(team=team, user=user).delete()
        if not deleted:
            raise NotFound(
                _("%(username)s is not on %(team)s.")
                % {"username": user.username, "team": team.name}
            )
        _renumber(team, list(team.members.select_related("user")), by_rating=False)


def team_member_reserve(*, team: Team, actor: User, user: User, reserve: bool) -> TeamMember:
    """Make a player a reserve (after the regulars) or a regular again."""
    with transaction.atomic():
        team = _locked(team)
        require_roster_keeper(team, actor)
        member = team_member(team, user)
        if member.reserve != reserve:
            member.reserve = reserve
            member.save(update_fields=["reserve"])
            _renumber(
                team,
                list(team.members.select_related("user")),
                by_rating=not team.order_set_by_hand,
            )
            member.refresh_from_db()
        return member


def team_roster_order(*, team: Team, actor: User, usernames: list[str]) -> list[TeamMember]:
    """The captain sets the board order: ``usernames`` names every player on the roster once,
    board 1 first (the reserves keep their place after the regulars)."""
    with transaction.atomic():
        team = _locked(team)
        require_roster_keeper(team, actor)
        members = list(team.members.select_related("user"))
        by_name = {member.user.username.lower(): member for member in members}
        asked = [name.strip().lower() for name in usernames]
        if sorted(asked) != sorted(by_name) or len(set(asked)) != len(asked):
            raise InvalidInput(
                _("Give every player of the roster once, in board order: %(names)s.")
                % {"names": ", ".join(member.user.username for member in members)}
            )
        team.order_set_by_hand = True
        team.save(update_fields=["order_set_by_hand"])
        _renumber(team, [by_name[name] for name in asked], by_rating=False)
        return list(team.members.select_related("user"))


def team_roster_by_rating(*, team: Team, actor: User) -> list[TeamMember]:
    """Back to the board order by rating (in the team's category), highest first."""
    with transaction.atomic():
        team = _locked(team)
        require_roster_keeper(team, actor)
        team.order_set_by_hand = False
        team.save(update_fields=["order_set_by_hand"])
        _renumber(team, list(team.members.select_related("user")), by_rating=True)
        return list(team.members.select_related("user"))


def _renumber(team: Team, members: list[TeamMember], *, by_rating: bool) -> None:
    """Boards 1..n: the regulars, then the reserves, each in the order given (or by rating,
    highest first, then name)."""
    if by_rating:
        ratings = current_ratings([member.user_id for member in members], team.category)
        members = sorted(
            members,
            key=lambda member: (
                -ratings[member.user_id],
                member.user.shown_name.lower(),
                member.user_id,
            ),
        )
    ordered = [m for m in members if not m.reserve] + [m for m in members if m.reserve]
    for board, member in enumerate(ordered, start=1):
        if member.board != board:
            member.board = board
    TeamMember.objects.bulk_update(ordered, ["board"])
