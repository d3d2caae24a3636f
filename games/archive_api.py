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
from abalone_site.pagination import Pagination
from games import archive
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
    default_limit = archive.PAGE_SIZE


SEARCH_PARAMETERS = [
    OpenApiParameter("player", str, description="username; games of either colour"),
    OpenApiParameter("opponent", str, description="username; with player: games between the two"),
    OpenApiParameter(
        "club",
        str,
        description="club slug: games between two current members, and games of the club's "
        "tournaments",
    ),
    OpenApiParameter("tournament", str, description="tournament slug"),
    OpenApiParameter("start", str, enum=["belgian", "standard", "german"]),
    OpenApiParameter("result", str, enum=["1-0", "0-1", "1/2-1/2"]),
    OpenApiParameter("termination", str),
    OpenApiParameter("rated", str, description="yes/no (true/false, 1/0)"),
    OpenApiParameter("from", OpenApiTypes.DATE, description="ended on or after (YYYY-MM-DD)"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="ended on or before (YYYY-MM-DD)"),
    OpenApiParameter("include_aborted", str, description="yes: aborted games too"),
]


def search_filters(query_params) -> archive.ArchiveFilters:
    form = archive.ArchiveSearchForm(query_params)
    if not form.is_valid():
        raise InvalidInput(form.error_detail(), code="invalid_filter")
    return form.filters()


class ArchiveGameListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=SEARCH_PARAMETERS,
        responses=OpenApiTypes.OBJECT,
        description="Finished games, newest first (by end time), with limit/offset paging. "
        "A bad filter value answers 400 naming the parameter.",
    )
    def get(self, request):
        games = archive.archive_games(search_filters(request.query_params))
        paginator = ArchivePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response([archive.game_row(game) for game in page])


def _game(game_id: int):
    return archive.archive_game(game_id)


class ArchiveRecordView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [renderers.JSONRenderer, PlainTextRenderer]

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR},
        description="The game's record (docs/game-records.md) as text.",
    )
    def get(self, request, game_id: int):
        text = archive.game_record(_game(game_id))
        return HttpResponse(text, content_type="text/plain; charset=utf-8")


class ArchiveReplayView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="Every ply of the game: position, both clocks and the marbles lost.",
    )
    def get(self, request, game_id: int):
        return Response(archive.replay_data(_game(game_id)))


class RecordImportSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="id of the over-the-board tournament board")
    record = serializers.CharField(
        max_length=200_000, trim_whitespace=False, help_text="the game record as text"
    )


class RecordImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

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
        outcome = archive.game_record_import(
            board=board,
            actor=request.user,
            text=serializer.validated_data["record"],
            now=timezone.now(),
        )
        game = outcome.game
        return Response(
            {
                "game": archive.game_row(game),
                "board": board.pk,
                "record_result": outcome.record_result,
                "board_result": outcome.board_result or None,
                "result_agrees": outcome.result_agrees,
                "detail": outcome.message,
            },
            status=status.HTTP_201_CREATED,
        )
