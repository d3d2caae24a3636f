"""Tournament API: the same services as the pages, JSON in and out."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from abalone_site.errors import NotFound
from accounts.models import User
from clubs.models import Club
from tournaments import exports, selectors, services
from tournaments.models import Board, Round, Tournament


def _tournament(slug: str) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(slug=slug).first()
    if tournament is None:
        raise NotFound(f"There is no tournament '{slug}'.")
    return tournament


def _user(username: str) -> User:
    user = User.objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise NotFound(f"There is no player called '{username}'.")
    return user


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="tie-break codes, in order"
    )

    class Meta:
        model = Tournament
        fields = ["slug", "club", *services.SETTINGS_FIELDS, "status", "current_round", "url"]
        read_only_fields = ["slug", "club", "status", "current_round", "url"]


class TournamentCreateSerializer(TournamentSerializer):
    club_slug = serializers.SlugField(write_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "club_slug"]


def board_data(board: Board) -> dict:
    return {
        "id": board.pk,
        "round": board.round.number,
        "board": board.number,
        "black": board.black.user.username,
        "white": board.white.user.username if board.white_id else None,
        "bye": board.bye or None,
        "result": board.result or None,
        "black_marbles": board.black_marbles,
        "white_marbles": board.white_marbles,
        "termination": board.termination or None,
        "game": board.game_id,
        "note": board.note,
    }


class TournamentListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TournamentSerializer(many=True))
    def get(self, request):
        tournaments = Tournament.objects.select_related("club").order_by("-created_at")[:200]
        return Response(TournamentSerializer(tournaments, many=True).data)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def post(self, request):
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        club = Club.objects.filter(slug=data.pop("club_slug")).first()
        if club is None:
            raise NotFound("There is no such club.")
        tournament = services.tournament_create(club=club, actor=request.user, **data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TournamentSerializer)
    def get(self, request, slug: str):
        return Response(TournamentSerializer(_tournament(slug)).data)

    @extend_schema(request=TournamentSerializer, responses=TournamentSerializer)
    def patch(self, request, slug: str):
        tournament = _tournament(slug)
        serializer = TournamentSerializer(tournament, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_update(
            tournament=tournament, actor=request.user, **serializer.validated_data
        )
        return Response(TournamentSerializer(tournament).data)


class TournamentReadView(APIView):
    """players, standings, crosstable, rounds/<n>: public reads."""

    permission_classes = [permissions.AllowAny]
    what = "players"

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug: str, number: int | None = None):
        tournament = _tournament(slug)
        match self.what:
            case "players":
                return Response(
                    [
                        {
                            "number": e.pairing_number,
                            "username": e.user.username,
                            "rating": e.rating,
                            "status": e.status,
                            "first_round": e.first_round,
                        }
                        for e in selectors.entrants(tournament)
                    ]
                )
            case "standings":
                return Response(
                    [
                        {k: v for k, v in row.items() if k != "tiebreaks"}
                        for row in selectors.standings(tournament)
                    ]
                )
            case "crosstable":
                return Response(selectors.crosstable(tournament))
            case "round":
                round_ = Round.objects.filter(tournament=tournament, number=number).first()
                if round_ is None:
                    raise NotFound(f"Round {number} has not been paired.")
                return Response(
                    {
                        "number": round_.number,
                        "status": round_.status,
                        "boards": [
                            board_data(b)
                            for b in round_.boards.select_related(
                                "round", "black__user", "white__user"
                            )
                        ],
                    }
                )
        raise NotFound("Unknown read.")


class TournamentExportView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, slug: str, kind: str):
        tournament = _tournament(slug)
        makers = {
            "standings.csv": exports.standings_csv,
            "crosstable.csv": exports.crosstable_csv,
            "trf": exports.trf,
            "games.txt": exports.game_records,
        }
        if kind not in makers:
            raise NotFound(f"No export '{kind}': choose one of {', '.join(makers)}.")
        return HttpResponse(makers[kind](tournament), content_type="text/plain; charset=utf-8")


class ActionSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, allow_blank=True)
    late_bye = serializers.ChoiceField(choices=["H", "Z"], required=False)
    round = serializers.IntegerField(required=False, min_value=1)
    kind = serializers.ChoiceField(choices=["H", "Z"], required=False)
    first = serializers.CharField(required=False)
    second = serializers.CharField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)
    board = serializers.IntegerField(required=False)
    result = serializers.ChoiceField(choices=[v for v in Board.Result.values if v], required=False)
    black_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )
    white_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )
    black = serializers.CharField(required=False)
    white = serializers.CharField(required=False, allow_blank=True, allow_null=True)


def _require(data: dict, *fields: str) -> None:
    missing = [f for f in fields if data.get(f) in (None, "")]
    if missing:
        raise serializers.ValidationError({f: "This field is required." for f in missing})


class TournamentActionView(APIView):
    """register, withdraw, readmit, add-player, bye, forbid, start, pair-next, start-round,
    result, edit-board: one service each; directors only where the service says so."""

    permission_classes = [permissions.IsAuthenticated]
    action = "register"

    @extend_schema(request=ActionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, slug: str):
        tournament = _tournament(slug)
        serializer = ActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data, actor, now = serializer.validated_data, request.user, timezone.now()
        match self.action:
            case "register":
                entrant = services.tournament_register(tournament=tournament, user=actor, now=now)
                return Response({"registered": entrant.user.username}, status=201)
            case "withdraw":
                target = _user(data["username"]) if data.get("username") else actor
                services.tournament_withdraw(tournament=tournament, user=target, actor=actor)
                return Response({"withdrawn": target.username})
            case "readmit":
                _require(data, "username")
                services.entrant_readmit(
                    tournament=tournament, actor=actor, user=_user(data["username"])
                )
                return Response({"readmitted": data["username"]})
            case "add-player":
                _require(data, "username")
                entrant = services.entrant_add(
                    tournament=tournament,
                    actor=actor,
                    user=_user(data["username"]),
                    late_bye=data.get("late_bye", "Z"),
                )
                return Response(
                    {"added": entrant.user.username, "first_round": entrant.first_round}, status=201
                )
            case "bye":
                _require(data, "round")
                services.bye_request(
                    tournament=tournament,
                    user=actor,
                    round_number=data["round"],
                    kind=data.get("kind", "H"),
                )
                return Response({"bye": data["round"]}, status=201)
            case "forbid":
                _require(data, "first", "second")
                services.forbid_pair(
                    tournament=tournament,
                    actor=actor,
                    first=_user(data["first"]),
                    second=_user(data["second"]),
                    reason=data.get("reason", ""),
                )
                return Response({"forbidden": [data["first"], data["second"]]}, status=201)
            case "start" | "pair-next":
                if self.action == "start":
                    round_ = services.tournament_start(tournament=tournament, actor=actor, now=now)
                else:
                    round_ = services.round_pair_by(tournament=tournament, actor=actor, now=now)
                if round_ is None:  # a large field: a background job pairs it
                    tournament.refresh_from_db()
                    return Response(
                        {"round": tournament.pairing_requested_round, "status": "pairing"},
                        status=202,
                    )
                return Response({"round": round_.number, "status": round_.status}, status=201)
            case "start-round":
                _require(data, "round")
                round_ = services.round_start(
                    tournament_id=tournament.pk, number=data["round"], actor=actor, now=now
                )
                return Response({"round": round_.number, "status": round_.status})
            case "result":
                _require(data, "board", "result")
                board = self._board(tournament, data["board"])
                board = services.board_result_set(
                    board=board,
                    actor=actor,
                    result=data["result"],
                    black_marbles=data.get("black_marbles"),
                    white_marbles=data.get("white_marbles"),
                    reason=data.get("reason", ""),
                    now=now,
                )
                return Response(board_data(board))
            case "edit-board":
                _require(data, "board", "black")
                board = self._board(tournament, data["board"])
                warnings = services.board_pairing_edit(
                    board=board,
                    actor=actor,
                    black=services.entrant_for(tournament, data["black"]),
                    white=services.entrant_for(tournament, data["white"])
                    if data.get("white")
                    else None,
                )
                board.refresh_from_db()
                return Response({"board": board_data(board), "warnings": warnings})
        raise NotFound("Unknown action.")

    @staticmethod
    def _board(tournament: Tournament, board_id: int) -> Board:
        board = (
            Board.objects.select_related("round__tournament")
            .filter(pk=board_id, round__tournament=tournament)
            .first()
        )
        if board is None:
            raise NotFound(f"{tournament.name} has no board {board_id}.")
        return board
