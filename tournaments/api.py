"""Tournament API: the same services as the pages, JSON in and out."""

from __future__ import annotations

from zoneinfo import available_timezones

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_countries.serializer_fields import CountryField
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club
from core.errors import NotFound
from core.serializers import StrictModelSerializer, TextField
from games.option_fields import NO_INCREMENT_WITH_DAYS, ClockBaseField
from tournaments import actions, board_selectors, cup_selectors, exports, selectors, services
from tournaments.models import Entrant, Round, Tournament
from tournaments.models.event import ROUND_DAYS_MAX
from tournaments.selectors import tournament_by_slug as _tournament
from tournaments.tiebreaks import TIEBREAKS
from tournaments.tiebreaks.team import TEAM_TIEBREAKS

#: Every tie-break code: an individual event's (TIEBREAKS), then a team event's own.
ALL_TIEBREAKS = list(dict.fromkeys([*TIEBREAKS, *TEAM_TIEBREAKS]))


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": ALL_TIEBREAKS},
        "uniqueItems": True,
        "description": "tie-break codes, in order, each once: an individual event's, or a team "
        "event's (tournaments.tiebreaks.team; another is refused, 422)",
    }
)
class TiebreakOrder(serializers.ListField):
    child = serializers.ChoiceField(choices=ALL_TIEBREAKS)

    def to_internal_value(self, data):
        order = super().to_internal_value(data)
        if len(set(order)) != len(order):
            raise serializers.ValidationError(_("A tie-break appears twice in the order."))
        return order


@extend_schema_field(
    {
        "type": "array",
        "items": {"anyOf": [{"type": "string", "format": "date-time"}, {"enum": [""]}]},
        "description": "one start per round: an ISO date-time (without an offset: UTC), or blank (not scheduled)",
    }
)
class Schedule(serializers.ListField):
    child = serializers.CharField(allow_blank=True)

    def to_internal_value(self, data):
        when = serializers.DateTimeField()
        return [
            when.run_validation(item).isoformat() if item else ""
            for item in super().to_internal_value(data)
        ]


class TournamentSerializer(StrictModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    name = TextField(min_length=3, max_length=100)
    tiebreaks = TiebreakOrder(required=False)
    schedule = Schedule(required=False)
    country = CountryField(
        required=False,
        allow_blank=True,
        help_text="where the event is played: ISO 3166 code (BE), or blank; TRF 032 gives its "
        "federation",
    )
    time_zone = serializers.ChoiceField(
        choices=[""] + sorted(available_timezones()),
        required=False,
        allow_blank=True,
        help_text="the event's time zone (IANA name, Europe/Brussels); blank: the site's",
    )
    base_seconds = ClockBaseField(
        required=False,
        allow_null=True,
        help_text="seconds each (a live clock, up to 6 hours), or a correspondence clock: 1, 2, "
        "3, 5, 7 or 14 days a move, as days x 86400, increment 0; null: no clock",
    )
    bye_points = serializers.ChoiceField(
        choices=["0", "0.0", "0.5", "1", "1.0"],
        required=False,
        help_text="points for a pairing-allocated bye",
    )

    #: A game without a clock is not rated: no clock (base_seconds null) needs rated false, or
    #: over-the-board play (the service checks it, and the registration window's order).
    request_schema_rules = {
        "anyOf": [
            {"properties": {"base_seconds": {"type": "integer"}}},
            {
                "required": ["rated"],
                "properties": {"rated": {"type": "boolean", "not": {"enum": [True]}}},
            },
            {"required": ["play_mode"], "properties": {"play_mode": {"pattern": "^otb$"}}},
        ],
        "allOf": NO_INCREMENT_WITH_DAYS,  # a correspondence clock has no increment
    }

    class Meta:
        model = Tournament
        fields = ["slug", "club", *services.SETTINGS_FIELDS, "status", "current_round", "url"]
        read_only_fields = ["slug", "club", "status", "current_round", "url"]
        extra_kwargs = {
            "rounds": {"min_value": 1, "max_value": 30},
            "round_days": {
                "min_value": 1,
                "max_value": ROUND_DAYS_MAX,
                "help_text": "a correspondence event's round deadline in days from the round's "
                "start (null: none); games still in play then are adjudicated as at the move "
                "limit (max_plies_result)",
            },
            "increment_seconds": {"min_value": 0, "max_value": 600},
            "marbles_to_win": {"min_value": 1, "max_value": 6},
            "max_players": {"min_value": 2},
            "bye_requests_max": {"min_value": 0, "max_value": 30},
            "unrated_rating": {"min_value": 0, "max_value": services.MAX_RATING},
            "bye_requests_closed_rounds": {"min_value": 0, "max_value": 30},
            "venue": {"max_length": 200},
            "city": {"max_length": 80},
        }


class TournamentCreateSerializer(TournamentSerializer):
    club_slug = serializers.SlugField(write_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "club_slug"]


class Identity(serializers.Serializer):
    name = serializers.CharField(help_text="the name shown: display name, else username")
    title = serializers.CharField(help_text="as the director entered it (blank: none)")
    federation = serializers.CharField(help_text="three letters (BEL), blank if unknown")


class EntrantRow(Identity):
    number = serializers.IntegerField(allow_null=True, help_text="pairing number, once started")
    username = serializers.CharField()
    guest = serializers.BooleanField(help_text="a player without an account (kept by the club)")
    birth_year = serializers.IntegerField(allow_null=True)
    sex = serializers.CharField(help_text="m, w or blank")
    club = serializers.CharField(help_text="the club they play for, as entered")
    rating = serializers.IntegerField(help_text="rating when the event began")
    status = serializers.ChoiceField(choices=Entrant.Status.choices)
    first_round = serializers.IntegerField()


class StandingRow(Identity):
    rank = serializers.IntegerField()
    number = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    points = serializers.CharField(help_text="as printed, e.g. 2½")
    points_value = serializers.FloatField()
    tiebreak_values = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="tie-break code: value, in the event's order (null: no value, as a rating "
        "tie-break when unrated players take part)",
    )
    withdrawn = serializers.BooleanField()


class CrosstableRow(Identity):
    rank = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    points = serializers.CharField()
    cells = serializers.ListField(
        child=serializers.CharField(),
        help_text="per round: opponent number, colour (b/w) and score, or the bye's symbol",
    )


class CupSideDocument(serializers.Serializer):
    name = serializers.CharField()
    seed = serializers.IntegerField()
    username = serializers.CharField(help_text="the player's username; a team cup: the team's slug")
    won = serializers.BooleanField()


class CupMatchDocument(serializers.Serializer):
    slot = serializers.IntegerField(help_text="place in the round's bracket, from 0 at the top")
    black = CupSideDocument(allow_null=True)
    white = CupSideDocument(allow_null=True)
    state = serializers.ChoiceField(
        choices=["empty", "bye", "waiting", "playing", "decided", "lots", "armageddon"],
        help_text="armageddon: a team cup's match still level, waiting for its Armageddon game",
    )
    score = serializers.ListField(
        child=serializers.FloatField(), help_text="game points of the match (Black, White)"
    )
    tiebreak = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="game points of the tie-break games (Black, White), if any",
    )
    by = serializers.CharField(
        help_text="what decided it: match, rapid, sudden_death, ...; a team cup: game_points, "
        "board_elimination, armageddon, higher_seed, lot, forfeit"
    )
    board = serializers.IntegerField(allow_null=True, help_text="board id")
    match = serializers.IntegerField(allow_null=True, help_text="a team cup's: the match id")
    third_place = serializers.BooleanField()


class CupRoundDocument(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    matches = CupMatchDocument(many=True)


class CupPlaceDocument(serializers.Serializer):
    first = serializers.IntegerField(help_text="the place; a shared place's first")
    last = serializers.IntegerField(help_text="a shared place's last (3-4, 5-8); else first")
    side = CupSideDocument()


class BoardDocument(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    black = serializers.CharField()
    white = serializers.CharField(allow_null=True, help_text="null: a bye")
    bye = serializers.CharField(allow_null=True)
    result = serializers.CharField(allow_null=True)
    black_marbles = serializers.IntegerField(allow_null=True)
    white_marbles = serializers.IntegerField(allow_null=True)
    termination = serializers.CharField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()


class RoundDocument(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    deadline_at = serializers.DateTimeField(
        allow_null=True,
        help_text="a correspondence round's deadline: its games still in play are adjudicated "
        "then (null: none)",
    )
    boards = BoardDocument(many=True)


class TournamentListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"POST": ("404", "422")}  # a club that does not exist; the window's order

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
            raise NotFound(_("There is no such club."))
        tournament = services.tournament_create(club=club, actor=request.user, **data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    schema_errors = {"PATCH": ("422",)}  # registration closing before it opens

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


def _side_document(side) -> dict | None:
    if side is None:
        return None
    return {"name": side.name, "seed": side.seed, "username": side.username, "won": side.won}


class TournamentReadView(APIView):
    """players, standings, crosstable, rounds/<n>, a cup's bracket and final places: public
    reads."""

    permission_classes = [permissions.AllowAny]
    what = "players"
    documents = {
        "players": EntrantRow(many=True),
        "standings": StandingRow(many=True),
        "crosstable": CrosstableRow(many=True),
        "round": RoundDocument,
        "bracket": CupRoundDocument(many=True),
        "places": CupPlaceDocument(many=True),
    }

    def schema_for(self, method: str) -> dict:
        return {"responses": self.documents[self.what]}

    def get(self, request, slug: str, number: int | None = None):
        tournament = _tournament(slug)
        match self.what:
            case "players":
                return Response(
                    [
                        {
                            "number": e.pairing_number,
                            "username": e.user.username,
                            "name": e.name,
                            "title": e.title,
                            "federation": e.federation,
                            "guest": not e.user.is_active,
                            "birth_year": e.birth_year,
                            "sex": e.sex,
                            "club": e.represents,
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
            case "bracket":
                if not tournament.has_bracket:
                    raise NotFound(_("Only a knockout cup has a bracket."))
                bracket = (
                    cup_selectors.team_cup_bracket(tournament)
                    if tournament.is_team_cup
                    else cup_selectors.cup_bracket(tournament)
                )
                return Response(
                    [
                        {
                            "number": cup_round.number,
                            "name": cup_round.name,
                            "matches": [
                                {
                                    "slot": match.slot,
                                    "black": _side_document(match.black),
                                    "white": _side_document(match.white),
                                    "state": match.state,
                                    "score": list(match.score),
                                    "tiebreak": list(match.tiebreak) if match.tiebreak else None,
                                    "by": match.by,
                                    "board": match.board_id,
                                    "match": match.match_id,
                                    "third_place": match.third_place,
                                }
                                for match in cup_round.matches
                            ],
                        }
                        for cup_round in bracket
                    ]
                )
            case "places":
                if not tournament.has_bracket:
                    raise NotFound(_("Only a knockout cup has final places."))
                return Response(
                    [
                        {
                            "first": place.first,
                            "last": place.last,
                            "side": _side_document(place.side),
                        }
                        for place in cup_selectors.places_of(tournament)
                    ]
                )
            case "round":
                round_ = Round.objects.filter(tournament=tournament, number=number).first()
                if round_ is None:
                    raise NotFound(_("Round %(number)s has not been paired.") % {"number": number})
                return Response(
                    {
                        "number": round_.number,
                        "status": round_.status,
                        "deadline_at": round_.deadline_at,
                        "boards": [
                            board_selectors.board_document(b)
                            for b in round_.boards.select_related(
                                "round", "black__user", "white__user"
                            )
                        ],
                    }
                )
        raise NotFound(_("Unknown read."))


class TournamentExportView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    def get(self, request, slug: str, kind: str):
        body, content_type, filename = exports.export(_tournament(slug), kind)
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class TournamentActionView(APIView):
    """One of :data:`tournaments.actions.ACTIONS` (register, withdraw, readmit, add-player,
    bye, forbid, unforbid, start, pair-next, start-round, result, game-result, edit-board); the
    service it calls decides who may."""

    permission_classes = [permissions.IsAuthenticated]
    action = "register"

    @property
    def schema_errors(self) -> tuple[str, ...]:
        return ("422",) if self.action in actions.UNPROCESSABLE else ()

    def schema_for(self, method: str) -> dict:
        statuses = actions.STATUSES.get(self.action, (200,))
        return {
            "request": actions.INPUTS[self.action],
            "responses": {code: OpenApiTypes.OBJECT for code in statuses},
        }

    def post(self, request, slug: str):
        outcome = actions.perform(
            self.action,
            tournament=_tournament(slug),
            actor=request.user,
            data=request.data,
            now=timezone.now(),
        )
        return Response(outcome.data, status=outcome.status)
