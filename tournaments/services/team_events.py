"""A team event's writes: teams entered and withdrawn, the start (pairing numbers by the teams'
ratings), each round's matches, the captains' line-ups and, when the round begins, the boards
made from them (:mod:`tournaments.team_draw` reads, the pure engines decide).

Every service locks the tournament row first (``common.locked``), as all tournament services
do, so a line-up racing the round's start, or two teams entering at once, are serialised.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed, engine_text
from ratings.selectors import rating_for_tournament
from teams.models import Team, TeamMember
from tournaments import notify, team_draw
from tournaments.identity import profile_identity
from tournaments.models import (
    AuditEntry,
    Board,
    Entrant,
    ResultReport,
    Round,
    TeamEntry,
    TeamLineup,
    TeamMatch,
    TeamMatchReport,
    Tournament,
)
from tournaments.pairing import knockout
from tournaments.pairing.berger import berger_rounds
from tournaments.pairing.model import PairingError
from tournaments.pairing.teams import lineup_problems, lineup_results
from tournaments.permissions import acts_for
from tournaments.services.common import audit, locked


def roster_of(team: Team) -> list[tuple[int, str]]:
    """The team's players in board order (regulars, then reserves): (user id, username)."""
    return list(
        TeamMember.objects.filter(team=team)
        .order_by("reserve", "board")
        .values_list("user_id", "user__username")
    )


def _team_rating(tournament: Tournament, team: Team) -> int:
    """The average rating, for the event's clock, of the players on the team's first boards."""
    first = list(
        TeamMember.objects.filter(team=team, reserve=False)
        .order_by("board")
        .select_related("user")[: tournament.team_boards]
    )
    if not first:
        return 0
    return round(sum(rating_for_tournament(m.user, tournament) for m in first) / len(first))


def _require_team_event(tournament: Tournament) -> None:
    if not tournament.is_team_event:
        raise Conflict(
            _("%(name)s is not a team event.") % {"name": tournament.name}, code="not_team_event"
        )


def _require_may_act_for(tournament: Tournament, team: Team, actor: User) -> None:
    if not acts_for(tournament, team, actor):
        raise NotAllowed(
            _(
                "Only the captain of %(team)s, an admin of its club or a director of %(name)s "
                "may do this."
            )
            % {"team": team.name, "name": tournament.name}
        )


def team_enter(*, tournament: Tournament, team: Team, actor: User, now: datetime) -> TeamEntry:
    """Enter ``team`` in the team event while its registration is open."""
    with transaction.atomic():
        tournament = locked(tournament)
        _require_team_event(tournament)
        _require_may_act_for(tournament, team, actor)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(_("The tournament has already started."), code="tournament_started")
        if tournament.entry == Tournament.Entry.MEMBERS and team.club_id != tournament.club_id:
            raise NotAllowed(
                _("%(name)s is for the teams of %(club)s only.")
                % {"name": tournament.name, "club": tournament.club.name}
            )
        if TeamEntry.objects.filter(tournament=tournament, team=team).exists():
            raise Conflict(
                _("%(team)s is already entered.") % {"team": team.name}, code="already_entered"
            )
        if (
            tournament.max_players is not None
            and TeamEntry.objects.filter(tournament=tournament).count() >= tournament.max_players
        ):
            raise Conflict(
                _("%(name)s is full (%(max)s teams).")
                % {"name": tournament.name, "max": tournament.max_players},
                code="tournament_full",
            )
        return TeamEntry.objects.create(
            tournament=tournament,
            team=team,
            name=team.name,
            rating=_team_rating(tournament, team),
            entered_by=actor,
        )


def team_entry_remove(*, tournament: Tournament, team: Team, actor: User) -> None:
    """Take a team's entry back before the event starts."""
    with transaction.atomic():
        tournament = locked(tournament)
        _require_team_event(tournament)
        _require_may_act_for(tournament, team, actor)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(
                _("The event has started: withdraw the team instead."), code="tournament_started"
            )
        TeamEntry.objects.filter(tournament=tournament, team=team).delete()


def team_withdraw(*, tournament: Tournament, team: Team, actor: User, now: datetime) -> TeamEntry:
    """Withdraw a team from a running event: a team Swiss pairs it no more; a round-robin's
    matches against it (from the next round not begun) are forfeited as a whole."""
    with transaction.atomic():
        tournament = locked(tournament)
        _require_team_event(tournament)
        _require_may_act_for(tournament, team, actor)
        entry = TeamEntry.objects.filter(tournament=tournament, team=team).first()
        if entry is None or tournament.status != Tournament.Status.RUNNING:
            raise Conflict(
                _("Only a team playing in a running event can withdraw."), code="not_playing"
            )
        if entry.status == TeamEntry.Status.WITHDRAWN:
            return entry
        current = Round.objects.filter(tournament=tournament, number=tournament.current_round)
        begun = current.exclude(status=Round.Status.PAIRED).exists() or not current.exists()
        entry.status = TeamEntry.Status.WITHDRAWN
        entry.withdrawn_from_round = tournament.current_round + (1 if begun else 0)
        entry.save(update_fields=["status", "withdrawn_from_round"])
        audit(
            tournament,
            actor,
            AuditEntry.What.WITHDRAWN,
            _("%(team)s withdrawn from round %(number)s.")
            % {"team": entry.name, "number": entry.withdrawn_from_round},
            now,
        )
        return entry


# --- the start and the rounds (called by tournaments.services.rounds, under its lock) -----------


def start_locked(tournament: Tournament) -> None:
    """Pairing numbers by the teams' ratings (then names), the rounds of a round-robin."""
    teams = list(TeamEntry.objects.filter(tournament=tournament).select_related("team"))
    if len(teams) < 2:
        raise Conflict(_("A team event needs at least 2 teams to start."), code="too_few_teams")
    for entry in teams:
        entry.rating = _team_rating(tournament, entry.team)
    teams.sort(key=lambda entry: (-entry.rating, entry.name.casefold()))
    for number, entry in enumerate(teams, start=1):
        entry.number = number
    TeamEntry.objects.bulk_update(teams, ["number", "rating"])
    if tournament.is_team_round_robin:
        double = tournament.format == Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN
        tournament.rounds = berger_rounds(len(teams), double=double)
    elif tournament.is_team_cup:
        tournament.rounds = knockout.rounds_of(len(teams))


def round_matches_create(tournament: Tournament, round_: Round) -> None:
    """Round ``round_``'s matches, from the team engines; the caller holds the lock."""
    try:
        if tournament.is_team_cup:
            # the matches played first (their boards numbered from 1), the byes after
            pairs = sorted(team_draw.cup_pairs(tournament, round_.number), key=_is_bye)
        else:
            pairs = [(None, *pair) for pair in team_draw.round_pairs(tournament, round_.number)]
    except PairingError as error:
        raise Conflict(
            _("No legal pairing for round %(number)s: %(error)s")
            % {"number": round_.number, "error": engine_text(error)},
            code="no_pairing",
        ) from error
    TeamMatch.objects.bulk_create(
        TeamMatch(round=round_, number=number, first=first, second=second, slot=slot)
        for number, (slot, first, second) in enumerate(pairs, start=1)
    )
    notify.lineup_due(tournament, round_, round_.paired_at or timezone.now())


def _is_bye(pair: tuple) -> bool:
    return pair[2] is None


def entry_in(match: TeamMatch, team: Team, *, bye: bool = True) -> TeamEntry:
    """``team``'s entry in ``match``; 409 ``not_in_match`` when it does not play in it (nor, with
    ``bye`` False, in a bye: a match without an opponent)."""
    entry = next(
        (side for side in (match.first, match.second) if side and side.team_id == team.pk),
        None,
    )
    if entry is None or (not bye and match.second is None):
        raise Conflict(
            _("%(team)s does not play in this match.") % {"team": team.name},
            code="not_in_match",
        )
    return entry


def lineup_players(names: list[str]) -> list[User | None]:
    """The players a line-up names, board by board (an empty name leaves its board empty);
    a name no account has is refused with every such name given."""
    names = [name.strip() for name in names]
    users = {user.username: user for user in User.objects.filter(username__in=names)}
    unknown = [name for name in names if name and name not in users]
    if unknown:
        raise InvalidInput(
            _("Unknown players: %(names)s.") % {"names": ", ".join(unknown)},
            code="unknown_player",
        )
    return [users[name] if name else None for name in names]


def lineup_submit(
    *, match: TeamMatch, team: Team, players: list[User | None], actor: User, now: datetime
) -> TeamLineup:
    """The players ``team`` fields in ``match``, board 1 first (None: a board left empty),
    until the match begins (with its round, or at the time it was postponed to); kept within the roster's order (``teams.lineup_problems``)."""
    with transaction.atomic():
        tournament = locked(match.round.tournament)
        match = TeamMatch.objects.select_related("round", "first", "second").get(pk=match.pk)
        entry = entry_in(match, team)
        _require_may_act_for(tournament, team, actor)
        if match.begun_at is not None:
            raise Conflict(
                _("Round %(number)s's match %(match)s has begun: its line-ups are closed.")
                % {"number": match.round.number, "match": match.number},
                code="lineups_closed",
            )
        ids = [player.pk if player is not None else None for player in players]
        names = [player.username if player is not None else None for player in players]
        roster = [username for _pk, username in roster_of(team)]
        problems = lineup_problems(roster, names, tournament.team_boards)
        if problems:
            detail = "; ".join(engine_text(problem) for problem in problems)
            raise InvalidInput(detail, code="bad_lineup")
        lineup, _created = TeamLineup.objects.update_or_create(
            match=match,
            entry=entry,
            defaults={
                "players": ids,
                "by_default": False,
                "submitted_by": actor,
                "submitted_at": now,
            },
        )
        return lineup


def _lineup(tournament: Tournament, match: TeamMatch, entry: TeamEntry, now: datetime) -> list:
    """The line-up ``entry`` plays ``match`` with: the one submitted, else the roster's first
    players (recorded ``by_default``), none for a withdrawn team."""
    boards = tournament.team_boards
    submitted = TeamLineup.objects.filter(match=match, entry=entry).first()
    if submitted is not None:
        return list(submitted.players)
    if entry.status == TeamEntry.Status.WITHDRAWN:
        players: list = [None] * boards
    else:
        roster = [pk for pk, _username in roster_of(entry.team)][:boards]
        players = roster + [None] * (boards - len(roster))
    TeamLineup.objects.create(
        match=match, entry=entry, players=players, by_default=True, submitted_at=now
    )
    return players


def entrant_for(tournament: Tournament, user_id: int, entry: TeamEntry, cache: dict) -> Entrant:
    """The player's individual entry in the event (made the first time they play)."""
    if user_id in cache:
        return cache[user_id]
    entrant = Entrant.objects.filter(tournament=tournament, user_id=user_id).first()
    if entrant is None:
        user = User.objects.get(pk=user_id)
        highest = (
            Entrant.objects.filter(tournament=tournament)
            .order_by("-pairing_number")
            .values_list("pairing_number", flat=True)
            .first()
        )
        identity = profile_identity(user)
        identity["represents"] = entry.team.club.name[:80]
        entrant = Entrant.objects.create(
            tournament=tournament,
            user=user,
            rating=rating_for_tournament(user, tournament),
            pairing_number=(highest or 0) + 1,
            **identity,
        )
    cache[user_id] = entrant
    return entrant


def round_boards_create(tournament: Tournament, round_: Round, now: datetime) -> None:
    """When the round begins: each match's boards (:func:`match_boards_create`), but for a match
    postponed past ``now``, which begins at its own time. The caller holds the lock and creates
    the games."""
    made = []
    for match in round_.team_matches.select_related("first__team__club", "second__team__club"):
        if match.postponed_to is not None and match.postponed_to > now:
            continue
        made += match_boards_create(tournament, round_, match, now)
    Board.objects.bulk_create(made)
    notify.round_paired(tournament, round_, now)  # each player: board, colour, opponent


def match_reopen(match: TeamMatch) -> None:
    """Undo a match's beginning for its postponement (the caller holds the tournament's lock):
    its boards and the line-ups fielded by default go, the captains send line-ups again until
    it begins. Refused once anything was played or reported on it (409 ``match_begun``)."""
    boards = Board.objects.filter(team_match=match)
    if (
        boards.exclude(result="").exists()
        or boards.exclude(game=None).exists()
        or ResultReport.objects.filter(board__team_match=match).exists()
        or TeamMatchReport.objects.filter(match=match).exists()
    ):
        raise Conflict(
            _("%(home)s – %(away)s has begun: its games or results are coming in.")
            % {"home": match.first.name, "away": match.second.name},
            code="match_begun",
        )
    boards.delete()
    TeamLineup.objects.filter(match=match, by_default=True).delete()
    match.forfeits = []
    match.begun_at = None
    match.save(update_fields=["forfeits", "begun_at"])


def match_boards_create(
    tournament: Tournament, round_: Round, match: TeamMatch, now: datetime
) -> list[Board]:
    """The match's boards (unsaved) from the two line-ups, the first team Black on the odd
    boards; a board one team left empty is its forfeit (both: a double forfeit), kept in the
    match's ``forfeits``. Its line-ups close (``begun_at``)."""
    match.begun_at = now
    if match.second is None:
        match.save(update_fields=["begun_at"])
        return []
    boards = tournament.team_boards
    cache: dict = {}
    first = _lineup(tournament, match, match.first, now)
    second = _lineup(tournament, match, match.second, now)
    decided = lineup_results(first, second)
    match.forfeits = [result or "" for result in decided]
    match.save(update_fields=["forfeits", "begun_at"])
    made = []
    for slot, result in enumerate(decided, start=1):
        if result is not None:
            continue
        ours, theirs = first[slot - 1], second[slot - 1]
        black, white = (ours, theirs) if slot % 2 else (theirs, ours)
        black_entry, white_entry = (
            (match.first, match.second) if slot % 2 else (match.second, match.first)
        )
        made.append(
            Board(
                round=round_,
                number=(match.number - 1) * boards + slot,
                black=entrant_for(tournament, black, black_entry, cache),
                white=entrant_for(tournament, white, white_entry, cache),
                team_match=match,
                slot=slot,
            )
        )
    return made
