"""A round's games on the server, single or as matches (:mod:`tournaments.pairing.matches`).

In a match round a board plays its games one after the other: game 1 with the board's colours
when the round starts, each next one, colours swapped, as soon as the previous one ends. Each
game is an ordinary game (archived, rated on its own by ``ratings``); its result is kept on its
:class:`MatchGame`, and the board's result, the match's, is written when the last game ends.
The board's ``game`` is the game in play (the last one once the match is over).

Everything here runs with the tournament and the round locked by the caller (the order every
tournament service keeps), and is idempotent: a game's end met twice records nothing twice, and
the next game is created once (one per board and number, a unique constraint).
"""

from __future__ import annotations

from datetime import datetime

from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from games.options import GameOptions
from tournaments import history, notify
from tournaments.models import Board, MatchGame, Round, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.matches import game_sides


def game_options(tournament: Tournament, kind: str = knockout.MATCH_GAME) -> GameOptions:
    """A game of the event; a cup's tie-break game (a team cup's Armageddon game) at the
    cup's faster clock."""
    tiebreak = tournament.has_bracket and kind != knockout.MATCH_GAME
    return GameOptions(
        base_seconds=tournament.cup_tiebreak_base_seconds if tiebreak else tournament.base_seconds,
        increment_seconds=(
            tournament.cup_tiebreak_increment_seconds if tiebreak else tournament.increment_seconds
        ),
        marbles_to_win=tournament.marbles_to_win,
        start=tournament.start_position,
        rated=tournament.rated,
        start_position=tournament.custom_position,
    )


def board_game_create(
    tournament: Tournament,
    round_: Round,
    board: Board,
    now: datetime,
    number: int = 1,
    kind: str = knockout.MATCH_GAME,
) -> Game:
    """Create game ``number`` of ``board`` (the board's colours, swapped in a match's even
    games; a cup's tie-break games go on alternating), make it the board's game in play and
    tell both players."""
    first, second = game_sides(board.black, board.white, number)
    game = game_services.game_create(
        black=first.user,
        white=second.user,
        options=game_options(tournament, kind),
        now=now,
        max_plies_result=tournament.max_plies_result,
        forfeit_if_unplayed=True,
        first_move_seconds=tournament.first_move_seconds,
        chat_enabled=tournament.chat_enabled,
    )
    board.game = game
    board.save(update_fields=["game"])
    if tournament.has_matches:
        MatchGame.objects.create(board=board, number=number, game=game, kind=kind)
    notify.game_started(tournament, round_, board, now)
    return game


def game_result_code(game: Game) -> str:
    """A finished server game's result as a board result, from its first mover's side: a
    forfeit (no first move in time) or an abort is a forfeit of the side that lost it."""
    if game.termination == "forfeit" or game.status == "aborted":
        return {
            "1-0": Board.Result.BLACK_FORFEIT_WIN,
            "0-1": Board.Result.WHITE_FORFEIT_WIN,
        }.get(game.result, Board.Result.DOUBLE_FORFEIT)
    return game.result


def match_game_finished(
    tournament: Tournament, round_: Round, board: Board, game: Game, now: datetime
) -> bool:
    """Record a finished game of ``board``'s match; start the next game, or, after the last,
    write the match's result on the board. Returns whether the board now has its result."""
    match_game = MatchGame.objects.select_for_update().filter(board=board, game=game).first()
    if match_game is None or match_game.result:
        return bool(board.result)
    match_game.result = game_result_code(game)
    match_game.first_marbles, match_game.second_marbles = marbles_pushed_off(game)
    match_game.termination = game.termination
    match_game.save(update_fields=["result", "first_marbles", "second_marbles", "termination"])
    if tournament.is_knockout:
        return cup_board_decide(tournament, round_, board, now)
    if match_game.number < tournament.match_games:
        if not MatchGame.objects.filter(board=board, number=match_game.number + 1).exists():
            board_game_create(tournament, round_, board, now, match_game.number + 1)
        return False
    score = history.board_match_score(board, tournament)
    board.result = score.result
    board.black_marbles, board.white_marbles = match_marbles(board)
    board.termination = "match"
    board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
    return True


def cup_board_decide(tournament: Tournament, round_: Round, board: Board, now: datetime) -> bool:
    """Where a cup's pairing stands after its games so far (:func:`knockout.decide`): the next
    game (a tie-break game at the faster clock) created once, or the board decided: ``1-0``
    when its Black goes through, ``0-1`` for its White, ``--`` when both are out; its
    termination the kind of game or rule that decided. Lots to draw leave the board open for
    the director (:func:`tournaments.services.cups.cup_lot_drawn`). Returns whether the board
    now has its result."""
    # the games so far are all finished: the next one is created here, once the last is
    decision = history.cup_decision(tournament, board.match_games.order_by("number"))
    if decision.stage == knockout.PLAY:
        if (
            tournament.play_mode == Tournament.PlayMode.SERVER
            and not MatchGame.objects.filter(board=board, number=decision.number).exists()
        ):
            board_game_create(tournament, round_, board, now, decision.number, decision.kind)
        return False
    if decision.stage == knockout.DRAW_LOTS:
        return False
    if decision.stage == knockout.BOTH_OUT:
        board.result = Board.Result.DOUBLE_FORFEIT
    else:
        board.result = CUP_RESULTS[decision.winner]
    board.black_marbles, board.white_marbles = match_marbles(board)
    board.termination = decision.by or "match"
    board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
    return True


#: A cup's board once decided: the side of the pairing that goes through.
CUP_RESULTS = {"black": Board.Result.BLACK_WINS, "white": Board.Result.WHITE_WINS}


def marbles_pushed_off(game: Game) -> tuple[int, int]:
    """Marbles pushed off by the game's first and second mover (none during a placement
    phase)."""
    first_lost, second_lost = game_selectors.marbles_lost(game)
    return second_lost, first_lost


def match_marbles(board: Board) -> tuple[int | None, int | None]:
    """Marbles pushed off by the board's Black and White over the match's games."""
    black = white = 0
    for match_game in board.match_games.all():
        if match_game.first_marbles is None or match_game.second_marbles is None:
            return None, None
        by_black, by_white = game_sides(
            match_game.first_marbles, match_game.second_marbles, match_game.number
        )
        black += by_black
        white += by_white
    return black, white
