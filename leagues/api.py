"""Leagues in the API: a club's leagues (``GET /api/v1/leagues/?club=``), a league with its
divisions' tables (promotion and relegation marks) and fixtures (``GET /api/v1/leagues/{slug}/``);
a club's admin makes a league, its divisions, starts a division's season and makes the next
season from the final tables (the services decide who may, as the pages' forms do). Teams
enter a division, send line-ups and report results through the division's event
(``/api/v1/tournaments/{slug}/...``); a team's fixtures as iCalendar are on the pages."""

from __future__ import annotations

from datetime import time

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.selectors import club_by_slug
from core.serializers import StrictSerializer, validated
from leagues import selectors, services
from leagues.models import Division, League
from tournaments.pairing.teams import MAX_BOARDS


class TableRowDocument(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.CharField(help_text="the team's slug")
    name = serializers.CharField()
    club = serializers.CharField()
    played = serializers.IntegerField()
    match_points = serializers.FloatField()
    game_points = serializers.FloatField()
    mark = serializers.CharField(help_text="promoted, relegated or blank")


class FixtureDocument(serializers.Serializer):
    round = serializers.IntegerField()
    when = serializers.DateTimeField(allow_null=True)
    home = serializers.CharField(help_text="the home team's slug")
    away = serializers.CharField()
    venue = serializers.CharField(help_text="the home team's club")
    score = serializers.ListField(
        child=serializers.FloatField(), allow_null=True, help_text="home first, once in"
    )
    report = serializers.CharField(help_text="the captains' report: reported, confirmed, ...")
    match = serializers.IntegerField(allow_null=True, help_text="null: not paired yet")
    postponed = serializers.BooleanField(
        help_text="`when` is the time its director moved the match to, not the match day"
    )


class DivisionDocument(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField()
    event = serializers.CharField(help_text="the division's tournament slug")
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    table = TableRowDocument(many=True)
    fixtures = FixtureDocument(many=True)


class LeagueDocument(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    season = serializers.CharField()
    club = serializers.CharField(help_text="the organising club's slug")
    divisions = DivisionDocument(many=True)


class LeagueSummary(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    season = serializers.CharField()
    club = serializers.CharField(help_text="the organising club's slug")


class LeagueInput(StrictSerializer):
    club = serializers.SlugField(max_length=80, help_text="the organising club's slug")
    name = serializers.CharField(max_length=80)
    season = serializers.CharField(max_length=20, help_text="e.g. 2026-27")
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class DivisionInput(StrictSerializer):
    name = serializers.CharField(max_length=60, help_text="e.g. Division 1")
    level = serializers.IntegerField(
        min_value=services.LEVELS[0], max_value=services.LEVELS[1], default=1
    )
    double = serializers.BooleanField(default=True, help_text="home and away")
    boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, default=4)
    promote = serializers.IntegerField(
        min_value=services.PROMOTE[0], max_value=services.PROMOTE[1], default=0
    )
    relegate = serializers.IntegerField(
        min_value=services.PROMOTE[0], max_value=services.PROMOTE[1], default=0
    )
    first_day = serializers.DateField(help_text="the first match day")
    match_time = serializers.TimeField(default=time(20, 0), help_text="matches begin at")
    days_between = serializers.IntegerField(
        min_value=services.DAYS_BETWEEN[0], max_value=services.DAYS_BETWEEN[1], default=14
    )
    time_zone = serializers.CharField(
        max_length=64, required=False, help_text="an IANA name; the club's by default"
    )


class PostponeInput(StrictSerializer):
    when = serializers.DateTimeField(help_text="the match's new day and hour (ISO 8601, offset)")


class NextSeasonInput(StrictSerializer):
    season = serializers.CharField(max_length=20, help_text="e.g. 2027-28")
    first_day = serializers.DateField(help_text="the first match day")


def _division_document(division: Division) -> dict:
    return {
        "id": division.pk,
        "name": division.name,
        "level": division.level,
        "event": division.tournament.slug,
        "promote": division.promote,
        "relegate": division.relegate,
        "table": [
            {
                "rank": row.rank,
                "team": row.entry.team.slug,
                "name": row.entry.name,
                "club": row.entry.team.club.name,
                "played": row.played,
                "match_points": row.match_points,
                "game_points": row.game_points,
                "mark": row.mark,
            }
            for row in selectors.table(division)
        ],
        "fixtures": [
            {
                "round": f.round,
                "when": f.when,
                "home": f.home.team.slug,
                "away": f.away.team.slug,
                "venue": f.venue,
                "score": list(f.score) if f.score else None,
                "report": f.report,
                "match": f.match.pk if f.match else None,
                "postponed": f.postponed,
            }
            for f in selectors.fixtures(division)
        ],
    }


def _league_document(league: League) -> dict:
    return {
        "slug": league.slug,
        "name": league.name,
        "season": league.season,
        "club": league.club.slug,
        "divisions": [_division_document(division) for division in selectors.divisions(league)],
    }


class LeaguesView(APIView):
    """GET: leagues, newest first (``?club=`` a club's). POST: a club's admin makes a league,
    without divisions (409 ``league_exists``: the club runs one of that name and season)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"GET": ("404",), "POST": ("404",)}  # a club that does not exist

    @extend_schema(
        parameters=[OpenApiParameter("club", str, description="a club's slug")],
        responses=LeagueSummary(many=True),
    )
    def get(self, request):
        club = request.query_params.get("club")
        leagues = selectors.leagues(club_by_slug(club) if club else None)
        return Response(
            [
                {"slug": x.slug, "name": x.name, "season": x.season, "club": x.club.slug}
                for x in leagues
            ]
        )

    @extend_schema(request=LeagueInput, responses={201: LeagueDocument})
    def post(self, request):
        data = dict(validated(LeagueInput, request.data))
        league = services.league_create(
            club=club_by_slug(data.pop("club")), actor=request.user, **data
        )
        return Response(_league_document(league), status=status.HTTP_201_CREATED)


class LeagueView(APIView):
    """A league: its divisions, their tables and fixtures."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=LeagueDocument)
    def get(self, request, slug: str):
        return Response(_league_document(selectors.league_by_slug(slug)))


class DivisionsView(APIView):
    """A club's admin adds a division to the league: a team round-robin over the board, open to
    every club's teams (their captains enter them on the division's event), its match days from
    the first one (409 ``division_exists``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DivisionInput, responses={201: DivisionDocument})
    def post(self, request, slug: str):
        league = selectors.league_by_slug(slug)
        division = services.division_create(
            league=league, actor=request.user, **validated(DivisionInput, request.data)
        )
        return Response(_division_document(division), status=status.HTTP_201_CREATED)


class DivisionStartView(APIView):
    """The division's season begins: its rounds on their match days, round 1 paired and its
    captains told (409 ``too_few_teams``; a started one: 409)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=DivisionDocument)
    def post(self, request, slug: str, division: int):
        league = selectors.league_by_slug(slug)
        found = selectors.division_of(league, division)
        services.division_start(division=found, actor=request.user, now=timezone.now())
        return Response(_division_document(selectors.division_of(league, division)))


class FixturePostponeView(APIView):
    """A director moves one match of the division to a later day and hour: the fixtures, the
    teams' calendars and the day-before reminder follow it, both teams' players are told. The
    same time again changes nothing; refused: a match played (409 ``match_played``), a
    finished season (409 ``season_over``), a time gone by (400 ``bad_date``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PostponeInput, responses=DivisionDocument)
    def post(self, request, slug: str, division: int, match: int):
        league = selectors.league_by_slug(slug)
        found = selectors.division_of(league, division)
        services.fixture_postpone(
            division=found,
            match_id=match,
            actor=request.user,
            now=timezone.now(),
            **validated(PostponeInput, request.data),
        )
        return Response(_division_document(found))


class NextSeasonView(APIView):
    """Once every division has played (409 ``season_not_over``), the next season: the same
    divisions, each team entered where its final table sends it (promoted up, relegated down,
    a withdrawn team left out)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=NextSeasonInput, responses={201: LeagueDocument})
    def post(self, request, slug: str):
        league = selectors.league_by_slug(slug)
        new = services.league_next_season(
            league=league,
            actor=request.user,
            now=timezone.now(),
            **validated(NextSeasonInput, request.data),
        )
        return Response(_league_document(new), status=status.HTTP_201_CREATED)
