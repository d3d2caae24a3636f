"""API of a team event: its teams (a captain enters, takes back, withdraws one), each round's
matches with their boards, a team's line-up, the team standings. The services decide who may."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import InvalidInput, NotFound
from core.serializers import StrictSerializer, validated
from teams.models import Team
from tournaments import team_selectors
from tournaments.models import TeamEntry, TeamMatch, TeamMatchReport
from tournaments.pairing.teams import MAX_BOARDS
from tournaments.services import cups, team_corrections, team_events, team_reports


def _team(slug: str) -> Team:
    team = Team.objects.filter(slug=slug).select_related("club").first()
    if team is None:
        raise NotFound(_("No team '%(slug)s'.") % {"slug": slug})
    return team


class TeamEntryDocument(serializers.Serializer):
    team = serializers.CharField(help_text="the team's slug")
    name = serializers.CharField()
    club = serializers.CharField(help_text="the club's slug")
    number = serializers.IntegerField(allow_null=True, help_text="pairing number, from the start")
    rating = serializers.IntegerField(help_text="average rating of its first boards")
    status = serializers.ChoiceField(choices=TeamEntry.Status.values)


def _entry_document(entry: TeamEntry) -> dict:
    return {
        "team": entry.team.slug,
        "name": entry.name,
        "club": entry.team.club.slug,
        "number": entry.number,
        "rating": entry.rating,
        "status": entry.status,
    }


class TeamInput(StrictSerializer):
    team = serializers.SlugField(max_length=80, help_text="the team's slug")


class TeamEntriesView(APIView):
    """GET: the teams entered. POST: enter a team (its captain, an admin of its club or a
    director), while the registration is open."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TeamEntryDocument(many=True))
    def get(self, request, slug: str):
        tournament = team_selectors.team_event_by_slug(slug)
        rows = team_selectors.team_entries(tournament, request.user)
        return Response([_entry_document(row.entry) for row in rows])

    @extend_schema(request=TeamInput, responses={201: TeamEntryDocument})
    def post(self, request, slug: str):
        tournament = team_selectors.team_event_by_slug(slug)
        data = validated(TeamInput, request.data)
        entry = team_events.team_enter(
            tournament=tournament, team=_team(data["team"]), actor=request.user, now=timezone.now()
        )
        return Response(_entry_document(entry), status=status.HTTP_201_CREATED)


class TeamEntryView(APIView):
    """Take a team's entry back before the event starts."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str, team: str):
        team_events.team_entry_remove(
            tournament=team_selectors.team_event_by_slug(slug), team=_team(team), actor=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamWithdrawView(APIView):
    """Withdraw a team from the running event (a team Swiss pairs it no more; a round-robin's
    matches against it are forfeited)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=TeamEntryDocument)
    def post(self, request, slug: str, team: str):
        entry = team_events.team_withdraw(
            tournament=team_selectors.team_event_by_slug(slug),
            team=_team(team),
            actor=request.user,
            now=timezone.now(),
        )
        return Response(_entry_document(entry))


class MatchBoardDocument(serializers.Serializer):
    board = serializers.IntegerField()
    first_colour = serializers.CharField(
        help_text="the first team's colour on this board: black or white"
    )
    first_player = serializers.CharField(allow_null=True, help_text="username; null: empty")
    second_player = serializers.CharField(allow_null=True)
    result = serializers.CharField(help_text="from the board's Black's side; blank: not in yet")


class ReportDocument(serializers.Serializer):
    team = serializers.CharField(help_text="the reporting team's slug")
    state = serializers.ChoiceField(choices=TeamMatchReport.State.choices)
    results = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text="board 1 first, from each board's Black's side; blank: decided by the line-ups",
    )


def _report(report: TeamMatchReport | None) -> dict | None:
    if report is None:
        return None
    return {"team": report.entry.team.slug, "state": report.state, "results": report.results}


class ArmageddonDocument(serializers.Serializer):
    first_colour = serializers.CharField(
        help_text="the first team's colour in the Armageddon game (board N+1): black or white"
    )
    first_player = serializers.CharField(allow_null=True, help_text="username; null: not named")
    second_player = serializers.CharField(allow_null=True)
    result = serializers.CharField(
        help_text="from its Black's side (a draw is White's); blank: not in yet"
    )
    game = serializers.IntegerField(allow_null=True, help_text="the server game's id")


class MatchDocument(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    first = serializers.CharField(help_text="the first team's slug (Black on board 1)")
    second = serializers.CharField(allow_null=True, help_text="null: the pairing-allocated bye")
    first_points = serializers.FloatField()
    second_points = serializers.FloatField()
    match_points = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    lineups_in = serializers.ListField(child=serializers.BooleanField())
    boards = MatchBoardDocument(many=True)
    report = ReportDocument(allow_null=True, help_text="a captain's report of the results")
    armageddon = ArmageddonDocument(
        allow_null=True,
        help_text="a team cup's match still level after board-by-board elimination",
    )


class TeamRoundView(APIView):
    """The matches of round ``number``: boards, players, results, scores."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=MatchDocument(many=True))
    def get(self, request, slug: str, number: int):
        tournament = team_selectors.team_event_by_slug(slug)
        if not tournament.round_set.filter(number=number).exists():
            raise NotFound(_("Round %(number)s has not been paired.") % {"number": number})
        return Response(
            [
                {
                    "id": row.match.pk,
                    "number": row.match.number,
                    "first": row.match.first.team.slug,
                    "second": row.match.second.team.slug if row.match.second else None,
                    "first_points": row.first_points,
                    "second_points": row.second_points,
                    "match_points": list(row.match_points) if row.match_points else None,
                    "lineups_in": list(row.lineups_in),
                    "report": _report(row.report),
                    "armageddon": _armageddon(row.armageddon),
                    "boards": [
                        {
                            "board": board.slot,
                            "first_colour": "black" if board.first_black else "white",
                            "first_player": board.first_player,
                            "second_player": board.second_player,
                            "result": board.result,
                        }
                        for board in row.boards
                    ],
                }
                for row in team_selectors.round_matches(tournament, number)
            ]
        )


def _armageddon(armageddon) -> dict | None:
    if armageddon is None:
        return None
    board = armageddon.board
    return {
        "first_colour": "black" if armageddon.first_black else "white",
        "first_player": armageddon.first_player,
        "second_player": armageddon.second_player,
        "result": board.result if board else "",
        "game": board.game_id if board else None,
    }


def _match(tournament, match: int) -> TeamMatch:
    found = TeamMatch.objects.filter(pk=match, round__tournament=tournament).first()
    if found is None:
        raise NotFound(_("No match %(id)s in %(name)s.") % {"id": match, "name": tournament})
    return found


class LineupInput(StrictSerializer):
    team = serializers.SlugField(max_length=80, help_text="the team's slug")
    players = serializers.ListField(
        child=serializers.CharField(max_length=30, allow_blank=True),
        max_length=MAX_BOARDS,
        help_text="usernames, board 1 first; blank: a board left empty",
    )


class LineupDocument(serializers.Serializer):
    team = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(allow_blank=True))
    by_default = serializers.BooleanField()


class LineupView(APIView):
    """A team's line-up for a match: usernames in board order, kept within the roster's order,
    until the match begins (with its round, or at the time it was postponed to); once it is in
    play, a director's correction (a late player on a board left empty, a player replaced at a
    board with no result)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=LineupInput, responses=LineupDocument)
    def post(self, request, slug: str, match: int):
        tournament = team_selectors.team_event_by_slug(slug)
        found = _match(tournament, match)
        data = validated(LineupInput, request.data)
        names = [name.strip() for name in data["players"]]
        act = (
            team_corrections.lineup_correct
            if found.begun_at is not None
            else team_events.lineup_submit
        )
        lineup = act(
            match=found,
            team=_team(data["team"]),
            players=team_events.lineup_players(names),
            actor=request.user,
            now=timezone.now(),
        )
        return Response({"team": data["team"], "players": names, "by_default": lineup.by_default})


class ArmageddonInput(StrictSerializer):
    team = serializers.SlugField(max_length=80, help_text="the team's slug")
    player = serializers.CharField(
        max_length=30, help_text="username: a player of the team's line-up in the match"
    )


class ArmageddonNominatedDocument(serializers.Serializer):
    team = serializers.CharField()
    player = serializers.CharField()
    paired = serializers.BooleanField(help_text="both players are named: the game is paired")


class ArmageddonView(APIView):
    """A team cup's match still level after board-by-board elimination: a team's captain (an
    admin of its club, or a director) nominates its player of the Armageddon game, from the
    team's line-up in the match; once both are named the game is paired (board N+1) and, on
    the server, begins at the cup's tie-break clock."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ArmageddonInput, responses=ArmageddonNominatedDocument)
    def post(self, request, slug: str, match: int):
        tournament = team_selectors.team_event_by_slug(slug)
        found = _match(tournament, match)
        data = validated(ArmageddonInput, request.data)
        player = team_events.lineup_players([data["player"]])[0]
        if player is None:
            raise InvalidInput(_("Choose a player."), code="no_player")
        found = cups.armageddon_nominate(
            match=found,
            team=_team(data["team"]),
            player=player,
            actor=request.user,
            now=timezone.now(),
        )
        return Response(
            {
                "team": data["team"],
                "player": player.username,
                "paired": len(found.armageddon_players) == 2,
            }
        )


class MatchReportInput(StrictSerializer):
    results = serializers.ListField(
        child=serializers.CharField(max_length=7, allow_blank=True),
        max_length=MAX_BOARDS,
        help_text="board 1 first, from each board's Black's side (1-0, 0-1, 1/2-1/2, +-, -+, "
        "--); blank for a board the line-ups decided",
    )


class MatchDisputeInput(StrictSerializer):
    reason = serializers.CharField(max_length=300, allow_blank=True, required=False)


def _report_step(request, slug: str, match: int, act, body=None) -> Response:
    """One step of a match's report (``act``: report, confirm, dispute) with the fields of
    ``body`` (a serializer class), answered with the report as it now stands."""
    found = _match(team_selectors.team_event_by_slug(slug), match)
    fields = validated(body, request.data) if body is not None else {}
    return Response(_report(act(match=found, actor=request.user, now=timezone.now(), **fields)))


class MatchReportView(APIView):
    """A captain reports an over-the-board match's results while its round is in play; the
    other captain confirms or disputes them (the same results reported by both confirm)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchReportInput, responses=ReportDocument)
    def post(self, request, slug: str, match: int):
        return _report_step(request, slug, match, team_reports.match_report, MatchReportInput)


class MatchConfirmView(APIView):
    """The other captain (or a director) confirms a match's reported results: entered."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=ReportDocument)
    def post(self, request, slug: str, match: int):
        return _report_step(request, slug, match, team_reports.match_confirm)


class MatchDisputeView(APIView):
    """The other captain disputes a match's reported results: a director decides."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchDisputeInput, responses=ReportDocument)
    def post(self, request, slug: str, match: int):
        return _report_step(request, slug, match, team_reports.match_dispute, MatchDisputeInput)


class TeamStandingDocument(serializers.Serializer):
    rank = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    match_points = serializers.FloatField()
    game_points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField(allow_null=True))


class TeamStandingsView(APIView):
    """The team standings: match and game points and the event's team tie-breaks."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=TeamStandingDocument(many=True))
    def get(self, request, slug: str):
        tournament = team_selectors.team_event_by_slug(slug)
        return Response(
            [
                {
                    "rank": row.rank,
                    "number": row.number,
                    "name": row.name,
                    "match_points": row.match_points,
                    "game_points": row.game_points,
                    "tiebreaks": row.values,
                }
                for row in team_selectors.team_standings(tournament)
            ]
        )
