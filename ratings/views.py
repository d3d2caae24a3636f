"""Rating pages: the leaderboards, and the public player page (its clubs, ratings, record,
games and tournaments).

The rating charts are drawn here as plain SVG geometry (no script, no external service).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import find_player, player_named
from clubs.models import Club
from core.errors import ServiceError
from multiplayer.selectors import finished_tables_of
from ratings import elo, selectors

LEADERBOARD_PAGE_SIZE = 50

# Chart canvas, in SVG user units; the CSS scales it to the width of the card.
CHART_WIDTH, CHART_HEIGHT = 640, 200
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 10, 10, 24
# The least horizontal step between two consecutive games, as a share of the plot's width (at
# most half the width goes to steps): games played at the same moment, or minutes apart in a
# history of months, stay apart instead of stacking into one vertical line.
CHART_MIN_STEP = 6 / (CHART_WIDTH - CHART_LEFT - CHART_RIGHT)
# Dates marked between the first and the last when the history spans at least this many days.
CHART_TICK_MIN_DAYS = 4
CHART_INNER_TICKS = 3


@dataclass(frozen=True)
class Chart:
    category: str
    width: int
    height: int
    count: int
    polyline: str
    points_svg: str  # one <circle> per rated game, with its date, rating and change as a title
    gridlines: list[tuple[float, int]]  # (y, rating)
    first_label: str
    last_label: str
    ticks: list[tuple[float, str]]  # (x, date) marked between the first and the last
    left: int = CHART_LEFT
    right: int = CHART_WIDTH - CHART_RIGHT
    top: int = CHART_TOP
    bottom: int = CHART_HEIGHT - CHART_BOTTOM


def chart_x_fractions(times: list[float]) -> list[float]:
    """Where each game sits across the chart, from 0 (left) to 1 (right), for ``times`` in
    seconds, oldest first: by the time it was played, plus a small fixed step per game.

    The step (``CHART_MIN_STEP``, less when there are many games) keeps apart the games played
    at one moment (a round's results entered together) or minutes apart; the rest of the width
    is shared in proportion to the time between games, so a month without games is wide and a
    busy evening narrow. Games all at one moment are spread evenly.
    """
    count = len(times)
    if count == 1:
        return [0.5]
    start, end = times[0], times[-1]
    step, by_time = _chart_shares(count)
    fractions = []
    for index, moment in enumerate(times):
        share = index / (count - 1) if end == start else (moment - start) / (end - start)
        fractions.append(step * index + by_time * share)
    return fractions


def _chart_shares(count: int) -> tuple[float, float]:
    """For ``count`` games (two or more): the width of each game's own step, and the width
    shared in proportion to time."""
    step = min(CHART_MIN_STEP, 0.5 / (count - 1))
    return step, 1 - step * (count - 1)


def _time_ticks(times: list[float]) -> list[tuple[float, float]]:
    """Evenly spaced moments between the first and last game, each with its place across the
    chart (the same mapping as the games': the step of every game before it, plus its time)."""
    start, end = times[0], times[-1]
    if end - start < CHART_TICK_MIN_DAYS * 86400:
        return []
    step, by_time = _chart_shares(len(times))
    ticks = []
    for number in range(1, CHART_INNER_TICKS + 1):
        moment = start + (end - start) * number / (CHART_INNER_TICKS + 1)
        before = sum(1 for t in times if t <= moment) - 1
        ticks.append((moment, step * before + by_time * (moment - start) / (end - start)))
    return ticks


def rating_chart(category: str, history: list[selectors.HistoryPoint]) -> Chart:
    """Place one point per rated game: x by time played (``chart_x_fractions``), y by the
    rating after the game.

    The circles are written here rather than in a template loop: a player with thousands of
    games would otherwise spend most of the page's time resolving template variables. The markup
    holds only numbers and dates, never user text, so it is safe as it is.
    """
    times = [p.played_at.timestamp() for p in history]
    ratings = [p.rating for p in history]
    low, high = min(ratings), max(ratings)
    step = 50 if high - low <= 300 else 100 if high - low <= 800 else 200
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        low, high = low - step, high + step
    plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    fractions = chart_x_fractions(times)

    def y_of(rating: int) -> float:
        return CHART_TOP + (high - rating) / (high - low) * plot_height

    coordinates, circles = [], []
    for fraction, point in zip(fractions, history, strict=True):
        x, y = f"{CHART_LEFT + fraction * plot_width:.1f}", f"{y_of(point.rating):.1f}"
        coordinates.append(f"{x},{y}")
        circles.append(
            f'<circle class="point" cx="{x}" cy="{y}" r="2.5"><title>'
            f"{point.played_at:%Y-%m-%d %H:%M}: {point.rating} ({point.delta:+d})</title></circle>"
        )
    ticks = [
        (
            round(CHART_LEFT + fraction * plot_width, 1),
            f"{datetime.fromtimestamp(moment, tz=history[0].played_at.tzinfo):%Y-%m-%d}",
        )
        for moment, fraction in _time_ticks(times)
    ]
    return Chart(
        category=category,
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        count=len(history),
        polyline=" ".join(coordinates),
        points_svg=mark_safe("".join(circles)),  # noqa: S308 (numbers and dates only)
        gridlines=[(round(y_of(value), 1), value) for value in range(low, high + 1, step)],
        first_label=f"{history[0].played_at:%Y-%m-%d}",
        last_label=f"{history[-1].played_at:%Y-%m-%d}",
        ticks=ticks,
    )


def table_lines(player: User, limit: int = 10) -> list[dict]:
    """The player's latest finished three- and four-player games, shown apart from the
    two-player ones: place, players, rating change."""
    lines = []
    tables = finished_tables_of(player).prefetch_related("seats__user", "rating_changes")[:limit]
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.index)
        mine = next(s for s in seats if s.user_id == player.pk)
        change = next((c for c in table.rating_changes.all() if c.user_id == player.pk), None)
        lines.append(
            {
                "table": table,
                "place": mine.place,
                "colour": mine.colour,
                "others": [s.user for s in seats if s.user_id and s.user_id != player.pk],
                "delta": change.rating_after - change.rating_before if change else None,
            }
        )
    return lines


def player_profile_context(request, player: User) -> dict:
    """The rating sections of ``/players/<username>/``: ratings, charts, record, games (those
    against the computer apart), tournaments and the head-to-head form (``?vs=username``)."""
    ratings = selectors.player_ratings(player)
    multi = any(row.category == elo.MULTI_CATEGORY for row in ratings)
    history = selectors.rating_history(player, tables=multi)
    tournaments, tournament_count = selectors.player_tournaments(player)
    context = {
        "ratings": ratings,
        "charts": [rating_chart(category, points) for category, points in history.items()],
        "record": selectors.player_record(player),
        "recent_games": selectors.recent_games(player),
        "table_games": table_lines(player),
        "computer_games": selectors.computer_games(player),
        "tournaments": tournaments,
        "tournament_count": tournament_count,
        "provisional_games": elo.PROVISIONAL_GAMES,
        "vs": request.GET.get("vs", "").strip()[:150],
        "vs_error": "",
        "head_to_head": None,
    }
    if context["vs"]:
        opponent = find_player(context["vs"])
        if opponent is None:
            context["vs_error"] = _("There is no player called '%(username)s'.") % {
                "username": context["vs"]
            }
        elif opponent.pk == player.pk:
            context["vs_error"] = _("Choose another player than this one.")
        else:
            context["head_to_head"] = selectors.head_to_head(player, opponent)
    return context


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


def player_detail(request, username: str):
    """The public page of a player (a deactivated account is not found)."""
    player = player_named(username)
    memberships = player.memberships.select_related("club").order_by("club__name")
    return render(
        request,
        "ratings/player.html",
        {"player": player, "memberships": memberships, **player_profile_context(request, player)},
    )
