"""A league's writes: the league, its divisions (each a team round-robin made through the
tournament services) and the season's start, when each division's match days become its
rounds' scheduled times and round 1 is paired (the captains told). Teams enter a division on
its event's Teams tab; line-ups, results reported by the captains and confirmed by the other,
and a director's corrections are the team events' own (``tournaments.services``). When the
season is over, the next one: the same divisions, the teams moved by the tables' marks."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club
from core.errors import Conflict, InvalidInput, NotFound
from leagues import selectors
from leagues.models import Division, League
from tournaments import notify, team_draw
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Round, TeamEntry, TeamMatch, Tournament
from tournaments.pairing.berger import berger_rounds
from tournaments.pairing.teams import team_match_score
from tournaments.permissions import require_club_admin, require_director
from tournaments.services import team_events
from tournaments.services.common import audit, locked
from tournaments.services.rounds import round_finish_if_complete

#: A division's settings and their bounds (the model's validators say the same).
LEVELS, PROMOTE, DAYS_BETWEEN = (1, 9), (0, 4), (1, 60)


def _text(value: str, what: str, longest: int) -> str:
    value = " ".join((value or "").split())
    if not 2 <= len(value) <= longest:
        raise InvalidInput(
            _("%(what)s has 2 to %(longest)s characters.") % {"what": what, "longest": longest},
            code="bad_name",
        )
    return value


def _number(value, what: str, bounds: tuple[int, int]) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = bounds[0] - 1
    if not bounds[0] <= number <= bounds[1]:
        raise InvalidInput(
            _("%(what)s is a whole number from %(low)s to %(high)s.")
            % {"what": what, "low": bounds[0], "high": bounds[1]},
            code="out_of_range",
        )
    return number


def league_create(
    *, club: Club, actor: User, name: str, season: str, description: str = ""
) -> League:
    """A new league of ``club`` (its admins direct it), without divisions."""
    require_club_admin(club, actor, _("organise its leagues"))
    name = _text(name, _("A league's name"), 80)
    season = _text(season, _("The season"), 20)
    if League.objects.filter(club=club, name__iexact=name, season__iexact=season).exists():
        raise Conflict(
            _("%(club)s already runs %(name)s %(season)s.")
            % {"club": club.name, "name": name, "season": season},
            code="league_exists",
        )
    base = slugify(f"{name}-{season}")[:110] or "league"
    slug, suffix = base, 2
    while League.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return League.objects.create(
        club=club,
        name=name,
        season=season,
        slug=slug,
        description=(description or "")[:2000],
        created_by=actor,
    )


def division_create(
    *,
    league: League,
    actor: User,
    name: str,
    first_day: date,
    level: int = 1,
    double: bool = False,
    boards: int = 4,
    promote: int = 0,
    relegate: int = 0,
    match_time: time = time(20, 0),
    days_between: int = 14,
    time_zone: str = "",
) -> Division:
    """A division: a team round-robin of the league's club, over the board and open to every
    club's teams, its rounds started at their match days (the line-ups' deadline)."""
    require_club_admin(league.club, actor, _("organise its leagues"))
    name = _text(name, _("A division's name"), 60)
    level = _number(level, _("The level"), LEVELS)
    promote = _number(promote, _("Promoted teams"), PROMOTE)
    relegate = _number(relegate, _("Relegated teams"), PROMOTE)
    days_between = _number(days_between, _("Days between match days"), DAYS_BETWEEN)
    if not isinstance(first_day, date):
        raise InvalidInput(_("Give the first match day."), code="bad_date")
    if Division.objects.filter(league=league, name__iexact=name).exists():
        raise Conflict(
            _("%(league)s already has a division %(name)s.") % {"league": league, "name": name},
            code="division_exists",
        )
    with transaction.atomic():
        tournament = tournament_services.tournament_create(
            club=league.club,
            actor=actor,
            name=f"{league.name} {league.season}: {name}"[:100],
            format=Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN
            if double
            else Tournament.Format.TEAM_ROUND_ROBIN,
            play_mode=Tournament.PlayMode.OTB,
            entry=Tournament.Entry.OPEN,
            team_boards=boards,
            starts_on=first_day,
            **({"time_zone": time_zone} if time_zone else {}),
        )
        return Division.objects.create(
            league=league,
            name=name,
            level=level,
            tournament=tournament,
            promote=promote,
            relegate=relegate,
            first_day=first_day,
            match_time=match_time,
            days_between=days_between,
        )


def match_days(division: Division, rounds: int) -> list[datetime]:
    """The division's match days for ``rounds`` rounds (naive: the event's time zone)."""
    return [
        datetime.combine(
            division.first_day + timedelta(days=division.days_between * k), division.match_time
        )
        for k in range(rounds)
    ]


def division_start(*, division: Division, actor: User, now: datetime):
    """The season begins in ``division``: its rounds are scheduled on its match days, the teams
    numbered and round 1 paired (each captain told; the round begins at its time)."""
    tournament = division.tournament
    require_director(tournament, actor, _("start its season"))
    teams = TeamEntry.objects.filter(tournament=tournament).count()
    if teams < 2:
        raise Conflict(_("A division needs at least 2 teams to start."), code="too_few_teams")
    double = tournament.format == Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN
    days = match_days(division, berger_rounds(teams, double=double))
    with transaction.atomic():
        tournament_services.tournament_update(
            tournament=tournament,
            actor=actor,
            round_start=Tournament.RoundStart.SCHEDULED,
            schedule=[day.isoformat() for day in days],
            ends_on=days[-1].date(),
        )
        return tournament_services.tournament_start(
            tournament=Tournament.objects.get(pk=tournament.pk), actor=actor, now=now
        )


def season_over(league: League) -> bool:
    """Every division of the league has played its season."""
    statuses = [division.tournament.status for division in league.divisions.all()]
    return bool(statuses) and all(status == Tournament.Status.FINISHED for status in statuses)


def league_next_season(
    *, league: League, actor: User, season: str, first_day: date, now: datetime
) -> League:
    """The league's next season once every division has played: the same divisions (levels,
    boards, promotion and relegation, match days from ``first_day`` at the same hour and
    spacing), each team entered where the final table sends it: a team marked promoted one
    level up, relegated one level down (to the first division of that level by name; a level
    with no division keeps it where it was), the others where they were. A team withdrawn
    from its division is not entered again."""
    require_club_admin(league.club, actor, _("organise its leagues"))
    old = list(league.divisions.select_related("tournament").order_by("level", "name"))
    if not old:
        raise Conflict(_("%(league)s has no division.") % {"league": league}, code="no_divisions")
    playing = [
        division.name
        for division in old
        if division.tournament.status != Tournament.Status.FINISHED
    ]
    if playing:
        raise Conflict(
            _("The season is not over: %(divisions)s still to finish.")
            % {"divisions": ", ".join(playing)},
            code="season_not_over",
        )
    if not isinstance(first_day, date):
        raise InvalidInput(_("Give the first match day."), code="bad_date")
    tables = {division.pk: selectors.table(division) for division in old}
    with transaction.atomic():
        new = league_create(
            club=league.club,
            actor=actor,
            name=league.name,
            season=season,
            description=league.description,
        )
        made = {
            division.pk: division_create(
                league=new,
                actor=actor,
                name=division.name,
                first_day=first_day,
                level=division.level,
                double=division.tournament.format == Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN,
                boards=division.tournament.team_boards,
                promote=division.promote,
                relegate=division.relegate,
                match_time=division.match_time,
                days_between=division.days_between,
                time_zone=division.tournament.time_zone,
            )
            for division in old
        }
        at_level: dict[int, Division] = {}
        for division in old:  # by level, then name: the first of each level
            at_level.setdefault(division.level, made[division.pk])
        for division in old:
            for row in tables[division.pk]:
                if row.entry.status == TeamEntry.Status.WITHDRAWN:
                    continue
                step = {selectors.PROMOTED: -1, selectors.RELEGATED: 1}.get(row.mark, 0)
                target = at_level.get(division.level + step) if step else None
                team_events.team_enter(
                    tournament=(target or made[division.pk]).tournament,
                    team=row.entry.team,
                    actor=actor,
                    now=now,
                )
    return new


def fixture_postpone(
    *, division: Division, match_id: int, actor: User, when: datetime, now: datetime
) -> TeamMatch:
    """The division's director moves one match (``match_id``) from its round's match day to
    ``when``, a later time: the fixtures, the teams' calendars and the day-before reminder
    follow it, both teams' players are told. Its line-ups stay open until it begins at that
    time (:func:`tournaments.services.rounds.team_match_begin`); its round and the next ones go
    on without it. A match whose round has begun without a result on it begins again then
    (:func:`tournaments.services.team_events.match_reopen`). The same time again changes
    nothing; a match played or under way, a finished season or a time gone by is refused."""
    tournament = division.tournament
    require_director(tournament, actor, _("postpone its matches"))
    if not isinstance(when, datetime) or when.tzinfo is None:
        raise InvalidInput(_("Give the day and the hour of the match."), code="bad_date")
    if when <= now:
        raise InvalidInput(_("A match is postponed to a time to come."), code="bad_date")
    with transaction.atomic():
        tournament = locked(tournament)  # as it is now; every match's writer locks it first
        match = (
            TeamMatch.objects.filter(pk=match_id, round__tournament=tournament)
            .exclude(second=None)
            .select_related("round", "first", "second")
            .first()
        )
        if match is None:
            raise NotFound(
                _("%(division)s has no match %(id)s.") % {"division": division.name, "id": match_id}
            )
        if match.postponed_to == when:
            return match
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(
                _("%(division)s's season is over.") % {"division": division.name},
                code="season_over",
            )
        if team_match_score(team_draw.match_results([match]).get(match.pk) or ("",)).complete:
            raise Conflict(
                _("%(home)s – %(away)s is played: it is not postponed.")
                % {"home": match.first.name, "away": match.second.name},
                code="match_played",
            )
        reopened = match.begun_at is not None
        if reopened:
            team_events.match_reopen(match)
        was = match.postponed_to or tournament.round_time(match.round.number)
        match.postponed_to = when
        match.save(update_fields=["postponed_to"])
        zone = tournament.zone
        moved = " → ".join(
            f"{moment.astimezone(zone):%Y-%m-%d %H:%M}" if moment else "?" for moment in (was, when)
        )
        detail = f"{match.first.name} – {match.second.name}: {moved}"
        audit(tournament, actor, AuditEntry.What.MATCH_POSTPONED, detail, now)
        notify.fixture_moved(match, now)
        if reopened:  # its round may be complete without it now
            round_ = Round.objects.select_for_update().get(pk=match.round_id)
            round_finish_if_complete(tournament, round_, now)
    return match
