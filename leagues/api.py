"""A league in the API: the league with its divisions' tables (promotion and relegation marks)
and fixtures (``GET /api/v1/leagues/{slug}/``), a team's fixtures as iCalendar on the pages.
Teams enter a division, send line-ups and report results through the division's event
(``/api/v1/tournaments/{slug}/...``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import selectors


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


class LeagueView(APIView):
    """A league: its divisions, their tables and fixtures."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=LeagueDocument)
    def get(self, request, slug: str):
        league = selectors.league_by_slug(slug)
        return Response(
            {
                "slug": league.slug,
                "name": league.name,
                "season": league.season,
                "club": league.club.slug,
                "divisions": [
                    {
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
                            }
                            for f in selectors.fixtures(division)
                        ],
                    }
                    for division in selectors.divisions(league)
                ],
            }
        )
