"""API of games against the computer (games.computer): the levels, and a new game."""

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.throttle import throttle
from games import computer, selectors
from games.computer_views import DEFAULT_CLOCK
from games.engine.levels import LEVELS
from games.option_fields import GameOptionsSerializer


class ComputerGameSerializer(GameOptionsSerializer):
    level = serializers.IntegerField(min_value=1, max_value=8, help_text="1 (random) to 8")
    colour = serializers.ChoiceField(
        choices=["black", "white", "random"], default="random", help_text="your colour"
    )
    # With neither a preset nor base_seconds (null: no clock), the game has the page's default
    # clock (games.computer_views.DEFAULT_CLOCK).


class ComputerLevelsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, description="The computer's eight levels.")
    def get(self, request):
        levels = [
            {"level": spec.number, "name": gettext(spec.name), "seconds": spec.seconds}
            for spec in LEVELS.values()
        ]
        return Response({"levels": levels})


class ComputerGameView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("422",)  # a start position the rules refuse

    @extend_schema(
        request=ComputerGameSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description="Start an unrated game against the computer; it answers each move from a "
        "worker, on the server's clock.",
    )
    def post(self, request):
        serializer = ComputerGameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        throttle(request, "challenges", f"user:{request.user.pk}", what="games")
        data = dict(serializer.validated_data)
        level, colour = data.pop("level"), data.pop("colour")
        if "preset" not in data and "base_seconds" not in data:
            data["preset"] = DEFAULT_CLOCK
        now = timezone.now()
        game = computer.computer_game_create(
            player=request.user, level=level, colour=colour, choices=data, now=now
        )
        return Response(selectors.game_state(game, now=now), status=status.HTTP_201_CREATED)
