"""API for live games: challenges, game state, moves, resign, draws, abort, flag claims,
rematch, chat."""

from functools import partial

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.authentication import GuestSessionAuthentication
from core.errors import InvalidInput, NotFound
from core.schema import choice_or_blank
from core.serializers import StrictSerializer, TextField, validated
from core.throttle import throttle
from games import conditional, selectors, services
from games.models import Challenge, ChatMessage, Game
from games.serializers import (
    ChallengeCreateSerializer,
    ChallengeSerializer,
    GameSummarySerializer,
    MoveSerializer,
)
from games.services import chat as chat_services
from games.services.chat import CHAT_MAX_LENGTH

GAME_STATUSES = ["started", "finished", "aborted"]


#: A guest (a visitor playing the computer, accounts.guests) acts on their games here only.
WITH_GUESTS = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, GuestSessionAuthentication]


def current_state(game_id: int) -> dict:
    """The game's state as of now (a fallen flag adjudicated first, by the service)."""
    now = timezone.now()
    return selectors.game_state(services.game_current(game_id=game_id, now=now), now=now)


class ChallengeListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"POST": ("404", "422")}  # an opponent who does not exist; yourself

    @extend_schema(
        responses=ChallengeSerializer(many=True),
        description="Open seeks, and the open challenges you made or received.",
    )
    def get(self, request):
        now = timezone.now()
        challenges = selectors.open_seeks(now=now)
        if request.user.is_authenticated:
            challenges = challenges | selectors.challenges_for(request.user, now=now)
        challenges = challenges.distinct().select_related("challenger", "opponent")
        return Response(ChallengeSerializer(challenges.order_by("-created_at"), many=True).data)

    @extend_schema(request=ChallengeCreateSerializer, responses={201: ChallengeSerializer})
    def post(self, request):
        serializer = ChallengeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        throttle(request, "challenges", f"user:{request.user.pk}", what=_("challenges"))
        challenge = services.challenge_create_from_choices(
            challenger=request.user, choices=serializer.validated_data, now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class ChallengeDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=ChallengeSerializer)
    def get(self, request, challenge_id: int):
        challenge = Challenge.objects.filter(pk=challenge_id).first()
        if challenge is None:
            raise NotFound(
                _("There is no challenge %(challenge_id)s.") % {"challenge_id": challenge_id}
            )
        return Response(ChallengeSerializer(challenge).data)

    @extend_schema(responses={200: ChallengeSerializer}, description="Cancel your challenge.")
    def delete(self, request, challenge_id: int):
        challenge = services.challenge_cancel(
            challenge_id=challenge_id, user=request.user, now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data)


class ChallengeAcceptView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={201: OpenApiTypes.OBJECT},
        description="Accept: the game starts; answers the game's state.",
    )
    def post(self, request, challenge_id: int):
        game = services.challenge_accept(
            challenge_id=challenge_id, user=request.user, now=timezone.now()
        )
        return Response(current_state(game.pk), status=status.HTTP_201_CREATED)


class ChallengeDeclineView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=ChallengeSerializer)
    def post(self, request, challenge_id: int):
        challenge = services.challenge_decline(
            challenge_id=challenge_id, user=request.user, now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data)


class VacationInput(StrictSerializer):
    action = serializers.ChoiceField(
        choices=["start", "end"], help_text="start: stop your correspondence clocks; end: back"
    )


class VacationView(APIView):
    """Your correspondence vacation (docs/correspondence.md): the clocks of your correspondence
    games stop on your turn, up to ``CORRESPONDENCE_VACATION_DAYS`` a year."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(selectors.vacation_summary(request.user.pk, timezone.now()))

    @extend_schema(
        request=VacationInput,
        responses={200: OpenApiTypes.OBJECT},
        description="Start or end your vacation; 409 on_vacation, not_on_vacation or "
        "no_vacation_left when it cannot be done (nothing changes).",
    )
    def post(self, request):
        action = validated(VacationInput, request.data)["action"]
        now = timezone.now()
        if action == "start":
            services.vacation_start(user=request.user, now=now)
        else:
            services.vacation_end(user=request.user, now=now)
        return Response(selectors.vacation_summary(request.user.pk, now))


class GameListView(generics.ListAPIView):
    serializer_class = GameSummarySerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", choice_or_blank(GAME_STATUSES), description="blank: any"),
            OpenApiParameter("player", str, description="username: that player's games"),
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        games = Game.objects.select_related("black", "white").order_by("-created_at")
        status_filter = self.request.query_params.get("status")
        if status_filter:
            if status_filter not in GAME_STATUSES:
                raise InvalidInput(
                    _("status must be one of %(game_statuses)s, not '%(status_filter)s'.")
                    % {"game_statuses": ", ".join(GAME_STATUSES), "status_filter": status_filter},
                    code="bad_status",
                )
            games = games.filter(status=status_filter)
        player = self.request.query_params.get("player")
        if player:
            games = games.filter(
                Q(black__username__iexact=player) | Q(white__username__iexact=player)
            )
        return games


class GameDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="The game's state as of the server's now: position, legal moves, "
        "both clocks, moves, result, and the version (ply) to send with a move.",
    )
    def get(self, request, game_id: int):
        return Response(current_state(game_id))


def state_after(game: Game) -> dict:
    """The state to answer a write with: the one its event just published, if still current."""
    from games.events import recent_state

    return recent_state(game) or current_state(game.pk)


class GameMoveView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    authentication_classes = WITH_GUESTS
    schema_errors = ("422",)  # a move the position does not allow

    @extend_schema(request=MoveSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, game_id: int):
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_move_apply(
            game_id=game_id,
            player=request.user,
            move=serializer.validated_data["move"],
            expected_ply=serializer.validated_data["ply"],
            now=timezone.now(),
        )
        return Response(state_after(game))


class GamePremoveView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    authentication_classes = WITH_GUESTS

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="Your moves in the current position as if it were your turn (`version`: "
        "the ply they are for): the page queues one as a premove on your opponent's turn and "
        "sends it, with the new ply, once it is yours; the server checks it then like any "
        "move. Empty when the game is over or it is not your game.",
    )
    def get(self, request, game_id: int):
        game = selectors.game_found(game_id)
        return Response(
            {"version": game.ply, "moves": selectors.premove_candidates(game, request.user)}
        )


class ConditionalMovesInput(StrictSerializer):
    ply = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="the game's ply you saw (409 stale_ply when it moved on)",
    )
    lines = serializers.ListField(
        child=serializers.ListField(
            child=TextField(max_length=16),
            min_length=2,
            max_length=conditional.MAX_LINE_MOVES,
        ),
        max_length=conditional.MAX_LINES,
        help_text="each line: your opponent's move, your answer, and so on (an even number of "
        "moves); [] clears them",
    )


class GameConditionalView(APIView):
    """Your conditional moves in a correspondence game ("if he plays X, I play Y";
    docs/correspondence.md)."""

    permission_classes = [permissions.IsAuthenticated]
    schema_errors = {"PUT": ("422",)}  # a line the rules refuse

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, game_id: int):
        game = selectors.game_found(game_id)
        return Response(selectors.conditional_moves_document(game, request.user))

    @extend_schema(
        request=ConditionalMovesInput,
        responses={200: OpenApiTypes.OBJECT},
        description="Replace your conditional moves, on your opponent's turn at `ply`: when "
        "they play a move a line foresaw, its answer is played at once for you. 409 your_move, "
        "stale_ply, game_over, not_correspondence; 422 line_without_answer, illegal_move, "
        "conflicting_answers (nothing changes).",
    )
    def put(self, request, game_id: int):
        data = validated(ConditionalMovesInput, request.data)
        services.conditional_moves_set(
            game_id=game_id,
            player=request.user,
            ply=data["ply"],
            lines=data["lines"],
            now=timezone.now(),
        )
        game = selectors.game_found(game_id)
        return Response(selectors.conditional_moves_document(game, request.user))


class GameRematchView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="The open rematch offer of this game, from you or to you "
        '(`{"offer": challenge or null}`).',
    )
    def get(self, request, game_id: int):
        selectors.game_found(game_id)
        offer = selectors.rematch_offer(game_id, request.user, now=timezone.now())
        return Response({"offer": ChallengeSerializer(offer).data if offer else None})

    @extend_schema(
        request=None,
        responses={201: ChallengeSerializer},
        description="Ask the other player of a finished game for a rematch (same settings, "
        "colours swapped): a challenge to them. Asking again gives the open offer; when they "
        "already offered one, this accepts it and `game` is the new game.",
    )
    def post(self, request, game_id: int):
        challenge = services.challenge_rematch(
            game_id=game_id, user=request.user, now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class ChatPostSerializer(StrictSerializer):
    room = serializers.ChoiceField(choices=ChatMessage.Room.values)
    text = TextField(min_length=1, max_length=CHAT_MAX_LENGTH)


class ChatMuteSerializer(StrictSerializer):
    mute = serializers.BooleanField()


class GameChatView(APIView):
    """A game's chat: the players' room (the two players) or the spectators' room."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "room",
                choice_or_blank(ChatMessage.Room.values),
                description=(
                    "players (the two players only) or spectators; blank: players for a player, "
                    "spectators for anyone else"
                ),
            ),
        ],  # fmt: skip
        responses=OpenApiTypes.OBJECT,
        description="The room's last 200 lines, oldest first, and whether you muted your "
        "opponent (players' room).",
    )
    def get(self, request, game_id: int):
        game = selectors.game_found(game_id)
        player = request.user.pk in (game.black_id, game.white_id)
        room = request.query_params.get("room") or ("players" if player else "spectators")
        chat_services.require_room(game, request.user, room)
        return Response(
            {
                "room": room,
                "enabled": game.chat_enabled,
                "muted": player and selectors.chat_muted(game, request.user),
                "results": selectors.chat_lines(game, room),
            }
        )

    @extend_schema(
        request=ChatPostSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description="Write a line (1-300 characters of plain text). Refused: not your room "
        "(403), the directors turned chat off (403 `chat_off`), your opponent muted you (403 "
        "`muted`), too often (429).",
    )
    def post(self, request, game_id: int):
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        throttle(request, "chat", f"user:{request.user.pk}:game:{game_id}", what=_("chat lines"))
        message = services.chat_post(
            game_id=game_id, user=request.user, now=timezone.now(), **serializer.validated_data
        )
        return Response(
            selectors.chat_line_document(message, request.user), status=status.HTTP_201_CREATED
        )


class GameChatMuteView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ChatMuteSerializer,
        responses=OpenApiTypes.OBJECT,
        description="A player mutes (or unmutes) their opponent in the players' room.",
    )
    def post(self, request, game_id: int):
        serializer = ChatMuteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        muted = services.chat_mute(
            game_id=game_id, user=request.user, mute=serializer.validated_data["mute"]
        )
        return Response({"muted": muted})


class GameActionView(APIView):
    """resign, abort, draw offer/accept/decline, claim-flag: one service each."""

    permission_classes = [permissions.IsAuthenticated]
    authentication_classes = WITH_GUESTS
    action: str = "resign"

    # Each action's service, called with the game, the player and the time.
    SERVICES = {
        "resign": services.game_resign,
        "abort": services.game_abort,
        "draw-offer": services.game_draw_offer,
        "draw-accept": partial(services.game_draw_answer, accept=True),
        "draw-decline": partial(services.game_draw_answer, accept=False),
        "claim-flag": services.game_claim_flag,
    }
    ACTIONS = tuple(SERVICES)

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, game_id: int):
        self.SERVICES[self.action](game_id=game_id, player=request.user, now=timezone.now())
        return Response(current_state(game_id))
