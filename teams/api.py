"""API of teams: a club's teams, a team and its roster (members, reserves, board order)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import player_named
from clubs.selectors import club_by_slug
from core.errors import InvalidInput
from core.serializers import StrictSerializer
from ratings.elo import CATEGORIES
from teams import selectors, services
from teams.models import Team
from teams.services import MAX_NAME, MAX_ROSTER


class RosterRowSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    reserve = serializers.BooleanField()
    captain = serializers.BooleanField()


class TeamDocument(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    club = serializers.CharField(help_text="the club's slug")
    captain = serializers.CharField(allow_null=True, help_text="the captain's username")
    category = serializers.ChoiceField(choices=list(CATEGORIES))
    order_set_by_hand = serializers.BooleanField()
    roster = RosterRowSerializer(many=True)


class TeamCreateInput(StrictSerializer):
    club = serializers.SlugField(max_length=80, help_text="the club's slug")
    name = serializers.CharField(max_length=MAX_NAME)
    captain = serializers.CharField(max_length=30, required=False, allow_blank=True)
    category = serializers.ChoiceField(choices=list(CATEGORIES), required=False)


class TeamUpdateInput(StrictSerializer):
    name = serializers.CharField(max_length=MAX_NAME, required=False)
    captain = serializers.CharField(
        max_length=30, required=False, allow_blank=True, help_text="blank: no captain"
    )


class MemberInput(StrictSerializer):
    username = serializers.CharField(max_length=30)
    reserve = serializers.BooleanField(required=False, default=False)


class ReserveInput(StrictSerializer):
    reserve = serializers.BooleanField(required=False, help_text="absent: no change")


class OrderInput(StrictSerializer):
    order = serializers.ListField(
        child=serializers.CharField(max_length=30),
        max_length=MAX_ROSTER,
        help_text="every player of the roster once, board 1 first",
    )


def _document(team: Team) -> dict:
    return {
        "slug": team.slug,
        "name": team.name,
        "club": team.club.slug,
        "captain": team.captain.username if team.captain else None,
        "category": team.category,
        "order_set_by_hand": team.order_set_by_hand,
        "roster": [row.__dict__ for row in selectors.roster(team)],
    }


def _team(slug: str) -> Team:
    return selectors.team_by_slug(slug)


class TeamListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"GET": ("404",), "POST": ("404",)}  # a club that does not exist

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "club",
                {"type": "string", "minLength": 1, "maxLength": 80, "pattern": "^[-a-zA-Z0-9_]+$"},
                required=True,
                description="the club's slug",
            )
        ],
        responses=TeamDocument(many=True),
    )
    def get(self, request):
        slug = request.query_params.get("club", "").strip()
        if not slug:
            raise InvalidInput(_("Name the club whose teams to list: ?club=<its slug>."))
        club = club_by_slug(slug)
        return Response([_document(team) for team in selectors.club_teams(club)])

    @extend_schema(request=TeamCreateInput, responses={201: TeamDocument})
    def post(self, request):
        data = TeamCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        club = club_by_slug(fields["club"])
        team = services.team_create(
            club=club,
            actor=request.user,
            name=fields["name"],
            captain=player_named(fields["captain"]) if fields.get("captain") else None,
            category=fields.get("category", "rapid"),
        )
        return Response(_document(team), status=status.HTTP_201_CREATED)


class TeamDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TeamDocument)
    def get(self, request, slug: str):
        return Response(_document(_team(slug)))

    @extend_schema(request=TeamUpdateInput, responses=TeamDocument)
    def patch(self, request, slug: str):
        data = TeamUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        changes = {}
        if "name" in fields:
            changes["name"] = fields["name"]
        if "captain" in fields:
            changes["captain"] = player_named(fields["captain"]) if fields["captain"] else None
        team = services.team_update(team=_team(slug), actor=request.user, **changes)
        return Response(_document(_team(team.slug)))

    @extend_schema(responses={204: None})
    def delete(self, request, slug: str):
        services.team_delete(team=_team(slug), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamMembersView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MemberInput, responses={201: TeamDocument})
    def post(self, request, slug: str):
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = _team(slug)
        services.team_member_add(
            team=team,
            actor=request.user,
            user=selectors.club_player(team.club, data.validated_data["username"]),
            reserve=data.validated_data["reserve"],
        )
        return Response(_document(_team(slug)), status=status.HTTP_201_CREATED)


class TeamMemberView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReserveInput, responses=TeamDocument)
    def patch(self, request, slug: str, username: str):
        data = ReserveInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = _team(slug)
        user = selectors.club_player(team.club, username)
        reserve = data.validated_data.get("reserve")
        if reserve is None:  # nothing to change, nothing written: still the roster keeper's to ask
            services.require_roster_keeper(team, request.user)
            selectors.team_member(team, user)
        else:
            services.team_member_reserve(team=team, actor=request.user, user=user, reserve=reserve)
        return Response(_document(_team(slug)))

    @extend_schema(responses={204: None})
    def delete(self, request, slug: str, username: str):
        team = _team(slug)
        services.team_member_remove(
            team=team, actor=request.user, user=selectors.club_player(team.club, username)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamRosterView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OrderInput, responses=TeamDocument)
    def post(self, request, slug: str):
        data = OrderInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.team_roster_order(
            team=_team(slug), actor=request.user, usernames=data.validated_data["order"]
        )
        return Response(_document(_team(slug)))


class TeamRosterByRatingView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=TeamDocument)
    def post(self, request, slug: str):
        services.team_roster_by_rating(team=_team(slug), actor=request.user)
        return Response(_document(_team(slug)))
