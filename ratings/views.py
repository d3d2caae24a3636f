"""Rating pages: the leaderboards (a player's ratings are shown on their page, ``players``)."""

from __future__ import annotations

from datetime import datetime

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import urlencode

from clubs.models import Club
from core.errors import ServiceError
from ratings import elo, selectors

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
    page = Paginator(selectors.leaderboard(selection, now=now), LEADERBOARD_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
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
    rows = [
        {"rank": page.start_index() + index, "rating": row}
        for index, row in enumerate(page.object_list)
    ]

    def page_url(number: int) -> str:
        return _leaderboard_url(category=selection.category, club=club_slug, days=days, page=number)

    return render(
        request,
        "ratings/leaderboard.html",
        {
            "selection": selection,
            "page": page,
            "rows": rows,
            "tabs": tabs,
            "clubs": Club.objects.order_by("name").only("name", "slug"),
            "previous_url": page_url(page.previous_page_number()) if page.has_previous() else "",
            "next_url": page_url(page.next_page_number()) if page.has_next() else "",
            "provisional_games": elo.PROVISIONAL_GAMES,
        },
    )
