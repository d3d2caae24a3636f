"""A league team's fixtures as an iCalendar file (RFC 5545), made with the ``icalendar``
library: one event per match day, at the home team's club, with the score once it is in. A
calendar program that subscribes to the address sees the dates and venues as the league
changes them (a stable UID per fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event

from leagues.models import League
from leagues.selectors import Fixture
from teams.models import Team

#: How long a match evening lasts in the calendar.
MATCH_HOURS = 4


def _summary(fixture: Fixture) -> str:
    text = f"{fixture.home.name} – {fixture.away.name}"
    if fixture.score is not None:
        home, away = fixture.score
        text += f" {home:g}–{away:g}"
    postponed = ", postponed" if fixture.postponed else ""
    return f"{text} ({fixture.division.name}, round {fixture.round}{postponed})"


def team_calendar(
    league: League, team: Team, fixtures: list[Fixture], host: str, now: datetime
) -> bytes:
    """The calendar of ``team``'s ``fixtures`` in ``league``."""
    calendar = Calendar()
    calendar.add("prodid", "-//Sumito//Abalone leagues//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{team.name}: {league}")
    for fixture in fixtures:
        if fixture.when is None:
            continue
        event = Event()
        event.add(
            "uid",
            f"league-{league.pk}-division-{fixture.division.pk}-round-{fixture.round}-"
            f"{fixture.home.team_id}-{fixture.away.team_id}@{host}",
        )
        event.add("dtstamp", now)
        starts = fixture.when.astimezone(UTC)  # a fixed UTC offset would be written floating
        event.add("dtstart", starts)
        event.add("dtend", starts + timedelta(hours=MATCH_HOURS))
        event.add("summary", _summary(fixture))
        event.add("location", fixture.venue)
        calendar.add_component(event)
    return calendar.to_ical()
