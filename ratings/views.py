"""Rating pages: the leaderboards (a player's ratings are shown on their page, ``players``)."""

from __future__ import annotations

from datetime import datetime

from django.core.paginator import Paginator
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language

from accounts.models import User
from clubs.models import Club
from core.errors import ServiceError
from core.fragments import kept, values_key
from ratings import elo, selectors
from ratings.models import PlayerRating

LEADERBOARD_PAGE_SIZE = 50


def _leaderboard_url(**params) -> str:
    return "?" + urlencode({k: v for k, v in params.items() if v not in (None, "")})


def leaderboard(request):
    """``/ratings/``: one category per tab, optionally one club, active players only."""
    try:
        selection = selectors.leaderboard_filter(
            category=request.GET.get("category"),
            club=request.GET.get("club"),
            days=request.GET.get("days"),
        )
    except ServiceError as error:  # a bad parameter (400) or an unknown club (404)
        return render(
            request,
            "ratings/leaderboard.html",
            {"error": error.detail},
            status=error.status,
        )
    now: datetime = timezone.now()
    ratings = selectors.leaderboard(selection, now=now)
    page = Paginator(ratings, LEADERBOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    first = (page.number - 1) * LEADERBOARD_PAGE_SIZE
    # the count above reads the ratings alone; the rows, with their players, as plain values
    values = list(ratings.values_list(*ROW_VALUES)[first : first + LEADERBOARD_PAGE_SIZE])
    club_slug = selection.club.slug if selection.club else ""
    days = selection.days if selection.days != selectors.LEADERBOARD_DEFAULT_DAYS else ""
    tabs = [
        {
            "category": category,
            "url": _leaderboard_url(category=category, club=club_slug, days=days),
            "current": category == selection.category,
        }
        for category in elo.ALL_CATEGORIES
    ]

    def page_url(number: int) -> str:
        return _leaderboard_url(category=selection.category, club=club_slug, days=days, page=number)

    return render(
        request,
        "ratings/leaderboard.html",
        {
            "selection": selection,
            "page": page,
            "rows_html": kept(
                f"leaderboard:{get_language()}:{values_key(first, values)}",
                lambda: _rows_html(first + 1, values),
            ),
            "tabs": tabs,
            "clubs": Club.objects.order_by("name").only("name", "slug"),
            "previous_url": page_url(page.previous_page_number()) if page.has_previous() else "",
            "next_url": page_url(page.next_page_number()) if page.has_next() else "",
            "provisional_games": elo.PROVISIONAL_GAMES,
        },
    )


#: What a leaderboard's row shows, read as plain values: a page's fifty rows are drawn once per
#: change of these values and kept in the cache under them (``core.fragments``).
ROW_VALUES = (
    "user__username",
    "user__display_name",
    "rating",
    "games",
    "peak",
    "last_game_at",
)


def _rows_html(first_rank: int, values: list[tuple]) -> str:
    rows = [
        {
            "rank": first_rank + index,
            "url": reverse("player-detail", kwargs={"username": username}),
            "username": username,
            "display_name": display_name,
            "name": User.name_shown(username, display_name),
            "rating": rating,
            "provisional": PlayerRating.provisional_after(games),
            "games": games,
            "peak": peak,
            "last_game_at": last_game_at,
        }
        for index, (username, display_name, rating, games, peak, last_game_at) in enumerate(values)
    ]
    return render_to_string(
        "ratings/_leaderboard_rows.html",
        {"rows": rows, "provisional_games": elo.PROVISIONAL_GAMES},
    )
