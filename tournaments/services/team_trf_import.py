"""Importing a team event from a TRF-2026 file with team sections (``310``): another program's
or one Sumito exported (:mod:`tournaments.team_exports`).

The file is read by the pure :func:`~tournaments.pairing.team_trf_read.read_team_event`, so
a file Sumito cannot represent is refused (422 ``bad_trf``) before anything is written; then
one transaction writes the event over the board and unrated: its teams (the club's team of the
same name, else a new team of the club with the file's players on its roster in the file's
order), their entries by pairing number, the rounds played with each match's line-ups (as sent,
``300``), boards, results and boards left empty, and the players' entries with the file's
ratings. Players are matched to accounts and the club's guests as the individual import does,
else become guest players of the club. The event runs on with its next round to pair, or is
finished.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club
from core.errors import Unprocessable, engine_text
from teams.models import Team, TeamMember
from teams.services import team_create
from tournaments.models import (
    Board,
    Entrant,
    Round,
    TeamEntry,
    TeamLineup,
    TeamMatch,
    Tournament,
)
from tournaments.pairing.model import PairingError
from tournaments.pairing.team_trf_event import (
    DOUBLE_ROUND_ROBIN,
    KNOCKOUT,
    ROUND_ROBIN,
    TrfTeamEvent,
    TrfTeamMatch,
)
from tournaments.pairing.team_trf_read import read_team_event
from tournaments.permissions import require_club_admin
from tournaments.services.setup import tournament_create
from tournaments.services.trf_import import (
    FORFEITS,
    IMPORTED_NOTE,
    TrfImport,
    clock_fields,
    moment_of,
    people_for,
)

FORMATS = {
    ROUND_ROBIN: Tournament.Format.TEAM_ROUND_ROBIN,
    DOUBLE_ROUND_ROBIN: Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN,
}


def is_team_file(text: str) -> bool:
    """Whether TRF text has team sections (``310``, or TRF-16's ``013``)."""
    return any(line[:3] in ("310", "013") for line in text.splitlines())


def _read(text: str) -> TrfTeamEvent:
    try:
        event = read_team_event(text)
    except PairingError as error:
        raise Unprocessable(
            _("The TRF file cannot be read: %(error)s") % {"error": engine_text(error)},
            code="bad_trf",
        ) from None
    if event.system == KNOCKOUT:
        raise Unprocessable(
            _(
                "This file is a team cup's: its bracket's places and the lots drawn are not in "
                "a TRF file, so Sumito does not import it."
            ),
            code="bad_trf",
        )
    return event


def _points(value: float, what: str) -> int:
    if value != int(value) or value < 0:
        raise Unprocessable(
            _("The file gives %(value)s match points for %(what)s; Sumito counts whole points.")
            % {"value": value, "what": what},
            code="bad_trf",
        )
    return int(value)


def _create(club: Club, actor: User, event: TrfTeamEvent) -> Tournament:
    name = " ".join(event.name.split())[:100] or "Imported team event"
    if len(name) < 3:
        name = f"{name} (imported)"
    settings = {
        "format": FORMATS.get(event.system, Tournament.Format.TEAM_SWISS),
        "rounds": event.rounds,
        "play_mode": Tournament.PlayMode.OTB,
        "rated": False,
        "description": "Imported from a TRF file.",
        "starts_on": event.start_date,
        "ends_on": event.end_date
        if not (event.start_date and event.end_date and event.end_date < event.start_date)
        else None,
        "team_boards": event.boards,
        "team_match_win": _points(event.scoring.win, _("a match won")),
        "team_match_draw": _points(event.scoring.draw, _("a match drawn")),
        "team_match_loss": _points(event.scoring.loss, _("a match lost")),
        "team_primary": event.primary,
        "team_colour_model": event.colour_model,
    }
    clock = clock_fields(event.time_control)
    return tournament_create(club=club, actor=actor, name=name, **settings, **clock)


def _team(club: Club, actor: User, name: str, players: list[User]) -> tuple[Team, bool]:
    """The club's team called ``name``, else a new one with ``players`` on its roster in this
    order (those not on another team of the club); whether it is new."""
    team = Team.objects.filter(club=club, name__iexact=name).first()
    if team is not None:
        return team, False
    team = team_create(club=club, actor=actor, name=name)
    busy = set(
        TeamMember.objects.filter(club=club, user__in=players).values_list("user_id", flat=True)
    )
    free = [player for player in players if player.pk not in busy]
    TeamMember.objects.bulk_create(
        TeamMember(team=team, club=club, user=player, board=board)
        for board, player in enumerate(free, start=1)
    )
    team.order_set_by_hand = True
    team.save(update_fields=["order_set_by_hand"])
    return team, True


def team_event_import_trf(*, club: Club, actor: User, text: str, now: datetime) -> TrfImport:
    """A club admin imports a team event from TRF text (all or nothing)."""
    require_club_admin(club, actor, _("import its tournaments"))
    event = _read(text)
    with transaction.atomic():
        tournament = _create(club, actor, event)
        users, matched, guests = people_for(club, event.players)
        notes: list[str] = []
        entries: dict[int, TeamEntry] = {}
        kept: list[str] = []
        for trf_team in event.teams:
            team, new = _team(club, actor, trf_team.name, [users[n] for n in trf_team.players])
            if not new:
                kept.append(team.name)
            first = [p for p in event.players if p.number in trf_team.players[: event.boards]]
            entries[trf_team.number] = TeamEntry.objects.create(
                tournament=tournament,
                team=team,
                name=trf_team.name[:60],
                number=trf_team.number,
                rating=round(sum(p.rating for p in first) / len(first)) if first else 0,
                entered_by=actor,
            )
        if kept:
            notes.append(
                _("The club's teams of these names were entered (their rosters kept): %(teams)s.")
                % {"teams": ", ".join(kept)}
            )
        _rounds(tournament, event, entries, users, actor, now)
        finished = event.rounds_played >= event.rounds
        tournament.status = Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING
        tournament.current_round = event.rounds_played
        tournament.started_at = moment_of(event.start_date, now)
        tournament.finished_at = moment_of(event.end_date, now) if finished else None
        tournament.save(update_fields=["status", "current_round", "started_at", "finished_at"])
    return TrfImport(tournament=tournament, matched=matched, guests=guests, notes=notes)


def _rounds(
    tournament: Tournament,
    event: TrfTeamEvent,
    entries: dict[int, TeamEntry],
    users: dict[int, User],
    actor: User,
    now: datetime,
) -> None:
    """The rounds played: their matches, line-ups, boards and the players' entries."""
    club_of = {entry.pk: entry.team.club.name[:80] for entry in entries.values()}
    rating = {player.number: player for player in event.players}
    entrants: dict[int, Entrant] = {}

    def entrant(number: int, entry: TeamEntry) -> Entrant:
        if number not in entrants:
            player = rating[number]
            entrants[number] = Entrant.objects.create(
                tournament=tournament,
                user=users[number],
                rating=player.rating,
                pairing_number=len(entrants) + 1,
                title=player.identity.title[:3],
                federation=player.identity.federation[:3],
                sex=player.identity.sex if player.identity.sex in ("m", "w") else "",
                represents=club_of[entry.pk],
            )
        return entrants[number]

    boards = tournament.team_boards
    when = moment_of(event.start_date, now)
    for number in range(1, event.rounds_played + 1):
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            status=Round.Status.FINISHED,
            paired_at=when,
            started_at=when,
            finished_at=when,
        )
        played = [match for match in event.matches if match.round == number]
        for index, match in enumerate(played, start=1):
            _match(round_, index, match, entries, users, entrant, boards, actor, now)


def _match(
    round_: Round,
    index: int,
    match: TrfTeamMatch,
    entries: dict[int, TeamEntry],
    users: dict[int, User],
    entrant,
    boards: int,
    actor: User,
    now: datetime,
) -> None:
    first = entries[match.first]
    if match.second is None:
        TeamMatch.objects.create(round=round_, number=index, first=first, begun_at=now)
        return
    second = entries[match.second]
    forfeits = [
        result if ours is None or theirs is None else ""
        for ours, theirs, result in zip(
            match.first_lineup, match.second_lineup, match.results, strict=True
        )
    ]
    row = TeamMatch.objects.create(
        round=round_, number=index, first=first, second=second, forfeits=forfeits, begun_at=now
    )
    for entry, lineup in ((first, match.first_lineup), (second, match.second_lineup)):
        TeamLineup.objects.create(
            match=row,
            entry=entry,
            players=[users[n].pk if n is not None else None for n in lineup],
            by_default=False,
            submitted_by=actor,
            submitted_at=now,
        )
    made = []
    for slot, (ours, theirs, result) in enumerate(
        zip(match.first_lineup, match.second_lineup, match.results, strict=True), start=1
    ):
        if ours is None or theirs is None:
            continue
        black, white = (ours, theirs) if slot % 2 else (theirs, ours)
        black_entry, white_entry = (first, second) if slot % 2 else (second, first)
        forfeit = result in FORFEITS or result == Board.Result.DOUBLE_FORFEIT
        made.append(
            Board(
                round=round_,
                number=(index - 1) * boards + slot,
                black=entrant(black, black_entry),
                white=entrant(white, white_entry),
                team_match=row,
                slot=slot,
                result=result,
                termination="forfeit" if forfeit else "entered" if result else "",
                **Board.note_fields(IMPORTED_NOTE),
            )
        )
    Board.objects.bulk_create(made)
