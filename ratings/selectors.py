"""Reads of ratings: current ratings, the leaderboards, a player's ratings and their history.

The player's page that shows them with the rest of a player's record is ``players``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club, Membership
from core.errors import InvalidInput, NotFound
from ratings import elo
from ratings.elo import speed_category
from ratings.models import PlayerRating, RatingChange, RecomputeRequest, TableRatingChange


def current_rating(user: User, category: str) -> int:
    rating = (
        PlayerRating.objects.filter(user=user, category=category)
        .values_list("rating", flat=True)
        .first()
    )
    return rating if rating is not None else settings.RATING_DEFAULT


def current_ratings(user_ids, category: str) -> dict[int, int]:
    """Each of ``user_ids``' rating in ``category`` (the default for one never rated), in one
    query."""
    ids = set(user_ids)
    found = dict(
        PlayerRating.objects.filter(user_id__in=ids, category=category).values_list(
            "user_id", "rating"
        )
    )
    return {user_id: found.get(user_id, settings.RATING_DEFAULT) for user_id in ids}


def ratings_being_updated() -> bool:
    """Whether a corrected result's replay of the ratings is still waiting or running."""
    return RecomputeRequest.objects.filter(done_at__isnull=True).exists()


def rating_for_tournament(user: User, tournament) -> int:
    return current_rating(user, tournament_category(tournament))


def tournament_category(tournament) -> str:
    """The rating category of a tournament's clock."""
    return speed_category(tournament.base_seconds, tournament.increment_seconds)


# --- Leaderboards and a player's ratings ------------------------------------------------------
# Reads for the leaderboards, the rating API and the player page. Each costs a fixed, small
# number of queries, whatever the size of the player's history.

LEADERBOARD_DEFAULT_CATEGORY = "rapid"
LEADERBOARD_DEFAULT_DAYS = 90
LEADERBOARD_MAX_DAYS = 3650


@dataclass(frozen=True)
class LeaderboardFilter:
    category: str
    days: int
    club: Club | None


def leaderboard_filter(
    *, category: str | None = None, club: str | None = None, days: str | None = None
) -> LeaderboardFilter:
    """Validate the leaderboard's query parameters; raises InvalidInput with a message."""
    category = (category or LEADERBOARD_DEFAULT_CATEGORY).strip().lower()
    if category not in elo.ALL_CATEGORIES:
        raise InvalidInput(
            _("Unknown category '%(category)s': choose one of %(all_categories)s.")
            % {"category": category, "all_categories": ", ".join(elo.ALL_CATEGORIES)},
            code="bad_category",
        )
    if days is None or str(days).strip() == "":
        window = LEADERBOARD_DEFAULT_DAYS
    else:
        try:
            window = int(str(days).strip())
        except ValueError:
            raise InvalidInput(
                _("days must be a whole number of days, not '%(days)s'.") % {"days": days},
                code="bad_days",
            ) from None
        if not 1 <= window <= LEADERBOARD_MAX_DAYS:
            raise InvalidInput(
                _("days must be between 1 and %(leaderboard_max_days)s.")
                % {"leaderboard_max_days": LEADERBOARD_MAX_DAYS},
                code="bad_days",
            )
    found = None
    if club:
        found = Club.objects.filter(slug=club.strip()).first()
        if found is None:
            raise NotFound(_("There is no club '%(club)s'.") % {"club": club}, code="bad_club")
    return LeaderboardFilter(category, window, found)


def leaderboard(selection: LeaderboardFilter, *, now: datetime) -> QuerySet[PlayerRating]:
    """Active players (a rated game in the window) of one category, best first.

    Ties are broken by fewer games (the rating was reached faster), then by username, so the order
    is stable across pages. Closed accounts are left out by looking for them (there are few,
    under an index of their own), not by joining every row to its player: the page's count
    then reads the ratings alone (half the time on PostgreSQL).
    """
    rows = PlayerRating.objects.filter(
        ~Exists(User.objects.filter(pk=OuterRef("user_id"), is_active=False)),
        category=selection.category,
        games__gt=0,
        last_game_at__gte=now - timedelta(days=selection.days),
    )
    if selection.club is not None:
        rows = rows.filter(
            user_id__in=Membership.objects.filter(club=selection.club).values("user_id")
        )
    return rows.select_related("user").order_by("-rating", "games", "user__username")


def player_ratings(user: User) -> list[PlayerRating]:
    """The player's rating rows that have games, in the order of ``elo.ALL_CATEGORIES``."""
    rows = {r.category: r for r in PlayerRating.objects.filter(user=user, games__gt=0)}
    return [rows[category] for category in elo.ALL_CATEGORIES if category in rows]


@dataclass(frozen=True)
class HistoryPoint:
    played_at: datetime
    rating: int
    delta: int
    game_id: int | None
    board_id: int | None


def rating_history(user: User, *, tables: bool = True) -> dict[str, list[HistoryPoint]]:
    """One point per rated game, per category, oldest first (only categories with games): the
    two-player categories, the bots' pool and, unless ``tables`` is false (the caller knows the
    player has no ``multi`` rating: a query saved), the tables' ``multi`` category."""

    history: dict[str, list[HistoryPoint]] = {}
    changes = (
        RatingChange.objects.filter(user=user)
        .order_by("played_at", "pk")
        .values_list(
            "category",
            "played_at",
            "rating_before",
            "rating_after",
            "game_id",
            "board_id",
            "match_game__board_id",  # an over-the-board game of a match: its board
        )
    )
    for category, played_at, before, after, game_id, board_id, match_board_id in changes:
        history.setdefault(category, []).append(
            HistoryPoint(played_at, after, after - before, game_id, board_id or match_board_id)
        )
    table_changes = (
        TableRatingChange.objects.filter(user=user)
        .order_by("played_at", "pk")
        .values_list("played_at", "rating_before", "rating_after")
    )
    for played_at, before, after in table_changes if tables else ():
        history.setdefault(elo.MULTI_CATEGORY, []).append(
            HistoryPoint(played_at, after, after - before, None, None)
        )
    return {c: history[c] for c in elo.ALL_CATEGORIES if c in history}
