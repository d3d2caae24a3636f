"""Who plays: registration, withdrawals, late entries, requested byes, forbidden pairs.

Each service locks the tournament row first (``common.locked``), so two registrations for the
last place, or a withdrawal racing the pairing of a round, are serialised.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from clubs.models import Membership
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound, Unprocessable
from ratings.selectors import rating_for_tournament
from tournaments.identity import profile_identity
from tournaments.models import (
    AuditEntry,
    Board,
    ByeRequest,
    Entrant,
    ForbiddenPair,
    Round,
    Tournament,
)
from tournaments.permissions import require_director
from tournaments.services.common import audit, locked


def membership_problem(tournament: Tournament, user: User) -> str | None:
    """Why ``user`` may not enter a members-only event (None: they may)."""
    if (
        tournament.entry == Tournament.Entry.MEMBERS
        and not Membership.objects.filter(club=tournament.club, user=user).exists()
    ):
        return f"{user.username} is not a member of {tournament.club.name}"
    return None


def _entry_problems(tournament: Tournament, user: User) -> list[str]:
    """What of the event's entry rules ``user`` does not meet."""
    problems = []
    membership = membership_problem(tournament, user)
    if membership:
        problems.append(membership)
    if (
        tournament.max_players is not None
        and Entrant.objects.filter(tournament=tournament, status=Entrant.Status.ACTIVE).count()
        >= tournament.max_players
    ):
        problems.append(f"{tournament.name} is full ({tournament.max_players} players)")
    return problems


def _refuse_team_event(tournament: Tournament) -> None:
    """Players do not enter a team event one by one: their teams do."""
    if tournament.is_team_event:
        raise Conflict(
            gettext("%(name)s is a team event: a team's captain enters the team.")
            % {"name": tournament.name},
            code="team_event",
        )


def _check_can_enter(tournament: Tournament, user: User) -> None:
    _refuse_team_event(tournament)
    if (
        tournament.entry == Tournament.Entry.MEMBERS
        and not Membership.objects.filter(club=tournament.club, user=user).exists()
    ):
        raise NotAllowed(
            gettext("%(name)s is for members of %(club)s only.")
            % {"name": tournament.name, "club": tournament.club.name}
        )
    if (
        tournament.max_players is not None
        and Entrant.objects.filter(tournament=tournament, status=Entrant.Status.ACTIVE).count()
        >= tournament.max_players
    ):
        raise Conflict(
            gettext("%(name)s is full (%(max_players)s players).")
            % {"name": tournament.name, "max_players": tournament.max_players},
            code="tournament_full",
        )


def tournament_register(*, tournament: Tournament, user: User, now: datetime) -> Entrant:
    """A player enters during registration."""
    with transaction.atomic():
        tournament = locked(tournament)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(
                gettext(
                    "Registration is closed: the tournament has started. Ask a director for a late entry."
                ),
                code="registration_closed",
            )
        if tournament.registration_opens_at and now < tournament.registration_opens_at:
            raise Conflict(
                gettext("Registration has not opened yet."), code="registration_not_open"
            )
        if tournament.registration_closes_at and now >= tournament.registration_closes_at:
            raise Conflict(gettext("Registration has closed."), code="registration_closed")
        if Entrant.objects.filter(tournament=tournament, user=user).exists():
            raise Conflict(
                gettext("You are already registered for %(name)s.") % {"name": tournament.name},
                code="already_registered",
            )
        _check_can_enter(tournament, user)
        return enter_locked(tournament, user)


def tournament_withdraw(
    *,
    tournament: Tournament,
    user: User,
    actor: User,
    repair: bool = False,
    now: datetime | None = None,
) -> Entrant | None:
    """A player withdraws (or a director withdraws them).

    Before the start the entry is deleted; afterwards the player is no longer paired and keeps
    the results so far. In a round-robin their later games are forfeited. A player already on a
    board of a round paired and not yet started leaves it: the opponent wins by forfeit (the
    default), or with ``repair`` the round is paired again without them (a director's choice).
    """
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament)
        if actor.pk != user.pk:
            require_director(tournament, actor, gettext("withdraw other players"))
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is None:
            raise NotFound(
                gettext("%(username)s is not registered for %(name)s.")
                % {"username": user.username, "name": tournament.name}
            )
        if tournament.status == Tournament.Status.REGISTRATION:
            entrant.delete()
            return None
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict(gettext("The tournament is over."), code="tournament_finished")
        if entrant.status == Entrant.Status.WITHDRAWN:
            raise Conflict(
                gettext("%(username)s has already withdrawn.") % {"username": user.username},
                code="already_withdrawn",
            )
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.withdrawn_from_round = tournament.current_round + 1
        waiting = _board_waiting(tournament, entrant)
        if waiting is not None:
            entrant.withdrawn_from_round = tournament.current_round
        entrant.save(update_fields=["status", "withdrawn_from_round"])
        if waiting is not None and repair:
            from tournaments.services.rounds import round_pair, unpair_locked

            if actor.pk == user.pk:
                raise NotAllowed(gettext("Only a director may have the round paired again."))
            number = unpair_locked(tournament, actor, now)
            round_pair(tournament_id=tournament.pk, number=number, now=now)
        elif waiting is not None:
            _forfeit_waiting_board(waiting, entrant)
        if actor.pk != user.pk:
            audit(
                tournament,
                actor,
                AuditEntry.What.WITHDRAWN,
                gettext("Withdrew %(username)s from round %(withdrawn_from_round)s on.")
                % {"username": user.username, "withdrawn_from_round": entrant.withdrawn_from_round},
                None,
            )
        return entrant


def _board_waiting(tournament: Tournament, entrant: Entrant) -> Board | None:
    """The entrant's board in the current round if it is paired and not yet started."""
    return (
        Board.objects.select_for_update()
        .filter(
            round__tournament=tournament,
            round__number=tournament.current_round,
            round__status=Round.Status.PAIRED,
        )
        .filter(Q(black=entrant) | Q(white=entrant))
        .first()
    )


def _forfeit_waiting_board(board: Board, entrant: Entrant) -> None:
    """The withdrawn entrant's board of a round not yet started: a bye they would have had
    goes; a game is the opponent's forfeit win."""
    if board.white_id is None:
        board.delete()
        return
    board.result = (
        Board.Result.WHITE_FORFEIT_WIN
        if board.black_id == entrant.pk
        else Board.Result.BLACK_FORFEIT_WIN
    )
    board.termination = "forfeit"
    board.save(update_fields=["result", "termination"])


def entrant_readmit(*, tournament: Tournament, actor: User, user: User) -> Entrant:
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, gettext("re-admit players"))
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is None or entrant.status != Entrant.Status.WITHDRAWN:
            raise Conflict(
                gettext("%(username)s is not a withdrawn player of %(name)s.")
                % {"username": user.username, "name": tournament.name},
                code="not_withdrawn",
            )
        entrant.status = Entrant.Status.ACTIVE
        entrant.withdrawn_from_round = None
        entrant.save(update_fields=["status", "withdrawn_from_round"])
        return entrant


def check_late_bye(late_bye: str) -> None:
    if late_bye not in ("H", "Z"):
        raise InvalidInput(
            gettext("Rounds missed by a late entry score a zero (Z) or half (H) bye.")
        )


def check_director_may_add(tournament: Tournament, actor: User) -> None:
    """A director adds players (the tournament locked): not to an event over, nor to a
    round-robin under way."""
    require_director(tournament, actor, gettext("add players"))
    _refuse_team_event(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(gettext("The tournament is over."), code="tournament_finished")
    if tournament.status == Tournament.Status.RUNNING and tournament.is_round_robin:
        raise Conflict(
            gettext("A round-robin cannot take late entries."), code="round_robin_started"
        )
    if tournament.status == Tournament.Status.RUNNING and tournament.is_knockout:
        raise Conflict(gettext("A knockout cup cannot take late entries."), code="cup_started")


def entrant_add(
    *,
    tournament: Tournament,
    actor: User,
    user: User,
    late_bye: str = "Z",
    override: bool = False,
    now: datetime | None = None,
) -> Entrant:
    """A director adds a player; after the start, a late entry with byes for missed rounds.

    The event's entry rules hold for directors too: a non-member of a members-only event, or a
    player beyond the maximum, is refused unless the director says ``override``, which the
    audit trail records with the rule set aside."""
    check_late_bye(late_bye)
    with transaction.atomic():
        tournament = locked(tournament)
        check_director_may_add(tournament, actor)
        if Entrant.objects.filter(tournament=tournament, user=user).exists():
            raise Conflict(
                gettext("%(username)s is already registered.") % {"username": user.username},
                code="already_registered",
            )
        problems = _entry_problems(tournament, user)
        if problems and not override:
            raise Conflict(
                gettext(
                    "%(problems)s. Add them anyway only if the event's rules allow an exception (the audit trail records it)."
                )
                % {"problems": "; ".join(problems)},
                code="entry_rules",
            )
        if problems:
            audit(
                tournament,
                actor,
                AuditEntry.What.ENTRY_OVERRIDE,
                gettext("Added %(username)s although %(problems)s.")
                % {"username": user.username, "problems": "; ".join(problems)},
                now,
            )
        return enter_locked(tournament, user, late_bye=late_bye)


def enter_locked(
    tournament: Tournament,
    user: User,
    *,
    late_bye: str = "Z",
    rating: int | None = None,
    identity: dict | None = None,
) -> Entrant:
    """``user``'s entry in ``tournament`` (locked by the caller, the rules checked): their
    rating for the event unless given, their identity from the profile unless given; after the
    start a late entry, paired from the next round with the next pairing number."""
    entrant = Entrant(
        tournament=tournament,
        user=user,
        rating=rating_for_tournament(user, tournament) if rating is None else rating,
        late_bye=late_bye,
        **(identity if identity is not None else profile_identity(user)),
    )
    if tournament.status == Tournament.Status.RUNNING:
        paired = Round.objects.filter(tournament=tournament).count()
        entrant.first_round = paired + 1
        highest = (
            Entrant.objects.filter(tournament=tournament)
            .order_by("-pairing_number")
            .values_list("pairing_number", flat=True)
            .first()
        )
        entrant.pairing_number = (highest or 0) + 1
    entrant.save()
    return entrant


def _check_half_point_bye_cap(tournament: Tournament, entrant: Entrant, round_number: int) -> None:
    """The director's caps on half-point byes: how many, and none in the last rounds."""
    closed_from = tournament.rounds - tournament.bye_requests_closed_rounds + 1
    if round_number >= closed_from:
        raise Conflict(
            ngettext(
                "No half-point bye may be asked for in the last round.",
                "No half-point bye may be asked for in the last %(count)s rounds.",
                tournament.bye_requests_closed_rounds,
            )
            % {"count": tournament.bye_requests_closed_rounds},
            code="bye_round_closed",
        )
    asked = ByeRequest.objects.filter(entrant=entrant, kind="H").exclude(round_number=round_number)
    if asked.count() >= tournament.bye_requests_allowed:
        raise Conflict(
            ngettext(
                "At most %(count)s half-point bye may be asked for in this event.",
                "At most %(count)s half-point byes may be asked for in this event.",
                tournament.bye_requests_allowed,
            )
            % {"count": tournament.bye_requests_allowed},
            code="too_many_byes",
        )


def bye_request(
    *, tournament: Tournament, user: User, round_number: int, kind: str = "H"
) -> ByeRequest:
    """A player asks not to be paired in a future round (Swiss)."""
    if kind not in ("H", "Z"):
        raise InvalidInput(gettext("A requested bye is a half-point (H) or zero-point (Z) bye."))
    with transaction.atomic():
        tournament = locked(tournament)
        entrant = Entrant.objects.filter(
            tournament=tournament, user=user, status=Entrant.Status.ACTIVE
        ).first()
        if entrant is None:
            raise NotFound(
                gettext("%(username)s is not an active player of %(name)s.")
                % {"username": user.username, "name": tournament.name}
            )
        if tournament.is_round_robin:
            raise Conflict(
                gettext("Byes cannot be requested in a round-robin."), code="round_robin"
            )
        if tournament.is_knockout:
            raise Conflict(gettext("Byes cannot be requested in a knockout cup."), code="cup")
        if (
            Round.objects.filter(tournament=tournament, number__gte=round_number).exists()
            or round_number < 1
            or round_number > tournament.rounds
        ):
            raise Conflict(
                gettext("Round %(round_number)s is already paired or does not exist.")
                % {"round_number": round_number},
                code="round_paired",
            )
        if kind == "H":  # half a point without playing: capped (an absence, Z, never is)
            _check_half_point_bye_cap(tournament, entrant, round_number)
        request, created = ByeRequest.objects.get_or_create(
            entrant=entrant, round_number=round_number, defaults={"kind": kind}
        )
        if not created:
            raise Conflict(
                gettext("You already asked for a bye in round %(round_number)s.")
                % {"round_number": round_number},
                code="bye_requested",
            )
        return request


def forbid_pair(
    *, tournament: Tournament, actor: User, first: User, second: User, reason: str = ""
) -> ForbiddenPair:
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, gettext("forbid pairings"))
        entrants = {
            e.user_id: e
            for e in Entrant.objects.filter(tournament=tournament, user__in=[first, second])
        }
        if first.pk == second.pk:
            raise Unprocessable(gettext("Name two different players."), code="same_player")
        if len(entrants) != 2:
            missing = first if first.pk not in entrants else second
            raise NotFound(
                gettext("%(username)s is not registered in this tournament.")
                % {"username": missing.username},
                code="not_registered",
            )
        low, high = sorted([entrants[first.pk], entrants[second.pk]], key=lambda e: e.pk)
        pair, _ = ForbiddenPair.objects.get_or_create(
            tournament=tournament, first=low, second=high, defaults={"reason": reason[:100]}
        )
        return pair


def forbid_pair_remove(*, tournament: Tournament, actor: User, first: User, second: User) -> None:
    """A director allows two players to be paired again."""
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, gettext("allow pairings again"))
        deleted, _ = ForbiddenPair.objects.filter(
            Q(first__user=first, second__user=second) | Q(first__user=second, second__user=first),
            tournament=tournament,
        ).delete()
        if not deleted:
            raise NotFound(
                gettext("%(username)s and %(username2)s are not a forbidden pair of %(name)s.")
                % {
                    "username": first.username,
                    "username2": second.username,
                    "name": tournament.name,
                }
            )
