"""API of the public game archive: search, one game's record and replay, the record import."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, renderers, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from abalone_site.errors import InvalidInput, NotFound
from abalone_site.pagination import Pagination, page_parameters
from abalone_site.schema import DATE_OR_BLANK, choice_or_blank
from abalone_site.serializers import LARGEST_ID, StrictSerializer
from archive import selectors
from archive.forms import NO, RESULT_CHOICES, TERMINATIONS, YES, ArchiveFilters, ArchiveSearchForm
from games import records
from games.models import START_CHOICES
from tournaments import services as tournament_services
from tournaments.models import Board


class PlainTextRenderer(renderers.BaseRenderer):
    """Records are text; an error answered to a text client is its detail line."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, dict):
            data = f"{data.get('error', 'error')}: {data.get('detail', '')}\n"
        return str(data).encode(self.charset)


class ArchivePagination(Pagination):
    default_limit = selectors.PAGE_SIZE


_YES_NO = [*YES, *NO]
SEARCH_PARAMETERS = [
    OpenApiParameter("player", str, description="username; games of either colour (unknown: 404)"),
    OpenApiParameter(
        "opponent",
        str,
        description="username; with player: the games between the two; alone: that player's",
    ),
    OpenApiParameter(
        "club",
        str,
        description="club slug: games between two current members, and games of the club's "
        "tournaments (unknown: 404)",
    ),
    OpenApiParameter("tournament", str, description="tournament slug (unknown: 404)"),
    OpenApiParameter("start", choice_or_blank(value for value, _ in START_CHOICES)),
    OpenApiParameter("result", choice_or_blank(value for value, _ in RESULT_CHOICES)),
    OpenApiParameter("termination", choice_or_blank(TERMINATIONS)),
    OpenApiParameter("rated", choice_or_blank(_YES_NO), description="blank: rated or not"),
    OpenApiParameter(
        "from", DATE_OR_BLANK, description="ended on or after (YYYY-MM-DD); blank: any"
    ),
    OpenApiParameter(
        "to",
        DATE_OR_BLANK,
        description="ended on or before (YYYY-MM-DD); before from: no games",
    ),
    OpenApiParameter("include_aborted", choice_or_blank(_YES_NO), description="yes: aborted too"),
]


def search_filters(query_params) -> ArchiveFilters:
    form = ArchiveSearchForm(query_params, strict_dates=False)
    if not form.is_valid():
        if form.names_only_missing_things():
            raise NotFound(form.error_detail())
        raise InvalidInput(form.error_detail(), code="invalid_filter")
    return form.filters()


class ArchiveGameListView(APIView):
    permission_classes = [permissions.AllowAny]
    schema_errors = ("404",)  # a club, player or tournament that does not exist

    @extend_schema(
        parameters=[*SEARCH_PARAMETERS, *page_parameters(ArchivePagination)],
        responses=OpenApiTypes.OBJECT,
        description="Finished games, newest first (by end time), with limit/offset paging. "
        "A bad filter value answers 400 naming the parameter.",
    )
    def get(self, request):
        games = selectors.archive_games(search_filters(request.query_params))
        paginator = ArchivePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response([selectors.game_row(game) for game in page])


def _game(game_id: int):
    return selectors.archive_game(game_id)


class ArchiveRecordView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [renderers.JSONRenderer, PlainTextRenderer]

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR},
        description="The game's record (docs/game-records.md) as text.",
    )
    def get(self, request, game_id: int):
        text = records.game_record(_game(game_id))
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class ArchiveReplayView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="Every ply of the game: position, both clocks and the marbles lost.",
    )
    def get(self, request, game_id: int):
        return Response(selectors.replay_data(_game(game_id)))


class RecordImportSerializer(StrictSerializer):
    board = serializers.IntegerField(
        min_value=1, max_value=LARGEST_ID, help_text="id of the over-the-board tournament board"
    )
    record = serializers.CharField(
        max_length=200_000, trim_whitespace=False, help_text="the game record as text"
    )


class RecordImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("404", "422")  # a board that does not exist; a record that does not read

    @extend_schema(
        request=RecordImportSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description="A tournament director attaches an over-the-board game record to its board. "
        "The game is stored unrated and the board's result is not changed; "
        "result_agrees says whether the record agrees with the board (null: no result yet).",
    )
    def post(self, request):
        serializer = RecordImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        board_id = serializer.validated_data["board"]
        board = (
            Board.objects.select_related("round__tournament__club", "black__user", "white__user")
            .filter(pk=board_id)
            .first()
        )
        if board is None:
            raise NotFound(f"There is no board {board_id}.")
        outcome = tournament_services.board_record_import(
            board=board,
            actor=request.user,
            text=serializer.validated_data["record"],
            now=timezone.now(),
        )
        game = outcome.game
        return Response(
            {
                "game": selectors.game_row(game),
                "board": board.pk,
                "record_result": outcome.record_result,
                "board_result": outcome.board_result or None,
                "result_agrees": outcome.result_agrees,
                "detail": outcome.message,
            },
            status=status.HTTP_201_CREATED,
        )
