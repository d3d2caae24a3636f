"""Players report their over-the-board results (issue 25, item 4).

A player of a board in a started round reports its result (with the marbles when they counted
them); the opponent confirms it, and it is entered as a director's result would be (the audit
trail's line names both players), or disputes it, and an arbiter decides by entering the result.
Both players reporting the same result is a confirmation; two different reports are a dispute.
Until the opponent answers, the reporter may correct their report. Every step is in the event's
audit trail. An arbiter's result closes any open report (``results.result_write_locked``).

Each service locks the tournament row, then the board's report (the lock order of
``tournaments.services``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, NotAllowed, Unprocessable
from tournaments.models import AuditEntry, Board, ResultReport, Round, Tournament
from tournaments.result_rules import FORFEITS
from tournaments.services.common import audit, locked
from tournaments.services.results import result_fields_check, result_write_locked
from tournaments.templatetags.tournament_results import shown_result


def _marbles(black, white) -> str:
    return "" if black is None and white is None else f" ({black}–{white})"


def _said(result: str, black, white) -> str:
    return f"{shown_result(result)}{_marbles(black, white)}"


def _board_for_player(board: Board, actor: User) -> tuple[Tournament, Board, User]:
    """The tournament (locked), the board fresh from the database, and ``actor``'s opponent;
    refused unless ``actor`` plays on this board of a started round of an over-the-board event,
    and its result is not in yet."""
    tournament = locked(board.round.tournament)
    board = Board.objects.select_related("round", "black__user", "white__user").get(pk=board.pk)
    players = (
        {board.black.user_id: board.white, board.white.user_id: board.black}
        if (board.white_id)
        else {}
    )
    if actor.pk not in players:
        raise NotAllowed(
            _("Only the two players of board %(number)s report its result.")
            % {"number": board.number}
        )
    if tournament.play_mode != Tournament.PlayMode.OTB:
        raise Conflict(
            _("Games played on the server record their own results."), code="server_game"
        )
    if tournament.has_matches:
        raise Conflict(
            _("Board %(number)s plays a match: the arbiter enters each game's result; tell them.")
            % {"number": board.number},
            code="match_by_arbiter",
        )
    if board.round.status == Round.Status.PAIRED:
        raise Conflict(
            _("Round %(number)s has not started.") % {"number": board.round.number},
            code="round_not_started",
        )
    if board.result:
        raise Conflict(
            _(
                "The result of board %(number)s is in already (%(result)s); ask the arbiter to correct it."
            )
            % {"number": board.number, "result": shown_result(board.result)},
            code="result_entered",
        )
    return tournament, board, players[actor.pk].user


def result_report(
    *,
    board: Board,
    actor: User,
    result: str,
    black_marbles=None,
    white_marbles=None,
    now: datetime,
) -> ResultReport:
    """``actor`` reports their board's result; the opponent's own equal report confirms it."""
    if result in FORFEITS:
        raise Unprocessable(
            _("A forfeit is the arbiter's to record; report the game's result."),
            code="forfeit_by_arbiter",
        )
    result_fields_check(result, black_marbles, white_marbles, board.round.tournament.marbles_to_win)
    with transaction.atomic():
        tournament, board, opponent = _board_for_player(board, actor)
        report = ResultReport.objects.select_for_update().filter(board=board).first()
        said = _said(result, black_marbles, white_marbles)
        if report is not None and report.state == ResultReport.State.DISPUTED:
            raise Conflict(
                _("The result of board %(number)s is disputed: the arbiter decides.")
                % {"number": board.number},
                code="report_disputed",
            )
        if report is None or report.reported_by_id == actor.pk:
            fields = {
                "result": result,
                "black_marbles": black_marbles,
                "white_marbles": white_marbles,
                "reported_by": actor,
                "reported_at": now,
                "state": ResultReport.State.REPORTED,
            }
            report, _created = ResultReport.objects.update_or_create(board=board, defaults=fields)
            audit(
                tournament,
                actor,
                AuditEntry.What.RESULT_REPORTED,
                _("Round %(round)s, board %(number)s: %(username)s reported %(result)s.")
                % {
                    "round": board.round.number,
                    "number": board.number,
                    "username": actor.username,
                    "result": said,
                },
                now,
            )
            return report
        # the opponent reported first: the same result confirms it, another disputes it
        if (report.result, report.black_marbles, report.white_marbles) == (
            result,
            black_marbles,
            white_marbles,
        ):
            return _confirm_locked(tournament, board, report, actor, now)
        theirs = _said(report.result, report.black_marbles, report.white_marbles)
        return _dispute_locked(
            tournament,
            board,
            report,
            actor,
            _("%(username)s reported %(result)s") % {"username": actor.username, "result": said}
            + " / "
            + _("%(username)s reported %(result)s")
            % {"username": report.reported_by.username, "result": theirs},
            now,
        )


def _open_report_for_opponent(board: Board, actor: User) -> ResultReport:
    report = ResultReport.objects.select_for_update().filter(board=board).first()
    if report is None or report.state != ResultReport.State.REPORTED:
        raise Conflict(
            _("No result of board %(number)s waits for your answer.") % {"number": board.number},
            code="no_report",
        )
    if report.reported_by_id == actor.pk:
        raise Conflict(_("Your opponent confirms your report, not you."), code="own_report")
    return report


def result_confirm(*, board: Board, actor: User, now: datetime) -> Board:
    """The opponent confirms the reported result: it is entered."""
    with transaction.atomic():
        tournament, board, _opponent = _board_for_player(board, actor)
        report = _open_report_for_opponent(board, actor)
        _confirm_locked(tournament, board, report, actor, now)
    board.refresh_from_db()
    return board


def _confirm_locked(tournament, board, report, actor, now) -> ResultReport:
    said = _said(report.result, report.black_marbles, report.white_marbles)
    result_write_locked(
        tournament,
        board,
        actor,
        report.result,
        report.black_marbles,
        report.white_marbles,
        _("reported by %(reporter)s, confirmed by %(username)s")
        % {"reporter": report.reported_by.username, "username": actor.username},
        now,
        report_state=ResultReport.State.CONFIRMED,
    )
    audit(
        tournament,
        actor,
        AuditEntry.What.RESULT_CONFIRMED,
        _("Round %(round)s, board %(number)s: %(username)s confirmed %(result)s.")
        % {
            "round": board.round.number,
            "number": board.number,
            "username": actor.username,
            "result": said,
        },
        now,
    )
    report.refresh_from_db()
    return report


def result_dispute(*, board: Board, actor: User, reason: str = "", now: datetime) -> ResultReport:
    """The opponent disputes the reported result: the arbiter decides."""
    with transaction.atomic():
        tournament, board, _opponent = _board_for_player(board, actor)
        report = _open_report_for_opponent(board, actor)
        return _dispute_locked(tournament, board, report, actor, reason.strip(), now)


def _dispute_locked(tournament, board, report, actor, reason: str, now) -> ResultReport:
    report.state = ResultReport.State.DISPUTED
    report.answered_by, report.answered_at = actor, now
    report.dispute_reason = reason[:200]
    report.save(update_fields=["state", "answered_by", "answered_at", "dispute_reason"])
    audit(
        tournament,
        actor,
        AuditEntry.What.RESULT_DISPUTED,
        _("Round %(round)s, board %(number)s: %(username)s disputed %(result)s%(reason)s.")
        % {
            "round": board.round.number,
            "number": board.number,
            "username": actor.username,
            "result": _said(report.result, report.black_marbles, report.white_marbles),
            "reason": f" ({reason})" if reason else "",
        },
        now,
    )
    return report
