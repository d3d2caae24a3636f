"""Team pages: a club's teams (and a new one), a team with its roster. Every change is a POST
that calls one service; a refusal becomes a message (or the 403 page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import player_named
from clubs.selectors import club_by_slug, membership_of
from core.errors import ServiceError
from teams import selectors, services
from teams.forms import TeamForm


def _is_admin(club, user) -> bool:
    membership = membership_of(club, user)
    return membership is not None and membership.is_admin


def club_teams(request, slug: str):
    club = club_by_slug(slug)
    admin = _is_admin(club, request.user)
    form = TeamForm(request.POST or None) if admin else None
    if request.method == "POST":
        if form is None:
            detail = _("Only an admin of %(club)s may make its teams.") % {"club": club.name}
            return render(request, "403.html", {"detail": detail, "back": club}, status=403)
        if form.is_valid():
            try:
                captain = (
                    player_named(form.cleaned_data["captain"])
                    if form.cleaned_data["captain"]
                    else None
                )
                team = services.team_create(
                    club=club,
                    actor=request.user,
                    name=form.cleaned_data["name"],
                    captain=captain,
                    category=form.cleaned_data["category"],
                )
            except ServiceError as error:
                form.add_error(None, error.detail)
            else:
                messages.success(request, _("%(name)s is made.") % {"name": team.name})
                return redirect(team)
    return render(
        request,
        "teams/club_teams.html",
        {"club": club, "teams": selectors.club_teams(club), "form": form, "is_admin": admin},
    )


def team_detail(request, slug: str):
    team = selectors.team_by_slug(slug)
    return render(
        request,
        "teams/team_detail.html",
        {
            "team": team,
            "roster": selectors.roster(team),
            "keeper": services.may_keep_roster(team, request.user),
            "is_admin": _is_admin(team.club, request.user),
        },
    )


@login_required
@require_POST
def team_action(request, slug: str, action: str):
    team = selectors.team_by_slug(slug)
    actor = request.user
    post = request.POST
    try:
        match action:
            case "add":
                user = selectors.club_player(team.club, post.get("username", ""))
                services.team_member_add(
                    team=team, actor=actor, user=user, reserve=post.get("reserve") == "on"
                )
                messages.success(
                    request,
                    _("%(name)s is on %(team)s.") % {"name": user.shown_name, "team": team.name},
                )
            case "remove":
                user = selectors.club_player(team.club, post.get("username", ""))
                services.team_member_remove(team=team, actor=actor, user=user)
                messages.success(
                    request,
                    _("%(name)s left %(team)s.") % {"name": user.shown_name, "team": team.name},
                )
            case "reserve" | "regular":
                user = selectors.club_player(team.club, post.get("username", ""))
                services.team_member_reserve(
                    team=team, actor=actor, user=user, reserve=action == "reserve"
                )
                messages.success(
                    request,
                    (
                        _("%(name)s is a reserve.")
                        if action == "reserve"
                        else _("%(name)s is a regular again.")
                    )
                    % {"name": user.shown_name},
                )
            case "up" | "down":
                names = [row.username for row in selectors.roster(team)]
                name = post.get("username", "")
                if name not in names:
                    raise Http404(_("%(username)s is not on the roster.") % {"username": name})
                at = names.index(name)
                to = at - 1 if action == "up" else at + 1
                if 0 <= to < len(names):
                    names[at], names[to] = names[to], names[at]
                services.team_roster_order(team=team, actor=actor, usernames=names)
                messages.success(request, _("Board order saved."))
            case "by-rating":
                services.team_roster_by_rating(team=team, actor=actor)
                messages.success(request, _("The board order follows the ratings again."))
            case "captain":
                name = post.get("username", "").strip()
                captain = player_named(name) if name else None
                services.team_update(team=team, actor=actor, captain=captain)
                messages.success(
                    request,
                    _("%(name)s captains %(team)s.")
                    % {"name": captain.shown_name, "team": team.name}
                    if captain
                    else _("%(team)s has no captain now.") % {"team": team.name},
                )
            case "delete":
                club = team.club
                services.team_delete(team=team, actor=actor)
                messages.success(request, _("%(team)s was removed.") % {"team": team.name})
                return redirect("club-teams", slug=club.slug)
            case _:
                raise Http404(_("Unknown team action %(action)s") % {"action": action})
    except ServiceError as error:
        if error.status == 403:
            return render(request, "403.html", {"detail": error.detail, "back": team}, status=403)
        messages.error(request, error.detail)
    return redirect(team)
