"""Importing an event from a FIDE TRF file (Swiss-Manager, Vega, bbpPairings, another Sumito):
the tournament, its players and its played rounds with their results, so that Sumito pairs the
rounds still to come.

The file is read by the pure :func:`tournaments.pairing.read_trf`;
:func:`tournaments.services.trf_plan.plan_rounds` turns its histories into boards without
touching the database, so a file Sumito cannot represent is
refused before anything is written. :func:`tournament_import_trf` then writes everything in one
transaction: a refusal (:class:`Unprocessable`, HTTP 422) leaves nothing behind.

Players are matched to accounts by name (``entries.account_for``, as entry lists match them):
the TRF name ("Lastname, Firstname" or free text, or "Firstname Lastname" made from it) equal,
ignoring case, to one active account's username, else display name; else to one of the club's
unclaimed guest players (``entries.guest_for``). Everybody else becomes a guest player of the club (``entries.guest_create``: an inactive
account nobody can log in as, its display name the TRF name), which an account may claim later.
The players' title, federation, birth year and sex come from their ``001`` columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club
from core.errors import InvalidInput, Unprocessable, engine_text
from core.messages import Text, gettext_noop
from tournaments import history
from tournaments.identity import country_of_federation
from tournaments.models import Board, ByeRequest, Entrant, ForbiddenPair, Round, Tournament
from tournaments.pairing import PairingError
from tournaments.pairing.acceleration import player_accelerations
from tournaments.pairing.dutch import DUTCH_2026
from tournaments.pairing.trf import TrfIdentity, TrfTournament
from tournaments.permissions import require_club_admin
from tournaments.services.entries import account_for, guest_create, guest_for
from tournaments.services.setup import MAX_RATING, tournament_create
from tournaments.services.trf_plan import (
    PlannedBoard,
    RoundsPlan,
    plan_rounds,
    read_event,
)
from tournaments.standings import rules_for
from tournaments.tiebreaks import TIEBREAKS
from tournaments.trf_sumito import SumitoRecords, from_fide_codes, read_records

FORFEITS = {Board.Result.BLACK_FORFEIT_WIN, Board.Result.WHITE_FORFEIT_WIN}
BYE_REQUEST_KINDS = ("F", "H", "Z")
IMPORTED_NOTE = Text(gettext_noop("imported from a TRF file"))


@dataclass(frozen=True)
class TrfImport:
    tournament: Tournament
    matched: list[str]
    guests: list[str]
    notes: list[str]

    @property
    def message(self) -> str:
        tournament = self.tournament
        players = len(self.matched) + len(self.guests)
        said = (
            f"{tournament.name} imported: {players} players ({len(self.matched)} matched to "
            f"accounts, {len(self.guests)} guests), {tournament.current_round} of "
            f"{tournament.rounds} rounds played."
        )
        if tournament.status == Tournament.Status.RUNNING:
            said += f" Round {tournament.current_round + 1} is ready to be paired."
        return said


def moment_of(day: date | None, now: datetime) -> datetime:
    if day is None:
        return now
    return timezone.make_aware(datetime.combine(day, time(12)))


def clock_fields(code: str) -> dict:
    base, plus, increment = code.partition("+")
    if not base.isdigit() or (plus and not increment.isdigit()):
        return {}
    return {"base_seconds": int(base), "increment_seconds": int(increment or 0)}


def _description(event: TrfTournament) -> str:
    """The file's facts Sumito has no field for, kept where people read them."""
    header = event.header
    facts = [
        ("City", header.city),
        ("Federation", header.federation),
        ("Type", header.tournament_type),
        ("Chief arbiter", header.chief_arbiter),
        ("Deputy arbiters", ", ".join(header.deputy_arbiters)),
        ("Time control", header.time_control),
    ]
    lines = ["Imported from a TRF file."] + [f"{what}: {value}" for what, value in facts if value]
    return "\n".join(lines)[:4000]


def read_sumito(event: TrfTournament) -> SumitoRecords:
    """Sumito's own records of the file (an event exported by Sumito), checked."""
    try:
        records = read_records(event.extensions)
    except PairingError as error:
        raise Unprocessable(
            _("The TRF file cannot be read: %(error)s") % {"error": engine_text(error)},
            code="bad_trf",
        ) from None
    return records


#: The settings an ``SMS`` record may carry, and the values each takes.
IMPORTED_SETTINGS = {
    "entry": set(Tournament.Entry.values),
    "pairing_rules": set(Tournament.PairingRules.values),
    "tiebreak_rules": set(Tournament.TiebreakRules.values),
    "marbles_to_win": {str(n) for n in range(1, 15)},
    "unrated_rating": {str(n) for n in range(0, MAX_RATING + 1)},
}
#: The settings whose values are numbers.
NUMBER_SETTINGS = ("marbles_to_win", "unrated_rating")


def _kept_settings(event: TrfTournament, records: SumitoRecords) -> tuple[dict, list[str]]:
    """The settings the file gives beyond FIDE's fields (the tie-break order from ``SMT``, else
    from ``202``; ``SMS``'s entry rule, pairing rules, marbles to win), and notes on what
    Sumito could not keep."""
    settings: dict = {}
    notes = []
    for name, value in records.settings.items():
        if value in IMPORTED_SETTINGS.get(name, ()):
            settings[name] = int(value) if name in NUMBER_SETTINGS else value
        else:
            notes.append(
                _("The file's setting %(name)s=%(value)s is not one Sumito keeps.")
                % {"name": name, "value": value}
            )
    if records.tiebreaks:
        known = [code for code in records.tiebreaks if code in TIEBREAKS]
        unknown = [code for code in records.tiebreaks if code not in TIEBREAKS]
    else:
        known, unknown = map(list, from_fide_codes(event.header.tiebreaks))
    if known:
        settings["tiebreaks"] = list(dict.fromkeys(known))
    settings.setdefault("tiebreak_rules", rules_for(event))  # the text in force at its start
    accelerated = any(p.accelerations for p in event.players)
    if accelerated and settings.get("pairing_rules", DUTCH_2026) == DUTCH_2026:
        settings["acceleration"] = Tournament.Acceleration.BAKU
    if unknown:
        notes.append(
            _("Tie-breaks of the file that Sumito does not compute were left out: %(codes)s.")
            % {"codes": ", ".join(unknown)}
        )
    return settings, notes


def _board_order(plan: RoundsPlan, records: SumitoRecords) -> None:
    """Each round's boards in the order the file's ``SMB`` record gives (by first player);
    boards it does not name keep their places after the named ones."""
    for number, boards in plan.boards.items():
        order = records.board_order.get(number)
        if order:
            place = {first: index for index, first in enumerate(order)}
            boards.sort(key=lambda board: place.get(board.black, len(place)))


def _game_end(
    records: SumitoRecords, number: int, board: PlannedBoard, marbles_to_win: int
) -> dict:
    """The board's ending, with the marbles and the ending the file's ``SMM`` record gives a
    game (checked): a forfeit's is ``forfeit``, another game's ``entered``."""
    if board.white is None:
        return {"termination": ""}
    forfeit = board.result in FORFEITS or board.result == Board.Result.DOUBLE_FORFEIT
    termination = "forfeit" if forfeit else "entered"
    end = records.games.get((number, board.black))
    if end is None:
        return {"termination": termination}
    for marbles in (end.first_marbles, end.second_marbles):
        if marbles is not None and marbles > marbles_to_win:
            raise Unprocessable(
                _(
                    "Round %(round)s, board of player %(number)s: %(marbles)s marbles pushed off, more than the %(marbles_to_win)s that win."
                )
                % {
                    "round": number,
                    "number": board.black,
                    "marbles": marbles,
                    "marbles_to_win": marbles_to_win,
                },
                code="bad_trf",
            )
    if end.termination and not end.termination.replace("_", "").isalpha():
        raise Unprocessable(
            _("Round %(round)s, board of player %(number)s: the ending %(how)r is not a word.")
            % {"round": number, "number": board.black, "how": end.termination},
            code="bad_trf",
        )
    return {
        "black_marbles": end.first_marbles,
        "white_marbles": end.second_marbles,
        "termination": end.termination[:16] or termination,
    }


def _create(club: Club, actor: User, event: TrfTournament, total: int, kept: dict) -> Tournament:
    name = " ".join(event.name.split())[:100] or "Imported tournament"
    if len(name) < 3:
        name = f"{name} (imported)"
    settings = {
        "format": Tournament.Format.SWISS,
        "rounds": total,
        "play_mode": Tournament.PlayMode.OTB,
        "rated": False,
        "bye_points": event.scoring.pab,
        "description": _description(event),
        "starts_on": event.header.start_date,
        "ends_on": event.header.end_date,
        "city": event.header.city[:80],
        "country": country_of_federation(event.header.federation),
        **kept,
    }
    if (
        settings["starts_on"]
        and settings["ends_on"]
        and settings["ends_on"] < settings["starts_on"]
    ):
        settings["ends_on"] = None
    clock = clock_fields(event.header.encoded_time_control)
    try:
        return tournament_create(club=club, actor=actor, name=name, **settings, **clock)
    except InvalidInput:
        if not clock:
            raise
        # a time control Sumito's clocks do not take: the default one
        return tournament_create(club=club, actor=actor, name=name, **settings)


def people_for(club: Club, players) -> tuple[dict[int, User], list[str], list[str]]:
    """The account each of a file's ``players`` (with ``name`` and ``number``) is: matched by
    name to an account, else to one of the club's guests, else a new guest player of the club;
    (users by number, the matched as "name → username", the new guests alike)."""
    users: dict[int, User] = {}
    matched, guests = [], []
    taken: set[int] = set()
    for player in players:
        user = account_for(player.name, taken=taken) or guest_for(club, player.name, taken=taken)
        if user is not None:
            matched.append(f"{player.name} → {user.username}")
        else:
            user = guest_create(club, player.name or f"Player {player.number}")
            guests.append(f"{player.name} → {user.username}")
        taken.add(user.pk)
        users[player.number] = user
    return users, matched, guests


def tournament_import_trf(*, club: Club, actor: User, text: str, now: datetime) -> TrfImport:
    """A club admin imports an event from TRF text: a Swiss of the club, over the board and
    unrated, with its entrants (the TRF pairing numbers and ratings), its played rounds
    (finished, every board with its result or bye), the byes asked for and the forbidden
    pairs still to come; running with the next round to pair, or finished. All or nothing."""
    require_club_admin(club, actor, _("import its tournaments"))
    event = read_event(text)
    records = read_sumito(event)
    plan = plan_rounds(event)
    _board_order(plan, records)
    kept, kept_notes = _kept_settings(event, records)
    total = event.total_rounds or event.rounds_played
    notes = list(plan.notes) + kept_notes
    with transaction.atomic():
        tournament = _create(club, actor, event, total, kept)
        users, matched, guests = people_for(club, event.players)
        entrants: dict[int, Entrant] = {}
        for player in event.players:
            user = users[player.number]
            identity = event.identities.get(player.number, TrfIdentity())
            entrants[player.number] = Entrant.objects.create(
                tournament=tournament,
                user=user,
                rating=player.rating,
                pairing_number=player.number,
                first_round=plan.first_round[player.number],
                title=identity.title,
                federation=identity.federation,
                birth_year=identity.birth_year,
                sex=identity.sex if identity.sex in ("m", "w") else "",
            )
        _create_rounds(tournament, event, plan, entrants, now, records)
        notes += _create_future(tournament, event, entrants)
        notes += _acceleration_notes(tournament, event, list(entrants.values()))
        finished = event.rounds_played >= total
        tournament.status = Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING
        tournament.current_round = event.rounds_played
        tournament.started_at = moment_of(event.header.start_date, now)
        tournament.finished_at = moment_of(event.header.end_date, now) if finished else None
        tournament.save(update_fields=["status", "current_round", "started_at", "finished_at"])
    return TrfImport(tournament=tournament, matched=matched, guests=guests, notes=notes)


def _acceleration_notes(
    tournament: Tournament, event: TrfTournament, entrants: list[Entrant]
) -> list[str]:
    """What the import says of the file's virtual points: Sumito pairs by the Baku method's
    own (C.04.5.1), which may not be the file's."""
    given = {p.number: p.accelerations for p in event.players}
    if not any(given.values()):
        return []
    if tournament.acceleration != Tournament.Acceleration.BAKU:
        return [
            _(
                "The file's accelerated rounds (virtual points) are left out: acceleration "
                "needs the Dutch rules in force from 2026."
            )
        ]
    blocks = history.acceleration_blocks(tournament, entrants)
    if any(player_accelerations(blocks, n) != points for n, points in given.items()):
        return [
            _(
                "The file's virtual points are not the Baku method's; Sumito pairs the rounds "
                "to come by the method (C.04.5.1)."
            )
        ]
    return []


def _create_rounds(
    tournament: Tournament,
    event: TrfTournament,
    plan: RoundsPlan,
    entrants: dict[int, Entrant],
    now: datetime,
    records: SumitoRecords,
) -> None:
    dates = event.header.round_dates
    for number, planned in plan.boards.items():
        when = moment_of(dates[number - 1] if number <= len(dates) else None, now)
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            status=Round.Status.FINISHED,
            paired_at=when,
            started_at=when,
            finished_at=when,
        )
        Board.objects.bulk_create(
            Board(
                round=round_,
                number=board_number,
                black=entrants[board.black],
                white=entrants[board.white] if board.white is not None else None,
                result=board.result,
                bye=board.bye,
                **Board.note_fields(IMPORTED_NOTE),
                **_game_end(records, number, board, tournament.marbles_to_win),
            )
            for board_number, board in enumerate(planned, start=1)
        )


def _create_future(
    tournament: Tournament, event: TrfTournament, entrants: dict[int, Entrant]
) -> list[str]:
    """The byes asked for and the forbidden pairs of the rounds to come; notes on what could
    not be kept as it was."""
    notes = []
    total = tournament.rounds
    next_round = event.next_round
    requests: dict[tuple[int, int], str] = {}
    if next_round <= total:
        for player in event.players:
            entry = player.entry(next_round)
            if entry is not None and entry.result in BYE_REQUEST_KINDS:
                requests[(player.number, next_round)] = entry.result
            elif not player.available:
                requests[(player.number, next_round)] = "Z"
                notes.append(
                    _(
                        "%(name)s is not to be paired in round %(round)s: a zero-point bye is "
                        "entered for them (withdraw them if they have left)."
                    )
                    % {"name": player.name, "round": next_round}
                )
    for bye in event.requested_byes:
        if bye.round <= total:
            requests[(bye.number, bye.round)] = bye.kind
    ByeRequest.objects.bulk_create(
        ByeRequest(entrant=entrants[number], round_number=round_number, kind=kind)
        for (number, round_number), kind in sorted(requests.items())
    )
    ForbiddenPair.objects.bulk_create(
        ForbiddenPair(
            tournament=tournament,
            first=entrants[a],
            second=entrants[b],
            reason="from the imported TRF file",
        )
        for a, b in event.forbidden_pairs
    )
    partial = [
        _("%(players)s (rounds %(first)s-%(last)s)")
        % {
            "players": ", ".join(map(str, group.players)),
            "first": group.first_round,
            "last": group.last_round,
        }
        for group in event.forbidden_groups
        if group.last_round >= next_round
        and not (group.first_round <= next_round and group.last_round >= total)
    ]
    if partial:
        notes.append(
            _(
                "Forbidden pairings of only some rounds (260): Sumito's hold for the rest of the "
                "event, so those in force in round %(round)s were kept for every round and the "
                "others left out: %(groups)s."
            )
            % {"round": next_round, "groups": "; ".join(partial)}
        )
    return notes
