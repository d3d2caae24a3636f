"""Knockout cups (:mod:`tournaments.pairing.knockout`): what a director decides by hand.

A cup's pairing is played on the server game after game, its tie-break games included
(:func:`tournaments.services.matches.cup_board_decide`); when the cup's last word is the lot
and the pairing is still tied, the board waits for the director to draw lots and enter who
goes through (:func:`cup_lot_drawn`). A team cup's match still level after board-by-board
elimination goes to the lot (:func:`team_cup_lot_drawn`) or to an Armageddon game whose
players the captains nominate (:func:`armageddon_nominate`). Locks: the tournament, the round,
the match, the board, in that order, as every tournament service.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed
from teams.models import Team
from tournaments import history, team_draw
from tournaments.models import AuditEntry, Board, Round, TeamLineup, TeamMatch, Tournament
from tournaments.pairing import knockout, team_cup
from tournaments.permissions import acts_for, require_director
from tournaments.services.common import audit, locked
from tournaments.services.matches import CUP_RESULTS, board_game_create
from tournaments.services.rounds import round_finish_if_complete
from tournaments.services.team_events import entrant_for, entry_in


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


def armageddon_nominate(
    *, match: TeamMatch, team: Team, player: User, actor: User, now: datetime
) -> TeamMatch:
    """``team``'s captain (an admin of its club, or a director) nominates its player of the
    Armageddon game deciding a team cup's ``match`` still level after board-by-board
    elimination: one of the players of the team's line-up in the match. A nomination may be
    changed until both are in; then the game's board (the match's board N+1, the colours going
    on alternating by board) is made and, on the server, its game begins at the cup's
    tie-break clock. The same nomination twice changes nothing."""
    with transaction.atomic():
        tournament = locked(match.round.tournament)
        if not tournament.is_team_cup:
            raise Conflict(
                _("An Armageddon game decides only a team cup's match."), code="not_a_cup"
            )
        round_ = Round.objects.select_for_update().get(pk=match.round_id)
        match = (
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("first__team__club", "second__team__club")
            .get(pk=match.pk)
        )
        entry = entry_in(match, team)
        side = team_cup.FIRST if entry.pk == match.first_id else team_cup.SECOND
        if not acts_for(tournament, team, actor):
            raise NotAllowed(
                _(
                    "Only the captain of %(team)s, an admin of its club or a director of "
                    "%(name)s may nominate its Armageddon player."
                )
                % {"team": team.name, "name": tournament.name}
            )
        named = dict(match.armageddon_players)
        if named.get(side) == player.pk:
            return match
        if team_draw.armageddon_boards(tournament, [match]):
            raise Conflict(
                _("Match %(number)s's Armageddon game is paired already.")
                % {"number": match.number},
                code="armageddon_paired",
            )
        results = team_draw.match_results([match]).get(match.id)
        decision = team_draw.cup_decision(tournament, match, results)
        if decision.stage != team_cup.PLAY_ARMAGEDDON:
            raise Conflict(
                _("Match %(number)s is not waiting for an Armageddon game.")
                % {"number": match.number},
                code="no_armageddon",
            )
        lineup = TeamLineup.objects.filter(match=match, entry=entry).first()
        if lineup is None or player.pk not in lineup.players:
            raise InvalidInput(
                _("%(player)s is not in %(team)s's line-up for this match.")
                % {"player": player.username, "team": team.name},
                code="not_in_lineup",
            )
        named[side] = player.pk
        match.armageddon_players = named
        match.save(update_fields=["armageddon_players"])
        audit(
            tournament,
            actor,
            AuditEntry.What.ARMAGEDDON_NAMED,
            f"Round {round_.number}, match {match.number}: {player.username} plays the "
            f"Armageddon game for {team.name}",
            now,
        )
        if len(named) == 2:
            _armageddon_pair(tournament, round_, match, now)
    return match


def armageddon_withdraw_if_decided(
    tournament: Tournament, board: Board, actor: User, now: datetime
) -> bool:
    """After a result entered or corrected on one of a team cup match's boards (1..N) once its
    Armageddon game was paired over the board and before that game's result: if the boards
    now decide the match, the game has nothing left to decide and is withdrawn (its board
    deleted, the nominations cleared, the audit trail told), and the round no longer waits for
    it. On the server the game goes on and decides nothing; its end closes the round. The
    caller holds the tournament's lock, which every writer of its matches takes first."""
    if not tournament.is_team_cup or board.team_match_id is None:
        return False
    if board.slot is None or board.slot > tournament.team_boards:
        return False
    match = TeamMatch.objects.get(pk=board.team_match_id)
    armageddon = team_draw.armageddon_boards(tournament, [match]).get(match.pk)
    if armageddon is None or armageddon.result or armageddon.game_id is not None:
        return False
    results = team_draw.match_results([match]).get(match.pk)
    if team_draw.cup_decision(tournament, match, results).stage == team_cup.PLAY_ARMAGEDDON:
        return False
    armageddon.delete()
    match.armageddon_players = {}
    match.save(update_fields=["armageddon_players"])
    audit(
        tournament,
        actor,
        AuditEntry.What.ARMAGEDDON_NAMED,
        f"Round {match.round.number}, match {match.number}: the Armageddon game (board "
        f"{armageddon.number}) withdrawn, the match's boards decide it after board "
        f"{board.number}'s result",
        now,
    )
    return True


def _armageddon_pair(tournament: Tournament, round_: Round, match: TeamMatch, now: datetime):
    """The Armageddon game's board, once both players are named: the match's board N+1,
    numbered after every regular board of the round; on the server, its game begins."""
    boards = tournament.team_boards
    black_side = team_cup.armageddon_first(boards)
    white_side = team_cup.other(black_side)
    entries = {team_cup.FIRST: match.first, team_cup.SECOND: match.second}
    cache: dict = {}
    highest = round_.boards.order_by("-number").values_list("number", flat=True).first() or 0
    board = Board.objects.create(
        round=round_,
        number=max(highest, round_.team_matches.count() * boards) + 1,
        black=entrant_for(
            tournament, match.armageddon_players[black_side], entries[black_side], cache
        ),
        white=entrant_for(
            tournament, match.armageddon_players[white_side], entries[white_side], cache
        ),
        team_match=match,
        slot=boards + 1,
    )
    if tournament.play_mode == Tournament.PlayMode.SERVER:
        board_game_create(tournament, round_, board, now, kind=knockout.ARMAGEDDON_GAME)
    return board
