"""API of the game archive: search, one game's record and replay, the record import (to a
tournament board, or into a player's own archive) and a player's imported games."""

from __future__ import annotations

import re

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import permissions, renderers, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from archive import selectors, services
from archive.forms import (
    MAX_RECORD_CHARS,
    NO,
    RESULT_CHOICES,
    TERMINATIONS,
    YES,
    ArchiveFilters,
    ArchiveSearchForm,
)
from core.errors import InvalidInput, NotFound
from core.pagination import Pagination, page_parameters
from core.schema import DATE_OR_BLANK, choice_or_blank
from core.serializers import LARGEST_ID, StrictSerializer, TextField
from games import engine, records
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
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="sumito-{game_id}.txt"'
        return response


class ArchiveReplayView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="Every ply of the game: position, both clocks and the marbles lost.",
    )
    def get(self, request, game_id: int):
        return Response(selectors.replay_data(_game(game_id)))


#: A cell of the board, as a position string writes it (lower case).
_CELL = "(?:a[1-5]|b[1-6]|c[1-7]|d[1-8]|e[1-9]|f[2-9]|g[3-9]|h[4-9]|i[5-9])"
_CELLS = f"(?:{_CELL}(?:,{_CELL})*)?"
#: A position string: side to move, Black's cells, White's cells (docs/game-records.md).
POSITION_PATTERN = f"^[bw]\\|{_CELLS}\\|{_CELLS}$"
START_NAMES = list(engine.START_NAMES)


@extend_schema_field(
    {
        "anyOf": [
            {"type": "string", "enum": ["", *START_NAMES]},
            {"type": "string", "pattern": POSITION_PATTERN},
        ],
        "description": "the start when the record has no Start header: a start name or a "
        "position string (blank or left out: standard)",
    }
)
class StartField(serializers.CharField):
    """A start name or a position string, exactly as the schema says (no spaces around)."""

    def __init__(self, **kwargs):
        kwargs.update(trim_whitespace=False, allow_blank=True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        if text in ("", *START_NAMES) or re.fullmatch(POSITION_PATTERN, text):
            return text
        raise serializers.ValidationError(
            gettext(
                "Give %(start_names)s or a position string such as b|a1,a2,...|i9,... (lower case), not %(text)s."
            )
            % {"start_names": ", ".join(START_NAMES), "text": repr(text[:80])}
        )


class RecordImportSerializer(StrictSerializer):
    board = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=LARGEST_ID,
        help_text="id of the over-the-board tournament board (directors); left out: the game "
        "goes into your own archive",
    )
    record = TextField(
        min_length=1,
        max_length=MAX_RECORD_CHARS,
        help_text="the game record as text: our format, or as people publish them (headers "
        "optional, 1.a1b2 i5h5 2. ..., a bare move list, any case)",
    )
    start = StartField(required=False)

    #: A board's record names its own start: ``start`` is for your own archive only.
    request_schema_rules = {"not": {"required": ["board", "start"]}}

    def validate(self, attrs):
        if "board" in attrs and "start" in attrs:
            raise serializers.ValidationError(
                {"start": "A board's record names its start: give start only without board."}
            )
        return attrs


class RecordImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    # A board that does not exist; a board's record that does not read.
    schema_errors = ("404", "422")

    @extend_schema(
        request=RecordImportSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description="Without `board`: any player imports a game into their own archive (private, "
        "unrated). The record may be in any published form; missing headers are filled with "
        "defaults and named in `filled_headers`. Answers `id`, `url` (the replay page), "
        "`plies`, `position` (where the record ends). A record that does not read, or an "
        "illegal move, is a 400 naming the problem and the ply (`illegal_move`, "
        "`bad_move_number`, `bad_header`, `start_mismatch`, ...).\n\n"
        "With `board`: a tournament director attaches an over-the-board game record to its "
        "board. The game is stored unrated and the board's result is not changed; "
        "result_agrees says whether the record agrees with the board (null: no result yet); "
        "a record that does not read is a 422.",
    )
    def post(self, request):
        serializer = RecordImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "board" not in data:
            imported = services.imported_game_create(
                owner=request.user, text=data["record"], start=data.get("start"), now=timezone.now()
            )
            return Response(
                {
                    **selectors.imported_row(imported),
                    "detail": selectors.imported_summary(imported),
                },
                status=status.HTTP_201_CREATED,
            )
        board_id = data["board"]
        board = (
            Board.objects.select_related("round__tournament__club", "black__user", "white__user")
            .filter(pk=board_id)
            .first()
        )
        if board is None:
            raise NotFound(gettext("There is no board %(board_id)s.") % {"board_id": board_id})
        outcome = tournament_services.board_record_import(
            board=board,
            actor=request.user,
            text=data["record"],
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


class ImportedPagination(Pagination):
    default_limit = selectors.PAGE_SIZE


class ImportedGameListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="v1_archive_imported_list",
        parameters=page_parameters(ImportedPagination),
        responses=OpenApiTypes.OBJECT,
        description="Your imported games, newest first, with limit/offset paging.",
    )
    def get(self, request):
        paginator = ImportedPagination()
        page = paginator.paginate_queryset(
            selectors.imported_games_of(request.user), request, view=self
        )
        return paginator.get_paginated_response([selectors.imported_row(row) for row in page])


class ImportedGameDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="One of your imported games: its headers (missing ones filled, named in "
        "`filled_headers`), its moves and the position after each ply (`frames`, as the "
        "archive's replay). Anyone else's import: 404.",
    )
    def get(self, request, imported_id: int):
        imported = selectors.imported_game_of(request.user, imported_id)
        return Response(
            {
                **selectors.imported_row(imported),
                "headers": dict(imported.headers),
                **selectors.imported_replay_data(imported),
            }
        )


class ImportedGameRecordView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [renderers.JSONRenderer, PlainTextRenderer]

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR},
        description="One of your imported games as a record (docs/game-records.md), to download.",
    )
    def get(self, request, imported_id: int):
        imported = selectors.imported_game_of(request.user, imported_id)
        response = HttpResponse(imported.record, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = selectors.imported_attachment(imported)
        return response
