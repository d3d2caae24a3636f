"""Knockout cups (:mod:`tournaments.pairing.knockout`): what a director decides by hand.

A cup's pairing is played on the server game after game, its tie-break games included
(:func:`tournaments.services.matches.cup_board_decide`); when the cup's last word is the lot
and the pairing is still tied, the board waits for the director to draw lots and enter who
goes through (:func:`cup_lot_drawn`). Locks: the tournament, the round, the board, in that
order, as every tournament service.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput
from tournaments import history, team_draw
from tournaments.models import AuditEntry, Board, Round, TeamMatch
from tournaments.pairing import knockout, team_cup
from tournaments.permissions import require_director
from tournaments.services.common import audit, locked
from tournaments.services.matches import CUP_RESULTS
from tournaments.services.rounds import round_finish_if_complete


def cup_lot_drawn(*, board: Board, actor: User, winner: str, now: datetime) -> Board:
    """The director enters the lot's winner (``"black"`` or ``"white"``: the board's side) of
    a cup pairing still tied after every tie-break game. The same lot twice changes nothing."""
    if winner not in CUP_RESULTS:
        raise InvalidInput(_("The lot goes to the board's Black or its White."))
    with transaction.atomic():
        tournament = locked(board.round.tournament)
        require_director(tournament, actor, _("draw lots"))
        if not tournament.is_knockout:
            raise Conflict(_("Lots decide only a knockout cup's pairings."), code="not_a_cup")
        round_ = Round.objects.select_for_update().get(pk=board.round_id)
        board = (
            Board.objects.select_for_update(of=("self",))
            .select_related("black__user", "white__user")
            .get(pk=board.pk)
        )
        if board.result:
            if board.termination == "lot" and board.result == CUP_RESULTS[winner]:
                return board
            raise Conflict(
                _("Board %(number)s is decided already.") % {"number": board.number},
                code="decided",
            )
        decision = (  # none for a bye
            history.cup_decision(tournament, board.match_games.all()) if board.white_id else None
        )
        if decision is None or decision.stage != knockout.DRAW_LOTS:
            raise Conflict(
                _("Board %(number)s is not waiting for lots.") % {"number": board.number},
                code="no_lots",
            )
        board.result = CUP_RESULTS[winner]
        board.termination = "lot"
        board.save(update_fields=["result", "termination"])
        chosen = board.black if winner == "black" else board.white
        audit(
            tournament,
            actor,
            AuditEntry.What.LOTS_DRAWN,
            f"Round {round_.number}, board {board.number}: {chosen.label} goes through",
            now,
        )
        round_finish_if_complete(tournament, round_, now)
    return board


def team_cup_lot_drawn(*, match: TeamMatch, actor: User, winner: str, now: datetime) -> TeamMatch:
    """The director enters the lot's winner (``"first"`` or ``"second"``: the match's team) of
    a team cup's match still tied after board-by-board elimination. The same lot twice changes
    nothing."""
    if winner not in (team_cup.FIRST, team_cup.SECOND):
        raise InvalidInput(_("The lot goes to the match's first team or its second."))
    with transaction.atomic():
        tournament = locked(match.round.tournament)
        require_director(tournament, actor, _("draw lots"))
        if not tournament.is_team_cup:
            raise Conflict(_("Lots decide only a knockout cup's pairings."), code="not_a_cup")
        round_ = Round.objects.select_for_update().get(pk=match.round_id)
        match = (
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("first", "second")
            .get(pk=match.pk)
        )
        if match.lot:
            if match.lot == winner:
                return match
            raise Conflict(
                _("Match %(number)s is decided already.") % {"number": match.number},
                code="decided",
            )
        results = team_draw.match_results([match]).get(match.id)
        if team_draw.cup_decision(tournament, match, results).stage != knockout.DRAW_LOTS:
            raise Conflict(
                _("Match %(number)s is not waiting for lots.") % {"number": match.number},
                code="no_lots",
            )
        match.lot = winner
        match.save(update_fields=["lot"])
        chosen = match.first if winner == team_cup.FIRST else match.second
        audit(
            tournament,
            actor,
            AuditEntry.What.LOTS_DRAWN,
            f"Round {round_.number}, match {match.number}: {chosen.name} goes through",
            now,
        )
        round_finish_if_complete(tournament, round_, now)
    return match
