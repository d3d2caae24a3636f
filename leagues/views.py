"""A league's pages: the league (its divisions' tables with promotion and relegation marks,
the teams' calendars), a division (its table and every fixture), the forms that make them, the
season's start, and a team's iCalendar file."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from core.errors import ServiceError
from leagues import selectors, services
from leagues.calendar import team_calendar
from leagues.forms import DivisionForm, LeagueForm, NextSeasonForm, PostponeForm
from teams.models import Team
from tournaments.permissions import is_club_admin, is_director


def league_detail(request, slug: str):
    league = selectors.league_by_slug(slug)
    divisions = [(division, selectors.table(division)) for division in selectors.divisions(league)]
    return render(
        request,
        "leagues/detail.html",
        {
            "league": league,
            "divisions": divisions,
            "teams": selectors.league_teams(league),
            "is_admin": is_club_admin(league.club, request.user),
            "season_over": services.season_over(league),
        },
    )


def division_detail(request, slug: str, pk: int):
    league = selectors.league_by_slug(slug)
    division = selectors.division_of(league, pk)
    rounds: dict[int, list] = {}
    for fixture in selectors.fixtures(division):
        rounds.setdefault(fixture.round, []).append(fixture)
    tournament = division.tournament
    return render(
        request,
        "leagues/division.html",
        {
            "league": league,
            "division": division,
            "table": selectors.table(division),
            "rounds": [
                (number, tournament.round_time(number), fixtures)
                for number, fixtures in sorted(rounds.items())
            ],
            "is_admin": is_club_admin(league.club, request.user),
            "can_postpone": tournament.status == tournament.Status.RUNNING
            and is_director(tournament, request.user),
        },
    )


def _forbidden(request, club: Club):
    detail = _("Only an admin of %(name)s may organise its leagues.") % {"name": club.name}
    return render(request, "403.html", {"detail": detail, "back": club}, status=403)


def _form_page(request, form, make, done, title: str, back):
    """A league form's page: on a valid post ``make(**cleaned_data)``, then ``done(made)``
    gives the message and the page to go to; a refusal is shown on the form (422)."""
    if request.method == "POST" and form.is_valid():
        try:
            made = make(**form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            message, target = done(made)
            messages.success(request, message)
            return redirect(target)
    return render(
        request,
        "leagues/form.html",
        {"form": form, "title": title, "back": back},
        status=422 if form.errors else 200,
    )


@login_required
def league_create(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    if not is_club_admin(club, request.user):
        return _forbidden(request, club)
    return _form_page(
        request,
        LeagueForm(request.POST or None),
        partial(services.league_create, club=club, actor=request.user),
        lambda league: (_("%(league)s is made: add its divisions.") % {"league": league}, league),
        _("New league of %(club)s") % {"club": club.name},
        club,
    )


@login_required
def division_create(request, slug: str):
    league = selectors.league_by_slug(slug)
    if not is_club_admin(league.club, request.user):
        return _forbidden(request, league.club)
    return _form_page(
        request,
        DivisionForm(request.POST or None),
        partial(services.division_create, league=league, actor=request.user),
        lambda division: (
            _("%(division)s is made: the clubs' captains enter their teams on its Teams page.")
            % {"division": division.name},
            league,
        ),
        _("New division of %(league)s") % {"league": league},
        league,
    )


@login_required
def next_season(request, slug: str):
    """The league's next season: the same divisions, the teams moved by the tables' marks."""
    league = selectors.league_by_slug(slug)
    if not is_club_admin(league.club, request.user):
        return _forbidden(request, league.club)
    return _form_page(
        request,
        NextSeasonForm(request.POST or None),
        partial(services.league_next_season, league=league, actor=request.user, now=timezone.now()),
        lambda new: (
            _(
                "%(league)s is made: every team entered where the tables sent it; start "
                "each division's season when its teams are in."
            )
            % {"league": new},
            new,
        ),
        _("Next season of %(league)s") % {"league": league},
        league,
    )


@login_required
def fixture_postpone(request, slug: str, pk: int, match: int):
    """A director moves one match of the division to another day and hour (in the event's
    time zone)."""
    league = selectors.league_by_slug(slug)
    division = selectors.division_of(league, pk)
    tournament = division.tournament
    if not is_director(tournament, request.user):
        return _forbidden(request, league.club)
    fixture = selectors.fixture_of(division, match)
    with timezone.override(tournament.zone):  # the form's day and hour are the event's
        initial = {"when": timezone.localtime(fixture.when)} if fixture.when else {}
        return _form_page(
            request,
            PostponeForm(request.POST or None, initial=initial),
            partial(
                services.fixture_postpone,
                division=division,
                match_id=match,
                actor=request.user,
                now=timezone.now(),
            ),
            lambda moved: (
                _("%(home)s – %(away)s is moved to %(when)s; both teams' players are told.")
                % {
                    "home": moved.first.name,
                    "away": moved.second.name,
                    "when": date_format(timezone.localtime(moved.postponed_to), "DATETIME_FORMAT"),
                },
                division,
            ),
            _("Postpone %(home)s – %(away)s")
            % {"home": fixture.home.name, "away": fixture.away.name},
            division,
        )


@login_required
@require_POST
def division_start(request, slug: str, pk: int):
    league = selectors.league_by_slug(slug)
    division = selectors.division_of(league, pk)
    try:
        services.division_start(division=division, actor=request.user, now=timezone.now())
    except ServiceError as error:
        messages.error(request, error.detail)
    else:
        messages.success(
            request,
            _("The season of %(division)s has begun: round 1 is paired, its captains told.")
            % {"division": division.name},
        )
    return redirect("league-division", slug=league.slug, pk=division.pk)


def team_calendar_file(request, slug: str, team: str):
    league = selectors.league_by_slug(slug)
    found = get_object_or_404(Team, slug=team)
    text = team_calendar(
        league,
        found,
        selectors.team_fixtures(league, found),
        request.get_host().split(":")[0] or "sumito",
        timezone.now(),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-{found.slug}.ics"'
    return response
