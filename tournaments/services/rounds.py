"""Rounds: starting the tournament, pairing a round (inline or by a background job), starting it
on the server, and moving on when a round is complete (hand edits to the boards:
:mod:`.boards`).

Pairing and starting a round are idempotent: a duplicated Celery delivery finds the round
already paired or started and returns it. The draw itself (which boards) is
:mod:`tournaments.draw`'s; these services lock, check, save and schedule.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, NotFound, ServiceError, engine_text
from core.jobs import enqueue
from games.models import Game
from games.services import game_adjudicate_unfinished
from tournaments import draw, notify, team_draw
from tournaments.identity import initial_order_key
from tournaments.models import AuditEntry, Board, Entrant, Round, TeamMatch, Tournament
from tournaments.pairing import PairingError, berger_rounds, knockout, team_cup
from tournaments.permissions import require_director
from tournaments.services import team_events
from tournaments.services.common import audit, locked
from tournaments.services.matches import board_game_create

logger = logging.getLogger(__name__)

PAIR_TASK = "tournaments.tasks.pair_round"
ADVANCE_TASK = "tournaments.tasks.advance_tournament"
PAIRING_ERROR_LENGTH = 500
BEGUN = (Round.Status.STARTED, Round.Status.FINISHED)


# --- starting the tournament ---------------------------------------------------------------------


def tournament_start(*, tournament: Tournament, actor: User | None, now: datetime) -> Round | None:
    """Close registration, fix pairing numbers (FIDE C.04.2's initial order: rating, title,
    then name alphabetically) and pair round 1.

    Returns round 1, or None when the field is large and a background job pairs it.
    """
    with transaction.atomic():
        tournament = locked(tournament)
        if actor is not None:
            require_director(tournament, actor, _("start it"))
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(_("The tournament has already started."), code="tournament_started")
        if tournament.is_team_event:
            return _team_start_locked(tournament, now)
        entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
        if len(entrants) < 2:
            raise Conflict(
                _("A tournament needs at least 2 players to start."), code="too_few_players"
            )
        entrants.sort(key=lambda e: initial_order_key(e.rating, e.title, e.name))
        for number, entrant in enumerate(entrants, start=1):
            entrant.pairing_number = number
        Entrant.objects.bulk_update(entrants, ["pairing_number"])
        if tournament.is_round_robin:
            tournament.rounds = berger_rounds(
                len(entrants), double=tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
            )
        elif tournament.is_knockout:
            tournament.rounds = knockout.rounds_of(len(entrants))
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at", "rounds"])
        if len(entrants) > settings.TOURNAMENT_INLINE_PAIRING_LIMIT:
            _request_pairing(tournament, 1, now)
            return None
        round_ = _pair_locked(tournament, 1, now)
        if tournament.round_start == Tournament.RoundStart.AUTO:
            _start_locked(tournament, round_, now)
    return round_


def _team_start_locked(tournament: Tournament, now: datetime) -> Round:
    """:func:`tournament_start` for a team event: the teams numbered, round 1's matches."""
    team_events.start_locked(tournament)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at", "rounds"])
    # never started here: the captains send their line-ups until the round begins (a team
    # event's rounds start by hand or at their times, tournaments.services.setup)
    return _pair_locked(tournament, 1, now)


def tournament_advance(*, tournament_id: int, number: int, now: datetime) -> Round | None:
    """Pair and start round ``number`` of an automatic tournament. Idempotent."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return None
    round_pair(tournament_id=tournament_id, number=number, now=now)
    return round_start(tournament_id=tournament_id, number=number, actor=None, now=now)


def tournaments_move_on(*, now: datetime) -> int:
    """What the tournaments' own clocks call for at ``now``, found in the database (the periodic
    job, every few seconds; idempotent). How many tournaments it moved on.

    1. Paired rounds whose scheduled time has come are started, and a team event's matches
       postponed to a time that has come begin.
    2. Automatic tournaments whose pause after a round is over have their next round paired and
       started by a background job.
    3. A background pairing that has not answered for ``PAIRING_JOB_PATIENCE_SECONDS`` (its message lost
       with Redis, its worker killed) is asked for again, unless a job is pairing that
       tournament right now (it holds the tournament's row).
    4. A correspondence round whose deadline has passed has its games still in play adjudicated
       (:func:`rounds_close_overdue`).
    """
    moved = 0
    due = Round.objects.filter(
        status=Round.Status.PAIRED,
        scheduled_at__lte=now,
        tournament__round_start=Tournament.RoundStart.SCHEDULED,
    ).values_list("tournament_id", "number")
    for tournament_id, number in due:
        round_start(tournament_id=tournament_id, number=number, actor=None, now=now)
        moved += 1
    late = TeamMatch.objects.filter(
        begun_at=None, postponed_to__lte=now, round__status__in=BEGUN
    ).values_list("pk", flat=True)
    for match_id in late:
        team_match_begin(match_id=match_id, now=now)
        moved += 1
    waiting = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, next_round_at__lte=now
    ).values_list("pk", flat=True)
    stale = Tournament.objects.filter(
        status=Tournament.Status.RUNNING,
        pairing_requested_round__isnull=False,
        pairing_requested_at__lte=now - pairing_job_patience(),
    ).values_list("pk", flat=True)
    for tournament_id in [*waiting, *stale]:
        moved += _request_pairing_if_idle(tournament_id, now)
    moved += rounds_close_overdue(now=now)
    return moved


def rounds_close_overdue(*, now: datetime) -> int:
    """Close each correspondence round whose deadline has passed at ``now``: each of its games
    still in play is adjudicated by the event's rule for an unfinished game (a flag that fell
    first, as a flag), which gives its board its result, and the round closes as any round
    does once the last board has one (``round_finish_if_complete``, by the game's hook). How
    many games it ended. Idempotent: a game over already is left as it is.

    Each game in a transaction of its own, the game's lock first as every finished game takes
    them (games.hooks), never under the tournament's lock."""
    games = Board.objects.filter(
        round__status=Round.Status.STARTED,
        round__deadline_at__lte=now,
        game__status=Game.Status.STARTED,
    ).values_list("game_id", flat=True)
    return sum(game_adjudicate_unfinished(game_id=game_id, now=now) for game_id in list(games))


def pairing_job_patience() -> timedelta:
    """How long a background pairing may take before it is asked for again."""
    return timedelta(seconds=settings.PAIRING_JOB_PATIENCE_SECONDS)


def _request_pairing_if_idle(tournament_id: int, now: datetime) -> int:
    """Ask for the next round's pairing job if the tournament is due for one and no job holds
    the tournament right now (``SKIP LOCKED``); 1 if asked."""
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        )
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return 0
        if tournament.pairing_requested_round is not None:
            number = tournament.pairing_requested_round
            if tournament.pairing_requested_at and tournament.pairing_requested_at > (
                now - pairing_job_patience()
            ):
                return 0  # asked for meanwhile
        elif tournament.next_round_at is not None and tournament.next_round_at <= now:
            number = tournament.current_round + 1
        else:
            return 0
        _request_pairing(tournament, number, now)
    return 1


# --- pairing -------------------------------------------------------------------------------------


def round_pair(*, tournament_id: int, number: int, now: datetime) -> Round:
    """Pair round ``number`` once; a repeated call returns the round already paired."""
    with transaction.atomic():
        tournament = locked(Tournament(pk=tournament_id))
        existing = Round.objects.filter(tournament=tournament, number=number).first()
        if existing is not None:
            return existing
        return _pair_locked(tournament, number, now)


def round_pair_by(*, tournament: Tournament, actor: User, now: datetime) -> Round | None:
    """A director pairs the next round; a large field is paired by a background job (None)."""
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("pair rounds"))
        number = tournament.current_round + 1
        if tournament.pairing_requested_round == number:
            raise Conflict(
                _("Round %(number)s is being paired already.") % {"number": number},
                code="pairing_running",
            )
        _check_pairable(tournament, number)
        if (
            Entrant.objects.filter(tournament=tournament).count()
            > settings.TOURNAMENT_INLINE_PAIRING_LIMIT
        ):
            _request_pairing(tournament, number, now)
            return None
        return _pair_locked(tournament, number, now)


def round_pair_in_background(
    *, tournament_id: int, number: int, start: bool, now: datetime
) -> Round | None:
    """What the background pairing job does: pair round ``number``, and start it when
    ``start`` (an automatic tournament). Idempotent.

    It never leaves the tournament "being paired": when the round cannot be paired (no legal
    pairing, a round out of order, or an unexpected error, which is logged), the reason is
    recorded for the directors and the request cleared, so they can change something (add a
    player, allow a pair again) and pair the round again.
    """
    try:
        if start:
            return tournament_advance(tournament_id=tournament_id, number=number, now=now)
        return round_pair(tournament_id=tournament_id, number=number, now=now)
    except ServiceError as error:
        detail = error.detail
    except Exception:
        logger.exception("pairing round %s of tournament %s failed", number, tournament_id)
        detail = _("The pairing failed unexpectedly (the error is logged): pair the round again.")
    _pairing_failed(tournament_id=tournament_id, number=number, detail=detail)
    return None


def _request_pairing(tournament: Tournament, number: int, now: datetime) -> None:
    """Hand the pairing of round ``number`` to a background job (the caller holds the lock):
    pair it, and start it too in an automatic tournament. The request is recorded, so the page
    shows it and ``tournaments_move_on`` asks again if the job never answers."""
    _pairing_request_save(tournament, number=number, at=now, error="", next_round_cleared=True)
    auto = tournament.round_start == Tournament.RoundStart.AUTO
    enqueue(ADVANCE_TASK if auto else PAIR_TASK, tournament.pk, number)


def _pairing_failed(*, tournament_id: int, number: int, detail: str) -> None:
    """Record why round ``number`` could not be paired in the background, unless it has been
    paired meanwhile; the request is cleared so a director can pair it again."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if (
            tournament is None
            or Round.objects.filter(tournament=tournament, number=number).exists()
        ):
            return
        logger.warning("round %s of tournament %s not paired: %s", number, tournament_id, detail)
        asked = tournament.pairing_requested_round == number
        _pairing_request_save(
            tournament,
            number=None if asked else tournament.pairing_requested_round,
            at=None if asked else tournament.pairing_requested_at,
            error=(_("Round %(number)s: %(detail)s") % {"number": number, "detail": detail})[
                :PAIRING_ERROR_LENGTH
            ],
            next_round_cleared=False,
        )


def _pairing_request_save(
    tournament: Tournament,
    *,
    number: int | None,
    at: datetime | None,
    error: str,
    next_round_cleared: bool,
) -> None:
    """Save the tournament's pairing request: the round a background job is asked to pair and
    since when (None: no job asked), why the last job could not pair one (blank: nothing to
    report), and, ``next_round_cleared``, no automatic round due any more (a job asked or a
    round paired takes its place). The caller holds the tournament's lock."""
    tournament.pairing_requested_round = number
    tournament.pairing_requested_at = at
    tournament.pairing_error = error
    fields = ["pairing_requested_round", "pairing_requested_at", "pairing_error"]
    if next_round_cleared:
        tournament.next_round_at = None
        fields.append("next_round_at")
    tournament.save(update_fields=fields)


def _pair_locked(tournament: Tournament, number: int, now: datetime) -> Round:
    _check_pairable(tournament, number)
    round_ = _create_round(tournament, number, now)
    _pairing_request_save(tournament, number=None, at=None, error="", next_round_cleared=True)
    return round_


def _check_pairable(tournament: Tournament, number: int) -> None:
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(_("Only a running tournament is paired."), code="not_running")
    if number != tournament.current_round + 1 or number > tournament.rounds:
        raise Conflict(
            _(
                "Round %(number)s cannot be paired now (current round %(current_round)s of %(rounds)s)."
            )
            % {
                "number": number,
                "current_round": tournament.current_round,
                "rounds": tournament.rounds,
            },
            code="round_out_of_order",
        )
    previous = Round.objects.filter(tournament=tournament, number=number - 1).first()
    if number > 1 and (previous is None or previous.status != Round.Status.FINISHED):
        raise Conflict(
            _("Round %(number)s is not finished yet.") % {"number": number - 1},
            code="round_not_finished",
        )


def _create_round(tournament: Tournament, number: int, now: datetime) -> Round:
    """The round and its boards as :mod:`tournaments.draw` makes them (a team event: its
    matches, the boards made when it begins); the caller holds the lock."""
    if tournament.is_team_event:
        boards = []
    elif tournament.is_round_robin:
        boards = draw.round_robin_boards(tournament, number)
    elif tournament.is_knockout:
        boards = draw.knockout_boards(tournament, number)
    else:
        try:
            boards = draw.swiss_boards(tournament, number)
        except PairingError as error:
            raise Conflict(
                _("No legal pairing for round %(number)s: %(error)s")
                % {"number": number, "error": engine_text(error)},
                code="no_pairing",
            ) from error
    scheduled_at = tournament.round_time(number)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        paired_at=now,
        status=Round.Status.PAIRED,
        scheduled_at=scheduled_at,
    )
    for board_number, board in enumerate(boards, start=1):
        board.round = round_
        board.number = board_number
    Board.objects.bulk_create(boards)
    if tournament.is_team_event:
        team_events.round_matches_create(tournament, round_)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    notify.round_paired(tournament, round_, now)
    round_finish_if_complete(tournament, round_, now)
    return round_


def round_unpair(*, tournament: Tournament, actor: User, now: datetime) -> int:
    """A director takes back the pairing of the current round before it starts (a player
    withdrew or came late, a pairing to redo): its boards go, the round can be paired again.
    Returns the round's number."""
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("unpair rounds"))
        return unpair_locked(tournament, actor, now)


def unpair_locked(tournament: Tournament, actor: User | None, now: datetime) -> int:
    """:func:`round_unpair` for a caller that holds the tournament's lock."""
    round_ = (
        Round.objects.select_for_update()
        .filter(tournament=tournament, number=tournament.current_round)
        .first()
    )
    if (
        round_ is None
        or round_.status != Round.Status.PAIRED
        or round_.boards.filter(game__isnull=False).exists()
    ):
        raise Conflict(
            _("Only a round paired and not yet started can be unpaired."),
            code="round_not_unpairable",
        )
    number = round_.number
    round_.delete()  # its boards with it
    tournament.current_round = number - 1
    tournament.save(update_fields=["current_round"])
    audit(
        tournament,
        actor,
        AuditEntry.What.ROUND_UNPAIRED,
        _("Round %(number)s unpaired before it started.") % {"number": number},
        now,
    )
    return number


# --- starting a round ----------------------------------------------------------------------------


def round_start(*, tournament_id: int, number: int, actor: User | None, now: datetime) -> Round:
    """Start a paired round: on the server, create its games with their clocks. Idempotent."""
    with transaction.atomic():
        tournament = locked(Tournament(pk=tournament_id))
        if actor is not None:
            require_director(tournament, actor, _("start rounds"))
        round_ = (
            Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
        )
        if round_ is None:
            raise NotFound(_("Round %(number)s has not been paired.") % {"number": number})
        if round_.status != Round.Status.PAIRED:
            return round_
        _start_locked(tournament, round_, now)
    return round_


def _start_locked(tournament: Tournament, round_: Round, now: datetime) -> None:
    if tournament.is_team_event:
        team_events.round_boards_create(tournament, round_, now)
    _games_create(tournament, round_, round_.boards.all(), now)
    round_.status = Round.Status.STARTED
    round_.started_at = now
    if tournament.round_days and tournament.play_mode == Tournament.PlayMode.SERVER:
        round_.deadline_at = now + timedelta(days=tournament.round_days)
    round_.save(update_fields=["status", "started_at", "deadline_at"])
    round_finish_if_complete(tournament, round_, now)


def _games_create(tournament: Tournament, round_: Round, boards, now: datetime) -> None:
    """On the server: a game with its clock for each of ``boards`` with two players."""
    if tournament.play_mode != Tournament.PlayMode.SERVER:
        return
    for board in boards.filter(white__isnull=False, result="").select_related(
        "black__user", "white__user"
    ):
        board_game_create(tournament, round_, board, now)


def team_match_begin(*, match_id: int, now: datetime) -> TeamMatch | None:
    """A league match postponed past its round's start begins at its own time (the beat calls
    this): its boards from the line-ups sent meanwhile, on the server their games, its players
    told. Its round went on without it (a round-robin's next rounds do not wait); the event
    ends once it is played. Idempotent."""
    with transaction.atomic():
        tournament_id = (
            TeamMatch.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True)
        ).first()
        if tournament_id is None:
            return None
        tournament = locked(Tournament(pk=tournament_id))
        round_ = Round.objects.select_for_update().get(team_matches=match_id)
        match = TeamMatch.objects.select_for_update().get(pk=match_id)
        if match.begun_at is not None or round_.status not in BEGUN:
            return match
        match = TeamMatch.objects.select_related("first__team__club", "second__team__club").get(
            pk=match_id
        )
        Board.objects.bulk_create(team_events.match_boards_create(tournament, round_, match, now))
        _games_create(tournament, round_, round_.boards.filter(team_match=match), now)
        notify.round_paired(tournament, round_, now)  # told once per round: this match's players
        round_finish_if_complete(tournament, round_, now)
    return match


def round_finish_if_complete(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Close the round once every board has a result; then move the tournament on (the next
    round paired, or paired and started after the pause, as the tournament's settings say).
    The caller holds the tournament's and the round's locks."""
    if round_.status == Round.Status.FINISHED:
        _finish_if_complete(tournament, now)  # a postponed match of a round gone by, played
        return
    if round_.status != Round.Status.STARTED:
        return
    decided = True
    if tournament.is_team_cup:
        matches = list(
            round_.team_matches.select_related("first__team__captain", "second__team__captain")
        )
        decisions = team_draw.cup_decisions(tournament, matches)
        notify.armageddon_due(  # as soon as a match is level, its captains nominate
            tournament,
            round_,
            [m for m in matches if decisions[m.id].stage == team_cup.PLAY_ARMAGEDDON],
            now,
        )
        decided = all(
            decision.stage in (knockout.DECIDED, knockout.BOTH_OUT)
            for decision in decisions.values()
        )
    if round_.boards.filter(white__isnull=False, result="").exists():
        return
    if not decided:
        return  # a level match waits for the director's lot or its Armageddon game
    round_.status = Round.Status.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])
    if round_.number >= tournament.rounds:
        _finish_if_complete(tournament, now)
        return
    if tournament.round_start == Tournament.RoundStart.AUTO and tournament.round_pause_seconds:
        # after the pause: tournaments_move_on asks for the next round then
        tournament.next_round_at = now + timedelta(seconds=tournament.round_pause_seconds)
        tournament.save(update_fields=["next_round_at"])
    elif tournament.round_start in (Tournament.RoundStart.AUTO, Tournament.RoundStart.SCHEDULED):
        _request_pairing(tournament, round_.number + 1, now)


def _finish_if_complete(tournament: Tournament, now: datetime) -> None:
    """The event ends when its last round has, and no postponed match is left to play."""
    if not Round.objects.filter(
        tournament=tournament, number=tournament.rounds, status=Round.Status.FINISHED
    ).exists():
        return
    if Board.objects.filter(round__tournament=tournament, white__isnull=False, result="").exists():
        return
    if (
        TeamMatch.objects.filter(round__tournament=tournament, begun_at=None)
        .exclude(second=None)
        .exists()
    ):
        return
    Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.RUNNING).update(
        status=Tournament.Status.FINISHED, finished_at=now
    )


# --- editing a paired round ----------------------------------------------------------------------
