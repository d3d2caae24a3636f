"""API of guest-player claims, the same services as the pages (``tournaments.guest_views``):
a player claims a club's guest ("this is me"), the club's admins list and decide the claims."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import GuestClaim
from clubs.selectors import club_by_slug, guest_claims_pending, guest_of_club
from core.serializers import StrictModelSerializer
from tournaments.permissions import require_club_admin
from tournaments.services.guest_claims import guest_claim_ask, guest_claim_decide


class GuestClaimSerializer(StrictModelSerializer):
    guest = serializers.CharField(source="guest.user.username", read_only=True)
    guest_name = serializers.CharField(source="guest.user.shown_name", read_only=True)
    account = serializers.CharField(source="account.username", read_only=True)

    class Meta:
        model = GuestClaim
        fields = ["id", "guest", "guest_name", "account", "message", "status", "created_at"]
        read_only_fields = fields


class GuestClaimAsk(serializers.Serializer):
    message = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class GuestClaimAskView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=GuestClaimAsk,
        responses={201: GuestClaimSerializer, 409: OpenApiResponse(description="claimed already")},
        description="Say that a guest player of the club is you: the club's admins decide.",
    )
    def post(self, request, club_slug: str, username: str):
        data = GuestClaimAsk(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_by_slug(club_slug)
        claim = guest_claim_ask(
            club=club,
            guest=guest_of_club(club, username),
            account=request.user,
            message=data.validated_data["message"],
            now=timezone.now(),
        )
        return Response(GuestClaimSerializer(claim).data, status=status.HTTP_201_CREATED)


class GuestClaimListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=GuestClaimSerializer(many=True))
    def get(self, request, club_slug: str):
        club = club_by_slug(club_slug)
        require_club_admin(club, request.user, _("see the claims of its guest players"))
        return Response(GuestClaimSerializer(guest_claims_pending(club), many=True).data)


class GuestClaimDecisionView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    accept: bool = True

    @extend_schema(
        request=None,
        responses={200: GuestClaimSerializer, 409: OpenApiResponse(description="decided already")},
    )
    def post(self, request, club_slug: str, claim_id: int):
        claim = guest_claim_decide(
            club=club_by_slug(club_slug),
            actor=request.user,
            claim_id=claim_id,
            accept=self.accept,
            now=timezone.now(),
        )
        return Response(GuestClaimSerializer(claim).data)
