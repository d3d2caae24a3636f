"""A team event's pages: the teams entered (captains enter theirs), each round's matches with
the captains' line-up forms, the team standings. Their POSTs go to ``team_event_action``,
which calls :mod:`tournaments.services.team_events` (refusals are messages, a 403 page for
someone without the right)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import InvalidInput, ServiceError
from teams.models import Team
from tournaments import team_selectors
from tournaments.models import Round, TeamMatch, Tournament
from tournaments.services import cups, team_corrections, team_events, team_reports
from tournaments.tiebreaks.team import TEAM_TIEBREAKS
from tournaments.views import _context


def team_entries(request, slug: str):
    tournament = team_selectors.team_event_by_slug(slug)
    return render(
        request,
        "tournaments/team_entries.html",
        _context(
            request,
            tournament,
            entries=team_selectors.team_entries(tournament, request.user),
            to_enter=team_selectors.teams_to_enter(tournament, request.user),
        ),
    )


def team_matches(request, slug: str, number: int):
    tournament = team_selectors.team_event_by_slug(slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    matches = team_selectors.round_matches(tournament, number)
    return render(
        request,
        "tournaments/team_matches.html",
        _context(
            request,
            tournament,
            round=round_,
            matches=matches,
            lineup_forms=team_selectors.lineup_forms(tournament, number, request.user),
            report_forms=team_selectors.report_forms(tournament, round_, matches, request.user),
            armageddon_forms=team_selectors.armageddon_forms(tournament, matches, request.user),
            result_codes=team_reports.RESULTS,
            boards=range(1, tournament.team_boards + 1),
        ),
    )


def team_standings(request, slug: str):
    tournament = team_selectors.team_event_by_slug(slug)
    order = team_selectors.team_tiebreak_order(tournament)
    return render(
        request,
        "tournaments/team_standings.html",
        _context(
            request,
            tournament,
            rows=[
                (row, [row.values[code] for code in order])
                for row in team_selectors.team_standings(tournament)
            ],
            tiebreaks=[TEAM_TIEBREAKS[code] for code in order],
            crosstable=team_selectors.team_crosstable(tournament),
            board_results=team_selectors.board_results(tournament),
        ),
    )


def _team(data) -> Team:
    team = Team.objects.filter(slug=data.get("team", "")).select_related("club").first()
    if team is None:
        raise InvalidInput(_("Choose a team."), code="unknown_team")
    return team


def _match(tournament: Tournament, data) -> TeamMatch:
    match = (
        TeamMatch.objects.filter(pk=data.get("match") or 0, round__tournament=tournament)
        .select_related("round")
        .first()
    )
    if match is None:
        raise InvalidInput(_("Choose a match."), code="unknown_match")
    return match


@login_required
@require_POST
def team_event_action(request, slug: str, action: str):
    tournament = team_selectors.team_event_by_slug(slug)
    data, now = request.POST, timezone.now()
    page = reverse("tournament-teams", args=[tournament.slug])
    try:
        if action == "enter":
            team = _team(data)
            team_events.team_enter(tournament=tournament, team=team, actor=request.user, now=now)
            done = _("%(team)s is entered.") % {"team": team.name}
        elif action == "remove":
            team = _team(data)
            team_events.team_entry_remove(tournament=tournament, team=team, actor=request.user)
            done = _("%(team)s's entry is taken back.") % {"team": team.name}
        elif action == "withdraw":
            team = _team(data)
            team_events.team_withdraw(tournament=tournament, team=team, actor=request.user, now=now)
            done = _("%(team)s is withdrawn.") % {"team": team.name}
        elif action == "lineup":
            team = _team(data)
            match = _match(tournament, data)
            page = reverse("tournament-team-matches", args=[tournament.slug, match.round.number])
            players = team_events.lineup_players(
                [data.get(f"board_{n}", "") for n in range(1, tournament.team_boards + 1)]
            )
            if match.begun_at is not None:
                team_corrections.lineup_correct(
                    match=match, team=team, players=players, actor=request.user, now=now
                )
                done = _("%(team)s's line-up is corrected.") % {"team": team.name}
            else:
                team_events.lineup_submit(
                    match=match, team=team, players=players, actor=request.user, now=now
                )
                done = _("%(team)s's line-up is in.") % {"team": team.name}
        elif action == "armageddon":
            team = _team(data)
            match = _match(tournament, data)
            page = reverse("tournament-team-matches", args=[tournament.slug, match.round.number])
            player = team_events.lineup_players([data.get("player", "")])[0]
            if player is None:
                raise InvalidInput(_("Choose a player."), code="no_player")
            match = cups.armageddon_nominate(
                match=match, team=team, player=player, actor=request.user, now=now
            )
            done = _("%(player)s plays the Armageddon game for %(team)s.") % {
                "player": player.shown_name,
                "team": team.name,
            }
        elif action in ("report", "confirm", "dispute"):
            match = _match(tournament, data)
            page = reverse("tournament-team-matches", args=[tournament.slug, match.round.number])
            if action == "report":
                report = team_reports.match_report(
                    match=match,
                    results=[
                        data.get(f"result_{n}", "") for n in range(1, tournament.team_boards + 1)
                    ],
                    actor=request.user,
                    now=now,
                )
                done = {
                    "reported": _("The results are reported; the other captain confirms them."),
                    "confirmed": _("The results are confirmed and entered."),
                }.get(report.state, _("The reports differ: a director decides."))
            elif action == "confirm":
                team_reports.match_confirm(match=match, actor=request.user, now=now)
                done = _("The results are confirmed and entered.")
            else:
                team_reports.match_dispute(
                    match=match, actor=request.user, reason=data.get("reason", ""), now=now
                )
                done = _("The report is disputed: a director decides.")
        else:
            raise Http404(_("Unknown action."))
    except ServiceError as error:
        if error.status == 403:
            return render(
                request, "403.html", {"detail": error.detail, "back": tournament}, status=403
            )
        messages.error(request, error.detail)
        return redirect(page)
    messages.success(request, done)
    return redirect(page)
