"""API for players: me, profile, tokens, player lookup."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .selectors import player_named, players_matching
from .serializers import (
    ApiTokenCreatedSerializer,
    ApiTokenCreateSerializer,
    ApiTokenSerializer,
    MeSerializer,
    PlayerSerializer,
    ProfileUpdateSerializer,
)


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        return Response(MeSerializer(request.user).data)

    @extend_schema(request=ProfileUpdateSerializer, responses=MeSerializer)
    def patch(self, request):
        serializer = ProfileUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.profile_update(user=request.user, **serializer.validated_data)
        return Response(MeSerializer(user).data)


class TokenListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ApiTokenSerializer(many=True))
    def get(self, request):
        return Response(ApiTokenSerializer(request.user.api_tokens.all(), many=True).data)

    @extend_schema(request=ApiTokenCreateSerializer, responses={201: ApiTokenCreatedSerializer})
    def post(self, request):
        serializer = ApiTokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = services.api_token_create(user=request.user, **serializer.validated_data)
        data = ApiTokenSerializer(token).data | {"key": key}
        return Response(data, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request, token_id: int):
        services.api_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerListView(generics.ListAPIView):
    serializer_class = PlayerSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("search", str, description="name contains")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return players_matching(self.request.query_params.get("search", "").strip())


class PlayerDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerSerializer)
    def get(self, request, username: str):
        player = player_named(username)
        return Response(PlayerSerializer(player).data)
