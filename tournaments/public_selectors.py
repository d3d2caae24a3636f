"""Reads of the public results site: the list of every event, filtered and searched, and an
event as its JSON gives it."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate

from tournaments.models import Entrant, Tournament

#: The public list's filters (``public_events``): name -> what it matches.
EVENT_FILTERS = ("q", "club", "country", "status", "format", "from", "to")


def public_events(filters: dict) -> QuerySet:
    """Every event for the public results list, newest first by its day (the announced first
    day, else the day it started, else the day it was created), filtered: ``q`` a word of the
    name, the club, the city, the venue or a player's name; ``club`` a club's slug; ``country``
    an ISO code; ``status``; ``format``; ``from``/``to`` ISO dates bounding the event's day.
    A filter that cannot be read (a bad date) is ignored, as a search box would."""
    events = (
        Tournament.objects.select_related("club")
        .annotate(
            day=Coalesce("starts_on", TruncDate("started_at"), TruncDate("created_at")),
            players=Count("entrants", distinct=True),
        )
        .order_by("-day", "-pk")
    )
    words = (filters.get("q") or "").split()[:5]
    for word in words:
        matches = Entrant.objects.filter(
            Q(user__display_name__icontains=word)
            | Q(user__username__icontains=word)
            | Q(listed_name__icontains=word)
        ).values("tournament")
        events = events.filter(
            Q(name__icontains=word)
            | Q(club__name__icontains=word)
            | Q(city__icontains=word)
            | Q(venue__icontains=word)
            | Q(pk__in=matches)
        )
    if filters.get("club"):
        events = events.filter(club__slug=filters["club"])
    if filters.get("country"):
        events = events.filter(country=filters["country"].upper()[:2])
    if filters.get("status") in Tournament.Status.values:
        events = events.filter(status=filters["status"])
    if filters.get("format") in Tournament.Format.values:
        events = events.filter(format=filters["format"])
    for name, lookup in (("from", "day__gte"), ("to", "day__lte")):
        try:
            day = date.fromisoformat(filters.get(name) or "")
        except ValueError:
            continue
        events = events.filter(**{lookup: day})
    return events


def event_document(event: Tournament, request=None) -> dict:
    """An event as the public list's JSON gives it (stable links to its pages and exports)."""
    url = event.get_absolute_url()
    absolute = request.build_absolute_uri if request is not None else (lambda path: path)
    return {
        "slug": event.slug,
        "name": event.name,
        "club": event.club.name,
        "club_slug": event.club.slug,
        "format": event.format,
        "status": event.status,
        "rounds": event.rounds,
        "current_round": event.current_round,
        "players": getattr(event, "players", None),
        "starts_on": event.starts_on.isoformat() if event.starts_on else None,
        "ends_on": event.ends_on.isoformat() if event.ends_on else None,
        "day": event.day.isoformat() if getattr(event, "day", None) else None,
        "city": event.city,
        "country": str(event.country or ""),
        "venue": event.venue,
        "url": absolute(url),
        "standings_csv": absolute(f"{url}export/standings.csv"),
        "trf": absolute(f"{url}export/trf"),
        "api": absolute(f"/api/v1/tournaments/{event.slug}/"),
    }
