"""API of the bots: become a bot, and the event stream a bot plays by (docs/bots.md)."""

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.serializers import MeSerializer
from bots import services
from bots.stream import bot_event_lines
from core.errors import NotAllowed


class BotUpgradeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses=MeSerializer,
        description="Make your account a bot, for good. Only an account that has played no "
        "game can (409 otherwise); an admin can mark any account in the admin site.",
    )
    def post(self, request):
        return Response(MeSerializer(services.bot_account_upgrade(user=request.user)).data)


class BotStreamView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                OpenApiTypes.STR,
                description="One JSON event a line, for as long as the bot listens: "
                "`challenge` (a challenge to the bot), `challenge_closed`, `game_start` "
                "(the whole game, `your_colour`, `your_turn`, the legal moves on your turn), "
                "`game_state` (the moves after `moves_after`, the clocks, `your_turn`), "
                "`game_finish`; an empty line now and then to keep the stream alive.",
            )
        },
        description="The event stream of a bot account (403 `not_a_bot` for any other). Play "
        "with POST /api/v1/challenges/{id}/accept/ and POST /api/v1/games/{id}/moves/.",
    )
    def get(self, request):
        if not request.user.is_bot:
            raise NotAllowed(
                _("Only a bot account has an event stream; make the account a bot first."),
                code="not_a_bot",
            )
        response = StreamingHttpResponse(
            bot_event_lines(request.user.pk), content_type="application/x-ndjson"
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
        return response
