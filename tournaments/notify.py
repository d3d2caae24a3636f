"""What a tournament tells its players (notifications): the round paired, the game ready,
the event about to start. Called inside the transaction that made the change; each
notification is keyed by its event, so doing it twice notifies once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.urls import reverse

from games.clock import TimeControl
from notifications.models import Notification
from notifications.services import notification_create
from teams.models import TeamMember
from tournaments.models import Board, Entrant, Round, TeamLineup, Tournament
from tournaments.models.event import TEAM_FORMATS

_COLOUR = {"black": "Black", "white": "White"}


def _common(tournament: Tournament, round_: Round) -> dict:
    return {
        "tournament": tournament.name,
        "tournament_slug": tournament.slug,
        "round": round_.number,
    }


def round_paired(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Each paired player: their board, colour and opponent, or their bye."""
    url = reverse("tournament-round", kwargs={"slug": tournament.slug, "number": round_.number})
    boards = round_.boards.select_related("black__user", "white__user")
    for board in boards:
        sides = [(board.black, board.white, "Black")]
        if board.white is not None:
            sides.append((board.white, board.black, "White"))
        for entrant, opponent, colour in sides:
            if entrant.user_id is None:
                continue
            data = _common(tournament, round_) | {"board": board.number}
            if opponent is None:
                data["bye"] = board.bye or "bye"  # its code: the text translates it
            else:
                data |= {"opponent": _name(opponent), "colour": colour}
            notification_create(
                user=entrant.user,
                kind="round_paired",
                key=f"round_paired:{tournament.pk}:{round_.number}",
                data=data,
                url=url,
                now=now,
            )


def lineup_due(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Each team's captain in a team event's round just paired: the opponent, board 1's
    colour, and that the line-up is due before the round begins."""
    url = reverse(
        "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
    )
    for match in round_.team_matches.select_related("first__team", "second__team"):
        sides = [(match.first, match.second, "Black")]
        if match.second is not None:
            sides.append((match.second, match.first, "White"))
        for entry, opponent, colour in sides:
            captain_id = entry.team.captain_id
            if captain_id is None:
                continue
            data = _common(tournament, round_) | {"team": entry.name}
            if opponent is not None:
                data |= {"opponent": opponent.name, "colour": colour}
            notification_create(
                user=entry.team.captain,
                kind="lineup_due",
                key=f"lineup_due:{tournament.pk}:{round_.number}:{entry.team_id}",
                data=data,
                url=url,
                now=now,
            )


def match_reported(
    tournament: Tournament,
    match,
    entry,
    other,
    score: str,
    now: datetime,
) -> None:
    """The other team's captain: ``entry``'s captain reported the match's results; confirm or
    dispute them (one notification per report and score)."""
    captain = other.team.captain
    if captain is None:
        return
    notification_create(
        user=captain,
        kind="match_reported",
        key=f"match_reported:{match.pk}:{entry.pk}:{score}",
        data=_common(tournament, match.round)
        | {"team": entry.name, "opponent": other.name, "score": score},
        url=reverse(
            "tournament-team-matches",
            kwargs={"slug": tournament.slug, "number": match.round.number},
        ),
        now=now,
    )


def game_started(tournament: Tournament, round_: Round, board: Board, now: datetime) -> None:
    """Both players of a server game just created: opponent, colour, clock and the link. The
    first-move time (the forfeit rule) counts from ``now``, when this is sent."""
    game = board.game
    clock = TimeControl(game.base_seconds, game.increment_seconds).label()
    for entrant, opponent in ((board.black, board.white), (board.white, board.black)):
        if entrant is None or entrant.user_id is None:
            continue
        # in a match round the colours swap from game to game: the game's own
        colour = "Black" if game.black_id == entrant.user_id else "White"
        notification_create(
            user=entrant.user,
            kind="game_started",
            key=f"game_started:{game.pk}",
            data=_common(tournament, round_)
            | {
                "game": game.pk,
                "board": board.number,
                "opponent": _name(opponent),
                "colour": colour,
                "clock": clock,
                "first_move_seconds": game.first_move_seconds,
            },
            url=f"/games/{game.pk}/",
            now=now,
        )


def remind_players(*, now: datetime) -> int:
    """Remind the entrants of every tournament whose scheduled start (the first round's time)
    is within ``TOURNAMENT_REMINDER_MINUTES``; how many reminders were written (a second run
    writes none)."""
    window = timedelta(minutes=settings.TOURNAMENT_REMINDER_MINUTES)
    written = 0
    upcoming = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, round_start=Tournament.RoundStart.SCHEDULED
    ).exclude(schedule=[])
    for tournament in upcoming:
        starts = _first_start(tournament)
        if starts is None or not now <= starts <= now + window:
            continue
        minutes = max(1, round((starts - now).total_seconds() / 60))
        entrants = tournament.entrants.filter(status=Entrant.Status.ACTIVE).select_related("user")
        for entrant in entrants:
            if entrant.user_id is None:
                continue
            notification = notification_create(
                user=entrant.user,
                kind="tournament_starting",
                key=f"tournament_starting:{tournament.pk}:{starts.isoformat()}",
                data={
                    "tournament": tournament.name,
                    "tournament_slug": tournament.slug,
                    "starts": starts.isoformat(),
                    "minutes": minutes,
                },
                url=tournament.get_absolute_url(),
                now=now,
            )
            written += notification.created == now
    return written


def _scheduled_team_rounds():
    """The paired rounds of running team events that start at their scheduled times, each
    with its start (None without one)."""
    waiting = Round.objects.filter(
        status=Round.Status.PAIRED,
        tournament__status=Tournament.Status.RUNNING,
        tournament__round_start=Tournament.RoundStart.SCHEDULED,
        tournament__format__in=TEAM_FORMATS,
    ).select_related("tournament")
    return [(round_, round_.tournament.round_time(round_.number)) for round_ in waiting]


def remind_captains(*, now: datetime) -> int:
    """Remind each captain of a team event whose line-up for the round paired is not in, once,
    ``LINEUP_REMINDER_MINUTES`` before the round's scheduled start (or half-way between its
    pairing and its start, when that is later); how many reminders were written."""
    window = timedelta(minutes=settings.LINEUP_REMINDER_MINUTES)
    written = 0
    for round_, starts in _scheduled_team_rounds():
        tournament = round_.tournament
        if starts is None or starts <= now:
            continue
        paired = round_.paired_at or now
        due = max(starts - window, paired + (starts - paired) / 2)
        if now < due:
            continue
        sent = set(
            TeamLineup.objects.filter(match__round=round_).values_list("match_id", "entry_id")
        )
        minutes = max(1, round((starts - now).total_seconds() / 60))
        url = reverse(
            "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
        )
        for match in round_.team_matches.exclude(second=None).select_related(
            "first__team__captain", "second__team__captain"
        ):
            for entry, opponent in ((match.first, match.second), (match.second, match.first)):
                captain = entry.team.captain
                if captain is None or (match.pk, entry.pk) in sent:
                    continue
                notification = notification_create(
                    user=captain,
                    kind="lineup_reminder",
                    key=f"lineup_reminder:{tournament.pk}:{round_.number}:{entry.team_id}",
                    data=_common(tournament, round_)
                    | {"team": entry.name, "opponent": opponent.name, "minutes": minutes},
                    url=url,
                    now=now,
                )
                written += notification.created == now
    return written


def remind_fixtures(*, now: datetime) -> int:
    """Tell every player on the roster of a team whose match of a team event's scheduled round
    begins within ``FIXTURE_REMINDER_MINUTES`` (a day: "your team plays tomorrow"): the
    opponent, the day and the hour in the event's time zone; once per player and round. How
    many were written."""
    window = timedelta(minutes=settings.FIXTURE_REMINDER_MINUTES)
    written = 0
    for round_, starts in _scheduled_team_rounds():
        tournament = round_.tournament
        if starts is None or not now < starts <= now + window:
            continue
        url = reverse(
            "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
        )
        matches = list(round_.team_matches.exclude(second=None).select_related("first", "second"))
        teams = {entry.team_id for match in matches for entry in (match.first, match.second)}
        roster: dict[int, list] = {}
        for member in TeamMember.objects.filter(team_id__in=teams).select_related("user"):
            roster.setdefault(member.team_id, []).append(member.user)
        local = starts.astimezone(tournament.zone).isoformat()
        key = f"fixture_reminder:{tournament.pk}:{round_.number}:"
        # the beat comes every minute of the day before: those told already are read at once
        players = {user.pk for users in roster.values() for user in users}
        told = set(
            Notification.objects.filter(
                user_id__in=players, key__in=[f"{key}{pk}" for pk in players]
            ).values_list("user_id", flat=True)
        )
        for match in matches:
            for entry, opponent in ((match.first, match.second), (match.second, match.first)):
                for user in roster.get(entry.team_id, []):
                    if user.pk in told:
                        continue
                    notification = notification_create(
                        user=user,
                        kind="fixture_reminder",
                        key=f"{key}{user.pk}",
                        data=_common(tournament, round_)
                        | {"team": entry.name, "opponent": opponent.name, "starts": local},
                        url=url,
                        now=now,
                    )
                    written += notification.created == now
    return written


def _first_start(tournament: Tournament) -> datetime | None:
    return tournament.round_time(1)


def _name(entrant: Entrant | None) -> str:
    if entrant is None:
        return ""
    return entrant.user.username if entrant.user_id else str(entrant)
