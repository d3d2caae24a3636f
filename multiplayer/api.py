"""API of three- and four-player tables (docs/multiplayer.md): thin views over
multiplayer.services and multiplayer.selectors."""

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.serializers import StrictSerializer, TextField
from core.throttle import throttle
from multiplayer import selectors, services
from multiplayer.records import table_record

COLOUR_CHOICES = ["b", "w", "r", "g"]


class TableCreateSerializer(StrictSerializer):
    players = serializers.ChoiceField(choices=[3, 4], default=3)
    base_seconds = serializers.IntegerField(
        min_value=services.CLOCK_LIMITS[0],
        max_value=services.CLOCK_LIMITS[1],
        allow_null=True,
        default=600,
        help_text="each seat's time; null: no clock",
    )
    increment_seconds = serializers.IntegerField(
        min_value=0, max_value=services.INCREMENT_LIMIT, default=0
    )
    marbles_to_win = serializers.IntegerField(min_value=1, max_value=6, default=6)
    rated = serializers.BooleanField(default=True)
    placement = serializers.BooleanField(default=False, help_text="start with the placement phase")
    start = TextField(
        max_length=600,
        required=False,
        help_text="a custom start: a position string, side to move then each colour's cells in "
        "turn order ('b|a1,a2,...|...|...'); the marbles pushed off count from it",
    )
    colour = serializers.ChoiceField(
        choices=["random", *COLOUR_CHOICES],
        default="random",
        help_text="your seat: g (Green) only at a four-player table",
    )


class TableJoinSerializer(StrictSerializer):
    colour = serializers.ChoiceField(
        choices=COLOUR_CHOICES, required=False, help_text="a free seat's colour; else by lot"
    )


class TableMoveSerializer(StrictSerializer):
    move = TextField(max_length=8, help_text="a move (a1b2, c3c5d4) or a placement (@e5)")
    ply = serializers.IntegerField(min_value=0, max_value=100000, help_text="the ply you saw")


class TableListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"POST": ("422",)}  # a colour the table does not have

    @extend_schema(
        operation_id="v1_tables_list",
        responses=OpenApiTypes.OBJECT,
        description="Open and live tables.",
    )
    def get(self, request):
        now = timezone.now()
        tables = [
            selectors.table_document(t, now=now, summary=True) for t in selectors.live_tables()
        ]
        return Response({"tables": tables})

    @extend_schema(
        request=TableCreateSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description="Open a table for 3 or 4 players (four play in two teams); you take a "
        "seat, the others fill by joining, and the game starts when every seat is taken.",
    )
    def post(self, request):
        serializer = TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        throttle(request, "challenges", f"user:{request.user.pk}", what=_("tables"))
        data = serializer.validated_data
        now = timezone.now()
        table = services.table_create(creator=request.user, now=now, **data)
        return Response(table.document, status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int):
        now = timezone.now()
        table = services.table_current(table_id=table_id, now=now)
        return Response(selectors.table_document(table, now=now))


class TableJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("422",)

    @extend_schema(request=TableJoinSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        serializer = TableJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        now = timezone.now()
        table = services.table_join(
            table_id=table_id,
            user=request.user,
            colour=serializer.validated_data.get("colour"),
            now=now,
        )
        return Response(table.document)


class TableLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        now = timezone.now()
        table = services.table_leave(table_id=table_id, user=request.user, now=now)
        return Response(table.document)


class TableMoveView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("422",)  # a move the position does not allow

    @extend_schema(request=TableMoveSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        serializer = TableMoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        now = timezone.now()
        table = services.table_move(
            table_id=table_id,
            user=request.user,
            move=serializer.validated_data["move"],
            expected_ply=serializer.validated_data["ply"],
            now=now,
        )
        return Response(table.document)


class TableResignView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        now = timezone.now()
        table = services.table_resign(table_id=table_id, user=request.user, now=now)
        return Response(table.document)


class TableRecordView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, table_id: int):
        table = services.table_current(table_id=table_id, now=timezone.now())
        response = HttpResponse(table_record(table), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="sumito-table-{table.pk}.txt"'
        return response
