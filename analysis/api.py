"""API of the analysis board: ask for an analysis, read it as it deepens, list legal moves."""

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import selectors, services
from core.errors import InvalidInput
from core.serializers import LARGEST_ID, StrictSerializer, TextField


class AnalysisRequestSerializer(StrictSerializer):
    position = TextField(
        max_length=300, required=False, help_text="a position string, or standard/belgian/german"
    )
    game = serializers.IntegerField(
        min_value=1, max_value=LARGEST_ID, required=False, help_text="a finished game's id"
    )
    seconds = serializers.FloatField(min_value=0.5, max_value=10, default=3.0)
    marbles_to_win = serializers.IntegerField(min_value=1, max_value=6, default=6)

    request_body_required = True
    request_schema_rules = {
        "oneOf": [
            {"required": ["position"], "not": {"required": ["game"]}},
            {"required": ["game"], "not": {"required": ["position"]}},
        ]
    }


class AnalysisListView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("404", "409", "422", "429")  # unknown game; unfinished; bad position; busy

    @extend_schema(
        request=AnalysisRequestSerializer,
        responses={202: OpenApiTypes.OBJECT},
        description="Analyse a position for a few seconds, or a finished game move by move, in "
        "a worker; read the result (as it deepens) at the returned url's API twin.",
    )
    def post(self, request):
        serializer = AnalysisRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        analysis = services.analysis_request(
            user=request.user,
            now=timezone.now(),
            position=data.get("position"),
            game_id=data.get("game"),
            seconds=data["seconds"],
            marbles_to_win=data["marbles_to_win"],
        )
        return Response(selectors.analysis_document(analysis), status=status.HTTP_202_ACCEPTED)


class AnalysisDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, analysis_id: int):
        return Response(selectors.analysis_document(selectors.analysis_found(analysis_id)))


class LegalMovesView(APIView):
    permission_classes = [permissions.AllowAny]
    schema_errors = ("422",)  # a position the rules refuse

    @extend_schema(
        operation_id="v1_analysis_moves",
        parameters=[
            OpenApiParameter(
                "position",
                str,
                required=True,
                pattern=TextField(min_length=1).schema_pattern(),  # no NUL, not blank
                description="a position string, or standard/belgian/german",
            )
        ],
        responses=OpenApiTypes.OBJECT,
        description="The legal moves of a position, each with the position it leads to.",
    )
    def get(self, request):
        text = request.query_params.get("position", "")
        if not text.strip():
            raise InvalidInput(_("Give a position (?position=...)."), code="bad_position")
        return Response(selectors.legal_moves_document(services.parse_position(text)))
