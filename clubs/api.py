"""API for clubs: list, detail, create, join, leave, members, requests, roles."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import generics, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import player_named
from core.errors import NotAllowed

from . import selectors, services
from .models import Club, JoinRequest, Membership
from .serializers import (
    ClubJoinSerializer,
    ClubSerializer,
    ClubUpdateSerializer,
    ClubWriteSerializer,
    JoinRequestSerializer,
    MembershipSerializer,
    UsernameSerializer,
)

JoinResult = inline_serializer(
    "JoinResult",
    fields={
        "status": serializers.ChoiceField(choices=["joined", "requested"]),
        "membership": MembershipSerializer(required=False),
        "request": JoinRequestSerializer(required=False),
    },
)


def _club(slug: str) -> Club:
    return selectors.club_by_slug(slug)


def _club_data(club: Club) -> dict:
    club.member_count = club.memberships.count()
    return ClubSerializer(club).data


class ClubListView(generics.ListCreateAPIView):
    serializer_class = ClubSerializer

    @extend_schema(parameters=[OpenApiParameter("search", str, description="name/location")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.club_search(self.request.query_params.get("search", ""))

    @extend_schema(request=ClubWriteSerializer, responses={201: ClubSerializer})
    def post(self, request, *args, **kwargs):
        serializer = ClubWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(owner=request.user, **serializer.validated_data)
        return Response(_club_data(club), status=status.HTTP_201_CREATED)


class ClubDetailView(APIView):
    @extend_schema(responses=ClubSerializer)
    def get(self, request, slug: str):
        return Response(_club_data(_club(slug)))

    @extend_schema(request=ClubUpdateSerializer, responses=ClubSerializer)
    def patch(self, request, slug: str):
        club = _club(slug)
        serializer = ClubUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(actor=request.user, club=club, **serializer.validated_data)
        return Response(_club_data(club))

    @extend_schema(responses={204: None})
    def delete(self, request, slug: str):
        services.club_delete(actor=request.user, club=_club(slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ClubJoinSerializer, responses={201: JoinResult})
    def post(self, request, slug: str):
        serializer = ClubJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        outcome = services.club_join(
            user=request.user, club=_club(slug), **serializer.validated_data
        )
        if isinstance(outcome, Membership):
            body = {"status": "joined", "membership": MembershipSerializer(outcome).data}
        else:
            body = {"status": "requested", "request": JoinRequestSerializer(outcome).data}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None}, description="Withdraw your pending join request.")
    def delete(self, request, slug: str):
        services.club_request_withdraw(user=request.user, club=_club(slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request, slug: str):
        services.club_leave(user=request.user, club=_club(slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubMemberListView(generics.ListAPIView):
    serializer_class = MembershipSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self):
        return selectors.club_members(_club(self.kwargs["slug"]))


class ClubMemberDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None}, description="Remove a member (admins; owner for admins).")
    def delete(self, request, slug: str, username: str):
        services.club_member_remove(
            actor=request.user, club=_club(slug), user=player_named(username)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubMemberRoleView(APIView):
    """Promote a member to admin (admins) or demote an admin to member (the owner)."""

    permission_classes = [permissions.IsAuthenticated]
    change: str = "promote"

    @extend_schema(request=None, responses=MembershipSerializer)
    def post(self, request, slug: str, username: str):
        service = (
            services.club_member_promote
            if self.change == "promote"
            else services.club_member_demote
        )
        membership = service(actor=request.user, club=_club(slug), user=player_named(username))
        return Response(MembershipSerializer(membership).data)


class ClubTransferView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=UsernameSerializer, responses=MembershipSerializer)
    def post(self, request, slug: str):
        serializer = UsernameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.club_ownership_transfer(
            actor=request.user,
            club=_club(slug),
            user=player_named(serializer.validated_data["username"]),
        )
        return Response(MembershipSerializer(membership).data)


class ClubRequestListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=JoinRequestSerializer(many=True))
    def get(self, request, slug: str):
        club = _club(slug)
        membership = selectors.membership_of(club, request.user)
        if membership is None or not membership.is_admin:
            raise NotAllowed(
                _("Only an admin of %(name)s may see its join requests.") % {"name": club.name}
            )
        requests = selectors.club_pending_requests(club)
        return Response(JoinRequestSerializer(requests, many=True).data)


class ClubRequestDecisionView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    decision: str = "approve"

    @extend_schema(
        request=None,
        responses={200: JoinRequestSerializer, 409: OpenApiResponse(description="already decided")},
    )
    def post(self, request, slug: str, request_id: int):
        service = (
            services.club_request_approve
            if self.decision == "approve"
            else services.club_request_decline
        )
        decided: JoinRequest = service(actor=request.user, club=_club(slug), request_id=request_id)
        return Response(JoinRequestSerializer(decided).data)
