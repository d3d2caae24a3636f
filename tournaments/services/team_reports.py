"""Captains report their over-the-board team matches' results (issue 27, a league's results).

A captain (or an admin of the team's club) of one of the two teams reports the results of the
match's boards while its round is in play; the other team's captain (or club admin) confirms
them, and each board's result is entered as a director's would be (the audit trail names both),
or disputes them, and a director decides (entering the boards' results, or confirming the
report). Both captains reporting the same results is a confirmation; different ones a dispute.
Until the other team answers, the reporter may correct the report. A director's results for
every board close an open report (``results.result_write_locked``). Every step is on the
audit trail, and the other captain is told of a report.

Each service locks the tournament row, then the match's report (the services' lock order).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed
from tournaments import notify, team_draw
from tournaments.models import (
    AuditEntry,
    Board,
    TeamEntry,
    TeamMatch,
    TeamMatchReport,
    Tournament,
)
from tournaments.pairing.teams import team_match_score
from tournaments.permissions import acts_for, is_director
from tournaments.services.common import audit, locked
from tournaments.services.results import result_write_locked

#: What a captain may report for a board that was played (from its Black's side).
RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--")


def _score(results: list[str]) -> str:
    score = team_match_score(results)
    return f"{score.first:g}–{score.second:g}"


def _match_in_play(match: TeamMatch) -> tuple[Tournament, TeamMatch, dict[int, Board]]:
    """The tournament (locked), the match fresh, its boards by slot; refused unless the match is
    an over-the-board match of a round in play with a board still without its result."""
    tournament = locked(match.round.tournament)
    match = TeamMatch.objects.select_related("round", "first__team", "second__team").get(
        pk=match.pk
    )
    if match.second is None:
        raise Conflict(_("A bye has no results to report."), code="bye")
    if tournament.play_mode != Tournament.PlayMode.OTB:
        raise Conflict(
            _("On the server the games give the results; nothing is reported."),
            code="server_event",
        )
    if not team_draw.match_in_play(match):
        raise Conflict(
            _("Round %(number)s is not in play: nothing is reported.")
            % {"number": match.round.number},
            code="round_not_in_play",
        )
    boards = {  # the match's boards: a team cup's Armageddon game is entered by a director
        board.slot: board
        for board in Board.objects.filter(team_match=match, slot__lte=tournament.team_boards)
    }
    if boards and all(board.result for board in boards.values()):
        raise Conflict(_("Every board of this match has its result."), code="match_decided")
    return tournament, match, boards


def _side(tournament: Tournament, match: TeamMatch, actor: User) -> TeamEntry | None:
    """The team ``actor`` acts for in ``match`` (captain or club admin), else None."""
    for entry in (match.first, match.second):
        if entry is not None and acts_for(tournament, entry.team, actor, directors=False):
            return entry
    return None


def _results(match: TeamMatch, boards: dict[int, Board], results: list[str], size: int) -> list:
    """The reported results checked: one per board, a result for each board with two players,
    nothing for a board the line-ups decided."""
    if len(results) != size:
        raise InvalidInput(
            _("Give %(count)s results, one per board.") % {"count": size}, code="bad_results"
        )
    out = []
    for slot, result in enumerate(results, start=1):
        result = (result or "").strip()
        if slot not in boards:
            out.append("")
            continue
        if result not in RESULTS:
            raise InvalidInput(
                _("Board %(slot)s: %(result)r is not a result (one of %(results)s).")
                % {"slot": slot, "result": result, "results": ", ".join(RESULTS)},
                code="bad_results",
            )
        out.append(result)
    forfeits = list(match.forfeits) or [""] * size
    return [forfeits[i] or out[i] for i in range(size)]


def match_report(
    *, match: TeamMatch, results: list[str], actor: User, now: datetime
) -> TeamMatchReport:
    """A captain reports the match's results, board 1 first (a board the line-ups decided is
    skipped: give ``""``)."""
    with transaction.atomic():
        tournament, match, boards = _match_in_play(match)
        entry = _side(tournament, match, actor)
        if entry is None:
            raise NotAllowed(
                _(
                    "Only the captains of %(first)s and %(second)s (or their clubs' admins) report "
                    "this match."
                )
                % {"first": match.first.name, "second": match.second.name}
            )
        checked = _results(match, boards, results, tournament.team_boards)
        report = TeamMatchReport.objects.select_for_update().filter(match=match).first()
        if report is not None and report.state in (
            TeamMatchReport.State.CONFIRMED,
            TeamMatchReport.State.DECIDED,
        ):
            raise Conflict(_("This match's results are in."), code="match_decided")
        if report is not None and report.state == TeamMatchReport.State.DISPUTED:
            raise Conflict(_("The report is disputed: a director decides."), code="disputed")
        if report is not None and report.entry_id != entry.pk:
            # the other captain reports too: the same results confirm, others dispute
            if report.results == checked:
                return _confirm_locked(tournament, match, boards, report, actor, now)
            return _dispute_locked(tournament, match, report, actor, _("a different report"), now)
        if report is None:
            report = TeamMatchReport(match=match, entry=entry)
        report.results = checked
        report.state = TeamMatchReport.State.REPORTED
        report.reported_by = actor
        report.reported_at = now
        report.save()
        audit(
            tournament,
            actor,
            AuditEntry.What.RESULT_REPORTED,
            _(
                "Round %(round)s, %(first)s – %(second)s: %(username)s (%(team)s) reported %(score)s."
            )
            % {
                "round": match.round.number,
                "first": match.first.name,
                "second": match.second.name,
                "username": actor.username,
                "team": entry.name,
                "score": _score(checked),
            },
            now,
        )
        other = match.second if entry == match.first else match.first
        notify.match_reported(tournament, match, entry, other, _score(checked), now)
        return report


def _open_report(tournament: Tournament, match: TeamMatch, actor: User) -> TeamMatchReport:
    """The match's open report, which ``actor`` (the other team, or a director) may answer."""
    report = TeamMatchReport.objects.select_for_update().filter(match=match).first()
    if report is None or report.state not in (
        TeamMatchReport.State.REPORTED,
        TeamMatchReport.State.DISPUTED,
    ):
        raise Conflict(_("No report of this match waits for an answer."), code="no_report")
    entry = _side(tournament, match, actor)
    director = is_director(tournament, actor)
    if report.state == TeamMatchReport.State.DISPUTED and not director:
        raise Conflict(_("The report is disputed: a director decides."), code="disputed")
    if not director and (entry is None or entry.pk == report.entry_id):
        raise NotAllowed(
            _(
                "Only the other team's captain (or its club's admins) or a director answers this "
                "report."
            )
        )
    return report


def match_confirm(*, match: TeamMatch, actor: User, now: datetime) -> TeamMatchReport:
    """The other captain (or a director) confirms the report: its results are entered."""
    with transaction.atomic():
        tournament, match, boards = _match_in_play(match)
        report = _open_report(tournament, match, actor)
        return _confirm_locked(tournament, match, boards, report, actor, now)


def _confirm_locked(tournament, match, boards, report, actor, now) -> TeamMatchReport:
    reason = _("reported by %(reporter)s, confirmed by %(username)s") % {
        "reporter": report.reported_by.username if report.reported_by else "?",
        "username": actor.username,
    }
    for slot, board in sorted(boards.items()):
        result = report.results[slot - 1]
        if result and board.result != result:
            result_write_locked(
                tournament,
                board,
                actor,
                result,
                None,
                None,
                reason,
                now,
                report_state="confirmed",
            )
    report.refresh_from_db()
    report.state = TeamMatchReport.State.CONFIRMED
    report.answered_by = actor
    report.answered_at = now
    report.save(update_fields=["state", "answered_by", "answered_at"])
    audit(
        tournament,
        actor,
        AuditEntry.What.RESULT_CONFIRMED,
        _("Round %(round)s, %(first)s – %(second)s: %(username)s confirmed %(score)s.")
        % {
            "round": match.round.number,
            "first": match.first.name,
            "second": match.second.name,
            "username": actor.username,
            "score": _score(report.results),
        },
        now,
    )
    return report


def match_dispute(
    *, match: TeamMatch, actor: User, reason: str = "", now: datetime
) -> TeamMatchReport:
    """The other captain disputes the report: a director decides."""
    with transaction.atomic():
        tournament, match, _boards = _match_in_play(match)
        report = _open_report(tournament, match, actor)
        if report.state == TeamMatchReport.State.DISPUTED:
            return report
        return _dispute_locked(tournament, match, report, actor, reason, now)


def _dispute_locked(tournament, match, report, actor, reason: str, now) -> TeamMatchReport:
    report.state = TeamMatchReport.State.DISPUTED
    report.answered_by = actor
    report.answered_at = now
    report.reason = reason[:300]
    report.save(update_fields=["state", "answered_by", "answered_at", "reason"])
    audit(
        tournament,
        actor,
        AuditEntry.What.RESULT_DISPUTED,
        _("Round %(round)s, %(first)s – %(second)s: %(username)s disputed the report%(why)s.")
        % {
            "round": match.round.number,
            "first": match.first.name,
            "second": match.second.name,
            "username": actor.username,
            "why": f" ({reason})" if reason else "",
        },
        now,
    )
    return report
