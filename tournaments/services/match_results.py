"""Matches over the board: the director enters each game of a board's match
(:mod:`tournaments.pairing.matches`), as the score sheets give them.

A game's result and marbles are its own, from its first mover's side (game 2 of a match swaps
the pairing's colours: its Black is the board's White). Each game is rated on its own, once
(``RatingChange.match_game``); a correction asks for the ratings to be replayed. When every
game of the match has a result the board takes the match's (``result_write_locked``: the same
rules, audit and round end as a board's result); a correction of a game corrects it. Every
write is under the tournament, round, board locks, in that order, as every tournament service.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput
from ratings import elo
from ratings.models import RatingChange
from ratings.services import rating_apply, ratings_recompute_request
from tournaments import history
from tournaments.models import Board, MatchGame, Round, Tournament
from tournaments.pairing import PairingError, knockout
from tournaments.pairing.matches import game_sides, pairing_side_result
from tournaments.permissions import require_director
from tournaments.result_rules import FORFEITS
from tournaments.services.common import locked
from tournaments.services.matches import CUP_RESULTS, match_marbles
from tournaments.services.results import (
    result_change_record,
    result_fields_check,
    result_writable,
    result_write_locked,
)


def match_game_result_set(
    *,
    board: Board,
    number: int,
    actor: User,
    result: str,
    black_marbles=None,
    white_marbles=None,
    reason: str = "",
    now: datetime,
) -> MatchGame:
    """The director enters or corrects the result of game ``number`` of ``board``'s match,
    played over the board; ``black_marbles``/``white_marbles`` are those pushed off by the
    game's own Black (its first mover) and White. Entering the same again changes nothing."""
    tournament = board.round.tournament
    result_fields_check(result, black_marbles, white_marbles, tournament.marbles_to_win)
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, _("enter results"))
        if not tournament.has_matches:
            raise Conflict(
                _("This event plays one game a pairing: enter the board's result."),
                code="not_a_match",
            )
        if tournament.play_mode != Tournament.PlayMode.OTB:
            raise Conflict(
                _("Games played on the server record their own results."), code="server_game"
            )
        if isinstance(number, bool) or not 1 <= number <= knockout.MAX_PAIRING_GAMES:
            raise InvalidInput(
                _("A match of this event has games 1 to %(games)s.")
                % {"games": tournament.match_games}
            )
        if not tournament.is_knockout and number > tournament.match_games:
            raise InvalidInput(
                _("A match of this event has games 1 to %(games)s.")
                % {"games": tournament.match_games}
            )
        round_ = Round.objects.select_for_update().get(pk=board.round_id)
        board = (
            Board.objects.select_for_update(of=("self",))
            .select_related("black__user", "white__user")
            .get(pk=board.pk)
        )
        kind = _cup_game_kind(tournament, board, number) if tournament.is_knockout else ""
        match_game = (
            MatchGame.objects.select_for_update().filter(board=board, number=number).first()
        )
        correcting = match_game is not None and bool(match_game.result)
        result_writable(
            tournament,
            round_,
            board,
            pairing_side_result(result, number),
            reason,
            correcting=correcting or bool(board.result),
        )
        if match_game is None:
            match_game = MatchGame.objects.create(
                board=board, number=number, kind=kind or knockout.MATCH_GAME
            )
        before = (match_game.result, match_game.first_marbles, match_game.second_marbles)
        if before == (result, black_marbles, white_marbles):
            return match_game
        result_change_record(
            board, before, (result, black_marbles, white_marbles), actor, reason, now, number
        )
        match_game.result = result
        match_game.first_marbles, match_game.second_marbles = black_marbles, white_marbles
        match_game.termination = "forfeit" if result in FORFEITS else "entered"
        match_game.entered_at = match_game.entered_at or now
        match_game.save(
            update_fields=[
                "result",
                "first_marbles",
                "second_marbles",
                "termination",
                "entered_at",
            ]
        )
        _rate(tournament, board, match_game, now)
        if tournament.is_knockout:
            _cup_board_write(tournament, board, actor, reason, now, number)
            return match_game
        score = history.board_match_score(board, tournament)
        if score is not None and score.complete:
            marbles = match_marbles(board)
            if (score.result, *marbles) != (board.result, board.black_marbles, board.white_marbles):
                result_write_locked(
                    tournament,
                    board,
                    actor,
                    score.result,
                    *marbles,
                    reason,
                    now,
                    termination="match",
                )
        return match_game


def _cup_game_kind(tournament: Tournament, board: Board, number: int) -> str:
    """A cup's game over the board may be entered when it is the pairing's next game, or
    corrected when it was entered: its kind (of the match, a tie-break game)."""
    games = list(board.match_games.order_by("number"))
    results = history.cup_results(games)
    decision = history.cup_decision(tournament, games)
    if 1 <= number <= len(results):
        return MatchGame.objects.get(board=board, number=number).kind
    if decision.stage == knockout.PLAY and number == decision.number:
        return decision.kind
    if decision.stage == knockout.PLAY:
        raise Conflict(
            _("Board %(board)s: game %(next)s is the next game of the pairing.")
            % {"board": board.number, "next": decision.number},
            code="not_the_next_game",
        )
    raise Conflict(
        _("Board %(board)s is decided after game %(last)s: only its games can be corrected.")
        % {"board": board.number, "last": len(results)},
        code="decided",
    )


def _cup_board_write(
    tournament: Tournament, board: Board, actor: User, reason: str, now: datetime, number: int
) -> None:
    """After a game of a cup's pairing over the board: the board decided (the winner goes
    through, as on the server), or still open. A correction that would leave games after the
    deciding one, or reopen a decided pairing, is refused (409): nothing changes."""
    try:
        decision = history.cup_decision(tournament, board.match_games.order_by("number"))
    except PairingError as error:
        raise Conflict(
            _(
                "Board %(board)s: so corrected, game %(game)s would decide the pairing before "
                "the games entered after it."
            )
            % {"board": board.number, "game": number},
            code="decided_earlier",
        ) from error
    if decision.stage in (knockout.DECIDED, knockout.BOTH_OUT):
        result = (
            CUP_RESULTS[decision.winner]
            if decision.stage == knockout.DECIDED
            else Board.Result.DOUBLE_FORFEIT
        )
        marbles = match_marbles(board)
        if (result, *marbles) != (board.result, board.black_marbles, board.white_marbles):
            result_write_locked(
                tournament,
                board,
                actor,
                result,
                *marbles,
                reason,
                now,
                termination=decision.by or knockout.MATCH_GAME,
            )
    elif board.result:
        raise Conflict(
            _("Board %(board)s: so corrected, the decided pairing would be open again.")
            % {"board": board.number},
            code="reopens",
        )


def _rate(tournament: Tournament, board: Board, match_game: MatchGame, now: datetime) -> None:
    """Rate the game once; a game rated already is corrected by replaying the ratings."""
    if not tournament.rated:
        return
    existing = RatingChange.objects.filter(match_game=match_game).order_by("played_at").first()
    if existing is not None:
        ratings_recompute_request(
            since=existing.played_at,
            reason=(
                f"{tournament.name}, round {board.round.number}, board {board.number}, "
                f"game {match_game.number}"
            ),
            now=now,
        )
        return
    first, second = game_sides(board.black, board.white, match_game.number)
    rating_apply(
        black_id=first.user_id,
        white_id=second.user_id,
        result=match_game.result,
        category=elo.speed_category(tournament.base_seconds, tournament.increment_seconds),
        played_at=now,
        match_game=match_game,
    )
