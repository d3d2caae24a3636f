"""API of quick play: the pools, joining one and leaving."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.serializers import StrictSerializer
from core.throttle import throttle
from games.options import LIVE_PRESETS
from pools import selectors, services


def _answer(request) -> Response:
    now = timezone.now()
    return Response(
        {
            "pools": selectors.pools(now=now),
            "mine": selectors.seek_document(selectors.my_seek(request.user, now=now)),
        }
    )


class PoolListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="The pools (one per clock preset) with how many players wait in each, and "
        "`mine`: your seek while it waits or for two minutes after it ended (`status` waiting, "
        "paired with its `game` and `url`, left or expired), else null.",
    )
    def get(self, request):
        return _answer(request)


class PoolJoinSerializer(StrictSerializer):
    pool = serializers.ChoiceField(choices=list(LIVE_PRESETS), help_text="a live clock preset")


class PoolJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PoolJoinSerializer,
        responses=OpenApiTypes.OBJECT,
        description="Wait in a pool to be paired with a player of close rating (a rated game "
        "on the pool's clock, the standard start); you leave any other pool. When paired, your "
        'open tabs hear `{"type": "game_ready", "game": id, "url": ...}` on their socket.',
    )
    def post(self, request):
        serializer = PoolJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        throttle(request, "challenges", f"user:{request.user.pk}", what="pool joins")
        services.pool_join(
            user=request.user, pool=serializer.validated_data["pool"], now=timezone.now()
        )
        return _answer(request)


class PoolLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, description="Stop waiting.")
    def post(self, request):
        services.pool_leave(user=request.user, now=timezone.now())
        return _answer(request)
