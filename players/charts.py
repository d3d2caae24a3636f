"""The rating charts of a player's page, drawn as plain SVG geometry (no script, no external
service): one polyline per rating category, spaced by time, with a point per rated game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.safestring import mark_safe

from ratings.selectors import HistoryPoint

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


def rating_chart(category: str, history: list[HistoryPoint]) -> Chart:
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
