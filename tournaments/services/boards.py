"""Hand edits to a paired round: a director's board edit (swap semantics: nobody is left off
a board) and a director's granted bye (full, half or zero point), each audited."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, NotFound, Unprocessable
from core.messages import Text, gettext_noop
from tournaments.models import AuditEntry, Board, ByeRequest, Entrant, Round, Tournament
from tournaments.permissions import require_director
from tournaments.selectors import pairing_warnings
from tournaments.services.common import audit, locked


@dataclass(frozen=True)
class BoardEdit:
    """What a board edit did beyond the board (``moves``: swaps, a bye it gave, a board it
    emptied) and which pairing rules the round now breaks (``warnings``)."""

    moves: list[str]
    warnings: list[str]


def board_pairing_edit(
    *,
    board: Board,
    actor: User,
    black: Entrant,
    white: Entrant | None,
    now: datetime | None = None,
) -> BoardEdit:
    """Put ``black`` and ``white`` (None: a pairing-allocated bye) on a board of a paired round
    before it starts; says what else it moved and what it breaks (:class:`BoardEdit`).

    Nobody is lost: a player brought from another board swaps places with the player they
    replace (a board left with one player gives that player the bye; one left empty goes), and
    an edit that would leave a player on no board, or pair one who withdrew or enters later,
    is refused naming them. Pairing rules the edit breaks (a rematch, colour three times
    running, a second pairing-allocated bye, a forbidden pair) are reported, not enforced: the
    edit is the director's decision.
    """
    with transaction.atomic():
        tournament = locked(board.round.tournament)
        require_director(tournament, actor, _("edit pairings"))
        round_ = Round.objects.select_for_update().get(pk=board.round_id)
        if round_.status != Round.Status.PAIRED:
            raise Conflict(
                _("Pairings can be edited only before the round starts."), code="round_started"
            )
        if white is not None and black.pk == white.pk:
            raise Unprocessable(_("A player cannot play themself."), code="same_player")
        fresh = Entrant.objects.select_related("user").in_bulk([black.pk, _pk(white)])
        black, white = fresh[black.pk], fresh.get(_pk(white))  # as of now, under the lock
        for entrant in filter(None, (black, white)):
            if entrant.tournament_id != tournament.pk:
                raise NotFound(
                    _("%(username)s is not in this tournament.")
                    % {"username": entrant.user.username},
                    code="not_registered",
                )
            _require_in_round(entrant, round_.number)
        boards = list(
            Board.objects.select_for_update(of=("self",))
            .filter(round=round_)
            .select_related("black__user", "white__user")
            .order_by("number")
        )
        edited = next(b for b in boards if b.pk == board.pk)
        seating = _seat(boards, edited, black, white, round_.number)
        for changed in boards:
            if changed in seating.removed:
                changed.delete()
            elif changed in seating.changed:
                changed.save(update_fields=["black", "white", "bye", "note", "note_data"])
        white_name = white.user.username if white is not None else "a bye"
        audit(
            tournament,
            actor,
            AuditEntry.What.BOARD_EDITED,
            " ".join(
                [
                    f"{AuditEntry.board_edit_prefix(round_.number)}{edited.number}: "
                    f"{black.user.username} – "
                    f"{white_name}.",
                    *seating.notes,
                ]
            ),
            now,
        )
        return BoardEdit(seating.notes, pairing_warnings(tournament, round_))


def _require_in_round(entrant: Entrant, number: int) -> None:
    name = entrant.user.username
    gone = entrant.status == Entrant.Status.WITHDRAWN and (
        entrant.withdrawn_from_round is None or entrant.withdrawn_from_round <= number
    )
    if gone:
        raise Unprocessable(
            _("%(name)s withdrew before round %(number)s: they cannot be paired in it.")
            % {"name": name, "number": number},
            code="not_playing",
        )
    if entrant.first_round > number:
        raise Unprocessable(
            _(
                "%(name)s enters in round %(first_round)s: they cannot be paired in round %(number)s."
            )
            % {"name": name, "first_round": entrant.first_round, "number": number},
            code="not_playing",
        )


@dataclass
class _Seating:
    changed: set = field(default_factory=set)
    removed: set = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


def _seat(
    boards: list[Board], edited: Board, black: Entrant, white: Entrant | None, number: int
) -> _Seating:
    """Seat ``black`` and ``white`` on ``edited``, swapping with the boards they come from, so
    that every player of the round stays on exactly one board; refuses an edit that leaves one
    out. Changes the board objects only (the caller saves them)."""
    seating = _Seating(changed={edited})
    staying = {black.pk, _pk(white)}
    leaving = [e for e in (edited.black, edited.white) if e is not None and e.pk not in staying]
    before = {edited.black_id, edited.white_id}
    arriving = [e for e in (black, white) if e is not None and e.pk not in before]
    edited.black, edited.white = black, white
    edited.bye = "" if white is not None else Board.Bye.PAIRING
    edited.set_note(Text(gettext_noop("edited by a director")))
    for player in arriving:
        home = next(
            (b for b in boards if b is not edited and player.pk in (b.black_id, b.white_id)), None
        )
        if home is None:
            continue  # on no board before: nobody to swap with
        seating.changed.add(home)
        taking = leaving.pop(0) if leaving else None
        name = player.user.username
        if taking is not None:
            if home.black_id == player.pk:
                home.black = taking
            else:
                home.white = taking
            if home.white_id is None:  # a bye is the player's own: the newcomer's is allocated
                home.bye = Board.Bye.PAIRING
            home.set_note(
                Text(
                    gettext_noop("edited by a director (swapped with board %(board)s)"),
                    board=edited.number,
                )
            )
            seating.notes.append(
                _("%(moving)s moves to board %(board)s in %(name)s's place.")
                % {"moving": taking.user.username, "board": home.number, "name": name}
            )
            continue
        remaining = home.white if home.black_id == player.pk else home.black
        if remaining is None:
            seating.removed.add(home)
            seating.notes.append(
                _("Board %(number)s is empty now and was removed.") % {"number": home.number}
            )
            continue
        home.black, home.white = remaining, None
        home.bye = Board.Bye.PAIRING
        home.set_note(Text(gettext_noop("edited by a director: left without an opponent")))
        seating.notes.append(
            _(
                "%(name)s is left without an opponent: board %(board)s is now their "
                "pairing-allocated bye."
            )
            % {"name": remaining.user.username, "board": home.number}
        )
    if leaving:
        names = " and ".join(e.user.username for e in leaving)
        raise Unprocessable(
            _(
                "%(names)s would be on no board of round %(number)s. Put them on another board, swap them with a player of another board, or withdraw them first."
            )
            % {"names": names, "number": number},
            code="player_left_out",
        )
    seated = [
        e.pk
        for b in boards
        if b not in seating.removed
        for e in (b.black, b.white)
        if e is not None
    ]
    if len(seated) != len(set(seated)):  # the swaps cannot do this; a guard for later edits
        raise Unprocessable(_("A player would be on two boards."), code="player_on_two_boards")
    return seating


def _pk(entrant: Entrant | None) -> int | None:
    return entrant.pk if entrant is not None else None


# --- a bye the director grants -------------------------------------------------------------------

BYE_KINDS = {"F": "a full-point", "H": "a half-point", "Z": "a zero-point"}


def bye_grant(
    *,
    tournament: Tournament,
    actor: User,
    user: User,
    round_number: int,
    kind: str,
    now: datetime | None = None,
) -> str:
    """A director gives ``user`` a full (F), half (H) or zero-point (Z) bye in a round of a
    Swiss: for a round not yet paired, the pairing leaves them out; for a paired round not
    started, they leave their board (their opponent takes the pairing-allocated bye's place, or
    gets it). It counts as that kind of bye in the standings, tie-breaks and TRF. Says what it
    did."""
    if kind not in BYE_KINDS:
        raise Unprocessable(
            _("A granted bye is full (F), half (H) or zero-point (Z)."), code="kind"
        )
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("grant byes"))
        if tournament.is_round_robin:
            raise Conflict(_("A round-robin has no byes to grant."), code="round_robin")
        if tournament.is_knockout:
            raise Conflict(_("A knockout cup has no byes to grant."), code="cup")
        if not 1 <= round_number <= tournament.rounds:
            raise NotFound(
                _("%(name)s has no round %(round_number)s.")
                % {"name": tournament.name, "round_number": round_number}
            )
        entrant = (
            Entrant.objects.select_related("user").filter(tournament=tournament, user=user).first()
        )
        if entrant is None:
            raise NotFound(
                _("%(username)s is not in %(name)s.")
                % {"username": user.username, "name": tournament.name},
                code="not_registered",
            )
        _require_in_round(entrant, round_number)
        name, what = user.username, BYE_KINDS[kind]
        round_ = Round.objects.select_for_update().filter(
            tournament=tournament, number=round_number
        )
        round_ = round_.first()
        if round_ is None:
            ByeRequest.objects.update_or_create(
                entrant=entrant, round_number=round_number, defaults={"kind": kind}
            )
            said = f"{name} gets {what} bye in round {round_number}."
            audit(tournament, actor, AuditEntry.What.BYE_GRANTED, said, now)
            return said
        if round_.status != Round.Status.PAIRED:
            raise Conflict(
                _("Round %(round_number)s has started: record a forfeit or a result instead.")
                % {"round_number": round_number},
                code="round_started",
            )
        ByeRequest.objects.update_or_create(
            entrant=entrant, round_number=round_number, defaults={"kind": kind}
        )
        said = _bye_on_paired_round(round_, entrant, kind, f"{name} gets {what} bye")
        audit(tournament, actor, AuditEntry.What.BYE_GRANTED, said, now)
        return said


def _bye_on_paired_round(round_: Round, entrant: Entrant, kind: str, said: str) -> str:
    boards = list(
        Board.objects.select_for_update(of=("self",))
        .filter(round=round_)
        .select_related("black__user", "white__user")
        .order_by("number")
    )
    own = next(b for b in boards if entrant.pk in (b.black_id, b.white_id))
    note = Text(gettext_noop("a bye granted by a director"))
    if own.white_id is None:  # already a bye (allocated or asked for): now the granted one
        own.bye = kind
        own.set_note(note)
        own.save(update_fields=["bye", "note", "note_data"])
        return f"{said} in round {round_.number}."
    opponent = own.white if own.black_id == entrant.pk else own.black
    Board.objects.create(
        round=round_,
        number=max(b.number for b in boards) + 1,
        black=entrant,
        bye=kind,
        **Board.note_fields(note),
    )
    allocated = next((b for b in boards if b.bye == Board.Bye.PAIRING), None)
    if allocated is not None:  # the two left alone play each other
        own.black, own.white, own.bye = allocated.black, opponent, ""
        own.set_note(Text(gettext_noop("paired by a director after a granted bye")))
        allocated.delete()
        own.save(update_fields=["black", "white", "bye", "note", "note_data"])
        return (
            f"{said} in round {round_.number}; {opponent.user.username} now plays "
            f"{own.black.user.username} (who had the pairing-allocated bye) on board {own.number}."
        )
    own.black, own.white, own.bye = opponent, None, Board.Bye.PAIRING
    own.set_note(Text(gettext_noop("left without an opponent by a granted bye")))
    own.save(update_fields=["black", "white", "bye", "note", "note_data"])
    return (
        f"{said} in round {round_.number}; {opponent.user.username} gets the pairing-allocated "
        f"bye on board {own.number}."
    )
