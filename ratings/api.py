"""Rating API: the leaderboards and one player's ratings with their history. Public reads."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import player_named
from core.pagination import Pagination, page_parameters
from core.schema import choice_or_blank

from . import elo, selectors


class LeaderboardPagination(Pagination):
    default_limit = 50


class LeaderboardView(APIView):
    """Active players of one category (a rated game in the last ``days``), best first."""

    permission_classes = [permissions.AllowAny]
    schema_errors = ("404",)  # a club, player or tournament that does not exist

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "category",
                choice_or_blank(elo.ALL_CATEGORIES),
                description=f"blank: {selectors.LEADERBOARD_DEFAULT_CATEGORY}",
            ),
            OpenApiParameter("club", str, description="club slug: its members only (unknown: 404)"),
            OpenApiParameter(
                "days",
                {
                    "anyOf": [
                        {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": selectors.LEADERBOARD_MAX_DAYS,
                        },
                        {"type": "string", "enum": [""]},
                    ]
                },
                description="activity window in days "
                f"(blank: {selectors.LEADERBOARD_DEFAULT_DAYS})",
            ),
            *page_parameters(LeaderboardPagination),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        selection = selectors.leaderboard_filter(
            category=request.query_params.get("category"),
            club=request.query_params.get("club"),
            days=request.query_params.get("days"),
        )
        paginator = LeaderboardPagination()
        rows = paginator.paginate_queryset(
            selectors.leaderboard(selection, now=timezone.now()), request, view=self
        )
        results = [
            {
                "rank": paginator.offset + index + 1,
                "username": row.user.username,
                "display_name": row.user.shown_name,
                "rating": row.rating,
                "games": row.games,
                "provisional": row.provisional,
                "peak": row.peak,
                "last_game_at": row.last_game_at,
            }
            for index, row in enumerate(rows)
        ]
        response = paginator.get_paginated_response(results)
        response.data = {
            "category": selection.category,
            "club": selection.club.slug if selection.club else None,
            "days": selection.days,
            **response.data,
        }
        return response


class PlayerRatingsView(APIView):
    """A player's rating per category, with one history point per rated game (oldest first)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, username: str):
        player = player_named(username)
        rows = selectors.player_ratings(player)
        multi = any(row.category == elo.MULTI_CATEGORY for row in rows)
        history = selectors.rating_history(player, tables=multi)
        ratings = {}
        for row in rows:
            ratings[row.category] = {
                "rating": row.rating,
                "games": row.games,
                "provisional": row.provisional,
                "peak": row.peak,
                "last_game_at": row.last_game_at,
                "history": [
                    {
                        "played_at": point.played_at,
                        "rating": point.rating,
                        "change": point.delta,
                        "game": point.game_id,
                        "board": point.board_id,
                    }
                    for point in history.get(row.category, [])
                ],
            }
        return Response(
            {"username": player.username, "display_name": player.shown_name, "ratings": ratings}
        )
