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
from tournaments.models import (
    Board,
    Entrant,
    Round,
    TeamLineup,
    TeamMatch,
    Tournament,
)
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


def armageddon_due(
    tournament: Tournament, round_: Round, matches: list[TeamMatch], now: datetime
) -> None:
    """Each captain of a team cup's match still level after board-by-board elimination whose
    team has not nominated its Armageddon player: nominate one (once per match and team)."""
    url = reverse(
        "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
    )
    for match in matches:
        named = match.armageddon_players or {}
        for side, entry, other in (
            ("first", match.first, match.second),
            ("second", match.second, match.first),
        ):
            captain = entry.team.captain
            if captain is None or side in named:
                continue
            notification_create(
                user=captain,
                kind="armageddon_due",
                key=f"armageddon_due:{match.pk}:{entry.pk}",
                data=_common(tournament, round_) | {"team": entry.name, "opponent": other.name},
                url=url,
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
                "days_per_move": game.days_per_move,
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


def _begins_with_its_round(match: TeamMatch, round_time: datetime | None) -> bool:
    """Whether ``match`` begins with its round (at ``round_time``, its round's scheduled start):
    its round not begun yet and the match not postponed, or postponed to a time no later than
    the round's; otherwise (its round began without it: started early, or the match postponed
    past it) it begins at its own time (``rounds.team_match_begin``)."""
    if match.round.status != Round.Status.PAIRED:
        return False
    return match.postponed_to is None or (
        round_time is not None and match.postponed_to <= round_time
    )


def _matches_due(
    now: datetime, window: timedelta, kind: str, round_is_due
) -> list[tuple[TeamMatch, datetime, str]]:
    """The team matches whose ``kind`` reminders are due now, each with its start and the key
    of its reminders (the team's or player's id added): a scheduled round's matches that begin
    with it when ``round_is_due(round, starts)``, a match that begins at its own (postponed)
    time when that is within ``window`` of ``now`` (its key names the time: moved again,
    reminded again)."""
    due = []
    for round_, starts in _scheduled_team_rounds():
        if starts is None or starts <= now or not round_is_due(round_, starts):
            continue
        key = f"{kind}:{round_.tournament.pk}:{round_.number}:"
        for match in (
            round_.team_matches.exclude(second=None)
            .exclude(postponed_to__gt=starts)
            .select_related("round__tournament", "first__team__captain", "second__team__captain")
        ):
            due.append((match, starts, key))
    moved = (
        TeamMatch.objects.filter(
            begun_at=None,
            postponed_to__gt=now,
            postponed_to__lte=now + window,
            round__tournament__status=Tournament.Status.RUNNING,
        )
        .exclude(second=None)
        .select_related("round__tournament", "first__team__captain", "second__team__captain")
    )
    for match in moved:
        if _begins_with_its_round(match, match.round.tournament.round_time(match.round.number)):
            continue  # reminded with its round
        moment = int(match.postponed_to.timestamp())
        key = f"{kind}:{match.round.tournament_id}:{match.round.number}:{match.pk}@{moment}:"
        due.append((match, match.postponed_to, key))
    return due


def _lineups_due(now: datetime, window: timedelta) -> list[tuple[TeamMatch, datetime, str]]:
    """The matches whose captains are reminded of their line-ups now: a scheduled round's
    ``window`` before the round's time (or half-way between its pairing and its start, when
    that is later), a postponed match's ``window`` before its own time."""

    def round_is_due(round_: Round, starts: datetime) -> bool:
        paired = round_.paired_at or now
        return now >= max(starts - window, paired + (starts - paired) / 2)

    return _matches_due(now, window, "lineup_reminder", round_is_due)


def remind_captains(*, now: datetime) -> int:
    """Remind each captain of a team event whose line-up for a match about to begin is not in,
    once, ``LINEUP_REMINDER_MINUTES`` before it (:func:`_lineups_due`); how many reminders
    were written."""
    due = _lineups_due(now, timedelta(minutes=settings.LINEUP_REMINDER_MINUTES))
    sent = set(
        TeamLineup.objects.filter(match__in=[match for match, _, _ in due]).values_list(
            "match_id", "entry_id"
        )
    )
    written = 0
    for match, starts, key in due:
        tournament, round_ = match.round.tournament, match.round
        minutes = max(1, round((starts - now).total_seconds() / 60))
        url = reverse(
            "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
        )
        for entry, opponent in ((match.first, match.second), (match.second, match.first)):
            captain = entry.team.captain
            if captain is None or (match.pk, entry.pk) in sent:
                continue
            notification = notification_create(
                user=captain,
                kind="lineup_reminder",
                key=f"{key}{entry.team_id}",
                data=_common(tournament, round_)
                | {"team": entry.name, "opponent": opponent.name, "minutes": minutes},
                url=url,
                now=now,
            )
            written += notification.created == now
    return written


def _rosters(matches) -> dict[int, list]:
    """Each team's players (its roster) of ``matches``' teams, by team id."""
    teams = {entry.team_id for match in matches for entry in (match.first, match.second)}
    roster: dict[int, list] = {}
    for member in TeamMember.objects.filter(team_id__in=teams).select_related("user"):
        roster.setdefault(member.team_id, []).append(member.user)
    return roster


def _fixtures_due(now: datetime, window: timedelta) -> list[tuple[TeamMatch, datetime, str]]:
    """The team matches that begin within ``window`` of ``now``: a scheduled round's at the
    round's time, a postponed match's at its own."""
    return _matches_due(
        now, window, "fixture_reminder", lambda round_, starts: starts <= now + window
    )


def remind_fixtures(*, now: datetime) -> int:
    """Tell every player on the roster of a team whose match begins within
    ``FIXTURE_REMINDER_MINUTES`` (a day: "your team plays tomorrow"): the opponent, the day and
    the hour in the event's time zone; once per player and match day (a match postponed to
    another day is told again before it). How many were written."""
    due = _fixtures_due(now, timedelta(minutes=settings.FIXTURE_REMINDER_MINUTES))
    if not due:
        return 0
    roster = _rosters([match for match, _, _ in due])
    keys = {
        (user.pk, f"{key}{user.pk}")
        for match, _, key in due
        for entry in (match.first, match.second)
        for user in roster.get(entry.team_id, [])
    }
    # the beat comes every minute of the day before: those told already are read at once
    told = set(
        Notification.objects.filter(
            user_id__in={pk for pk, _ in keys}, key__in={key for _, key in keys}
        ).values_list("user_id", "key")
    )
    return sum(
        _tell_players(match, roster, "fixture_reminder", key, starts, now, told)
        for match, starts, key in due
    )


def _tell_players(
    match: TeamMatch,
    roster: dict[int, list],
    kind: str,
    key: str,
    starts: datetime,
    now: datetime,
    told: set = frozenset(),
) -> int:
    """Tell every player on the rosters of ``match``'s two teams (``kind``, keyed ``key`` and
    the player) their opponent and the match's start in the event's time zone, but those in
    ``told`` ((user id, key) pairs); how many were written."""
    round_, tournament = match.round, match.round.tournament
    url = reverse(
        "tournament-team-matches", kwargs={"slug": tournament.slug, "number": round_.number}
    )
    local = starts.astimezone(tournament.zone).isoformat()
    written = 0
    for entry, opponent in ((match.first, match.second), (match.second, match.first)):
        for user in roster.get(entry.team_id, []):
            if (user.pk, f"{key}{user.pk}") in told:
                continue
            notification = notification_create(
                user=user,
                kind=kind,
                key=f"{key}{user.pk}",
                data=_common(tournament, round_)
                | {"team": entry.name, "opponent": opponent.name, "starts": local},
                url=url,
                now=now,
            )
            written += notification.created == now
    return written


def fixture_moved(match: TeamMatch, now: datetime) -> None:
    """Every player on the two teams' rosters: their match moved to ``match.postponed_to``
    (the day and hour in the event's time zone). Keyed by the new time: moved twice, told
    twice."""
    moment = int(match.postponed_to.timestamp())
    key = f"fixture_moved:{match.pk}@{moment}:"
    _tell_players(match, _rosters([match]), "fixture_moved", key, match.postponed_to, now)


def _first_start(tournament: Tournament) -> datetime | None:
    return tournament.round_time(1)


def _name(entrant: Entrant | None) -> str:
    if entrant is None:
        return ""
    return entrant.user.username if entrant.user_id else str(entrant)
