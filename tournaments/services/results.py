"""Results: a server game's end recorded on its board, a director's result or correction, and
the record of an over-the-board game attached to its board.

Lock order, as in every tournament service: the tournament, the round, the board; ratings last
(``ratings.services``, which locks rating rows in user-id order).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import (
    Conflict,
    InvalidInput,
    NotAllowed,
    NotFound,
    ServiceError,
    Unprocessable,
    engine_text,
)
from games import engine
from games.models import Game, Move
from ratings.services import rating_apply_board
from tournaments.models import (
    Board,
    Entrant,
    ResultChange,
    ResultReport,
    Round,
    TeamMatchReport,
    Tournament,
)
from tournaments.permissions import is_director, require_director
from tournaments.result_rules import FORFEITS, marbles_problem
from tournaments.services.common import locked
from tournaments.services.cups import armageddon_withdraw_if_decided
from tournaments.services.matches import (
    game_result_code,
    marbles_pushed_off,
    match_game_finished,
)
from tournaments.services.rounds import round_finish_if_complete


def tournament_game_finished(*, game: Game, now: datetime) -> None:
    """Record a finished server game on its board (registered in :mod:`games.hooks`: called
    inside the game's transaction, holding the game's row lock). A no-op for other games.

    Locks the tournament, then the round, the order every tournament service uses, so a
    director's action in the same round never deadlocks with a game ending.
    """
    board = (
        Board.objects.filter(game=game).select_related("round").first()
        or Board.objects.filter(match_games__game=game).select_related("round").first()
    )
    if board is None:
        return
    tournament = locked(Tournament(pk=board.round.tournament_id))
    round_ = Round.objects.select_for_update().get(pk=board.round_id)
    board.refresh_from_db()
    if board.result:  # a director already entered it
        return
    if tournament.has_matches:
        if match_game_finished(tournament, round_, board, game, now):
            round_finish_if_complete(tournament, round_, now)
        return
    board.result = game_result_code(game)
    board.black_marbles, board.white_marbles = marbles_pushed_off(game)
    board.termination = game.termination
    board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
    round_finish_if_complete(tournament, round_, now)


def result_fields_check(result: str, black_marbles, white_marbles, marbles_to_win: int) -> None:
    if result not in Board.Result.values or result == "":
        raise InvalidInput(
            _("A result is one of %(names)s.")
            % {"names": ", ".join(v for v in Board.Result.values if v)}
        )
    for marbles in (black_marbles, white_marbles):
        if marbles is not None and not 0 <= int(marbles) <= 6:
            raise InvalidInput(_("Marbles pushed off are 0 to 6."))
    problem = marbles_problem(
        result,
        None if black_marbles is None else int(black_marbles),
        None if white_marbles is None else int(white_marbles),
        marbles_to_win,
    )
    if problem:
        raise Unprocessable(problem, code="impossible_result")


def board_result_set(
    *,
    board: Board,
    actor: User,
    result: str,
    black_marbles=None,
    white_marbles=None,
    reason: str = "",
    now: datetime,
) -> Board:
    """A director enters or corrects a result; every change is kept in the audit trail."""
    result_fields_check(result, black_marbles, white_marbles, board.round.tournament.marbles_to_win)
    with transaction.atomic():
        tournament = locked(board.round.tournament)
        require_director(tournament, actor, _("enter results"))
        return result_write_locked(
            tournament, board, actor, result, black_marbles, white_marbles, reason, now
        )


def result_write_locked(
    tournament: Tournament,
    board: Board,
    actor: User,
    result: str,
    black_marbles,
    white_marbles,
    reason: str,
    now: datetime,
    *,
    report_state: str = ResultReport.State.DECIDED,
    termination: str = "",
) -> Board:
    """Write ``board``'s result (the tournament locked and the right checked by the caller):
    the round's and the board's rules, the audit trail's line, the ratings, the round's end. A
    player's report still open on the board is closed with ``report_state`` (decided by the
    director, or confirmed by the opponent). ``termination``: how it ended, when not entered
    (``match``: a match's result from its games)."""
    round_ = Round.objects.select_for_update().get(pk=board.round_id)
    board = Board.objects.select_for_update().get(pk=board.pk)
    result_writable(tournament, round_, board, result, reason, correcting=bool(board.result))
    result_change_record(
        board,
        (board.result, board.black_marbles, board.white_marbles),
        (result, black_marbles, white_marbles),
        actor,
        reason,
        now,
    )
    board.result = result
    board.black_marbles = black_marbles
    board.white_marbles = white_marbles
    board.termination = termination or ("forfeit" if result in FORFEITS else "entered")
    board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
    ResultReport.objects.filter(
        board=board, state__in=[ResultReport.State.REPORTED, ResultReport.State.DISPUTED]
    ).update(state=report_state, answered_by=actor, answered_at=now)
    if (
        board.team_match_id is not None
        and not Board.objects.filter(team_match_id=board.team_match_id, result="").exists()
    ):  # a team match's last board: a captain's report still open is answered
        TeamMatchReport.objects.filter(
            match_id=board.team_match_id,
            state__in=[TeamMatchReport.State.REPORTED, TeamMatchReport.State.DISPUTED],
        ).update(state=report_state, answered_by=actor, answered_at=now)
    rating_apply_board(board=board, now=now)
    armageddon_withdraw_if_decided(tournament, board, actor, now)
    round_finish_if_complete(tournament, round_, now)
    return board


def result_change_record(
    board: Board,
    old: tuple,
    new: tuple,
    actor: User,
    reason: str,
    now: datetime,
    game: int | None = None,
) -> ResultChange:
    """The audit trail's line of a result entered or corrected: ``old`` and ``new`` are
    (result, Black's marbles, White's marbles), of the board or of its match's ``game``."""
    return ResultChange.objects.create(
        board=board,
        game=game,
        old_result=old[0],
        new_result=new[0],
        old_marbles=marbles_text(old[1], old[2]),
        new_marbles=marbles_text(new[1], new[2]),
        changed_by=actor,
        changed_at=now,
        reason=reason.strip()[:200],
    )


def result_writable(
    tournament: Tournament,
    round_: Round,
    board: Board,
    result: str,
    reason: str,
    *,
    correcting: bool,
) -> None:
    """Refuse a result ``board`` cannot take now (the board and its round locked by the
    caller): a bye, a round not started, a game still played on the server, a correction
    without a reason once another round is paired or the event is over, a withdrawn player's
    result other than their forfeit. ``correcting``: a result is there already."""
    if board.white_id is None:
        raise Conflict(_("A bye has no result to enter."), code="bye")
    if round_.status == Round.Status.PAIRED:
        raise Conflict(
            _("Round %(number)s has not started.") % {"number": round_.number},
            code="round_not_started",
        )
    if board.game_id and board.game.is_active:
        raise Conflict(_("That game is still being played on the server."), code="game_in_progress")
    later_paired = Round.objects.filter(tournament=tournament, number__gt=round_.number).exists()
    # A reason once others have built on the result: a later round paired with it, or the
    # event over; a typo in the round just finished is corrected freely before the next.
    event_over = tournament.status == Tournament.Status.FINISHED
    if (later_paired or event_over) and correcting and not reason.strip():
        raise Unprocessable(
            _(
                "Round %(number)s is followed by another (or the event is over): "
                "correcting one of its results needs a reason."
            )
            % {"number": round_.number},
            code="reason_required",
        )
    for entrant, forfeit_against in (
        (board.black, Board.Result.WHITE_FORFEIT_WIN),
        (board.white, Board.Result.BLACK_FORFEIT_WIN),
    ):
        gone = (
            entrant.status == Entrant.Status.WITHDRAWN
            and entrant.withdrawn_from_round is not None
            and entrant.withdrawn_from_round <= round_.number
        )
        if gone and result not in (forfeit_against, Board.Result.DOUBLE_FORFEIT):
            raise Conflict(
                _(
                    "%(username)s withdrew before round %(number)s: only a forfeit can be recorded for them."
                )
                % {"username": entrant.user.username, "number": round_.number},
                code="withdrawn_player",
            )


def round_results_set(
    *, tournament: Tournament, actor: User, entries: list[dict], now: datetime
) -> list[Board]:
    """A director enters the results of several boards at once (a round's score sheets):
    each entry is ``board`` (id), ``result`` and optionally the marbles and a ``reason``. All or
    nothing: a refused entry refuses the lot, naming its board; nothing is written then."""
    ids = [entry["board"] for entry in entries]
    if len(set(ids)) != len(ids):
        raise Unprocessable(_("A board appears twice."), code="board_twice")
    boards = {
        board.pk: board
        for board in Board.objects.select_related("round__tournament").filter(
            pk__in=ids, round__tournament=tournament
        )
    }
    missing = [str(board_id) for board_id in ids if board_id not in boards]
    if missing:
        raise NotFound(
            _(
                "%(name)s has no board with the id %(missing)s (a board's id, as the round's "
                "boards list it, not its number on the round)."
            )
            % {"name": tournament.name, "missing": ", ".join(missing)}
        )
    done = []
    with transaction.atomic():
        for entry in entries:
            board = boards[entry["board"]]
            try:
                done.append(
                    board_result_set(
                        board=board,
                        actor=actor,
                        result=entry["result"],
                        black_marbles=entry.get("black_marbles"),
                        white_marbles=entry.get("white_marbles"),
                        reason=entry.get("reason", ""),
                        now=now,
                    )
                )
            except ServiceError as error:
                error.detail = _("Board %(number)s (round %(round)s): %(detail)s") % {
                    "number": board.number,
                    "round": board.round.number,
                    "detail": error.detail,
                }
                raise
    return done


def marbles_text(black, white) -> str:
    return "" if black is None and white is None else f"{black}-{white}"


# --- the record of an over-the-board game ---------------------------------------------------------

#: Board results as a game result, to compare an imported record with the board.
BOARD_RESULT_AS_GAME = {
    Board.Result.BLACK_WINS: "1-0",
    Board.Result.BLACK_FORFEIT_WIN: "1-0",
    Board.Result.WHITE_WINS: "0-1",
    Board.Result.WHITE_FORFEIT_WIN: "0-1",
    Board.Result.DRAW: "1/2-1/2",
}


@dataclass(frozen=True)
class RecordImport:
    game: Game
    board: Board
    record_result: str
    board_result: str
    #: None while the board has no result; else whether the record's result matches it.
    result_agrees: bool | None

    @property
    def message(self) -> str:
        if self.result_agrees is None:
            return _(
                "Game imported. The record's result is %(record_result)s; the board has no result yet: enter it on the round page."
            ) % {"record_result": self.record_result}
        if self.result_agrees:
            return _("Game imported. Its result %(record_result)s agrees with the board.") % {
                "record_result": self.record_result
            }
        return _(
            "Game imported, but its result %(record_result)s disagrees with the board's result %(board_result)s: check the board (the board's result is the one that counts)."
        ) % {"record_result": self.record_result, "board_result": self.board_result}


def _check_name(tag: str, name: str, player: User) -> str | None:
    shown = name.strip()
    if shown in ("", "?") or shown.lower() == player.username.lower():
        return None
    return f"the record's {tag} is '{shown}' but the board's {tag} is '{player.username}'"


def board_record_import(*, board: Board, actor: User, text: str, now: datetime) -> RecordImport:
    """A director attaches the record of an over-the-board game to its board.

    The record is replayed move by move (the first bad move is named); its Black and White must
    be the board's players (usernames, any case) or ``?``. Creates a finished, unrated game with
    its moves and links it as ``board.game``; the board's result is left alone (the director
    enters it on the tournament pages) and the returned :class:`RecordImport` tells whether the
    record agrees with it. Holds a ``SELECT ... FOR UPDATE`` lock on the board while it writes.
    """
    tournament = board.round.tournament
    if not is_director(tournament, actor):
        raise NotAllowed(
            _("Only the directors of %(name)s (club admins and arbiters) may import game records.")
            % {"name": tournament.name}
        )
    if tournament.play_mode != Tournament.PlayMode.OTB:
        raise Conflict(
            _("%(name)s is played on the server: its games are recorded already.")
            % {"name": tournament.name},
            code="not_over_the_board",
        )
    if board.is_bye:
        raise Conflict(
            _("Board %(number)s is a bye: it has no game.") % {"number": board.number}, code="bye"
        )
    try:
        headers, engine_game = engine.read_record(text)
    except engine.RecordError as error:
        raise Unprocessable(
            _("The record cannot be read: %(error)s") % {"error": engine_text(error)},
            code=error.code,
        ) from None
    if not engine_game.is_over:
        raise Unprocessable(
            _("The record has no result (*): import a finished game."), code="unfinished_record"
        )
    black, white = board.black.user, board.white.user
    problems = [
        problem
        for problem in (
            _check_name("Black", headers["Black"], black),
            _check_name("White", headers["White"], white),
        )
        if problem
    ]
    if problems:
        swapped = (
            headers["Black"].strip().lower() == white.username.lower()
            and headers["White"].strip().lower() == black.username.lower()
        )
        hint = " (the colours are the other way round)" if swapped else ""
        raise Unprocessable(
            _(
                "The players do not match board %(number)s: %(problems)s%(hint)s. Use the usernames, or ? for an unknown name."
            )
            % {"number": board.number, "problems": "; ".join(problems), "hint": hint},
            code="players_mismatch",
        )
    start = engine_game.start_position.to_string()
    start_name = next(
        (name for name in engine.START_NAMES if engine.start_position(name).to_string() == start),
        "custom",
    )
    rules = engine_game.settings
    with transaction.atomic():
        locked = Board.objects.select_for_update().filter(pk=board.pk).first()
        if locked is None:
            raise NotFound(_("This board no longer exists."))
        if locked.game_id is not None:
            raise Conflict(
                _("Board %(number)s already has a game (#%(game_id)s).")
                % {"number": locked.number, "game_id": locked.game_id},
                code="board_has_game",
            )
        game = Game.objects.create(
            black=black,
            white=white,
            base_seconds=tournament.base_seconds,
            increment_seconds=tournament.increment_seconds,
            marbles_to_win=rules.marbles_to_win,
            start=start_name,
            rated=False,  # the board's result is rated, never this copy of the game
            start_position=start,
            threefold_repetition=rules.threefold_repetition,
            max_plies=rules.max_plies,
            max_plies_result=rules.max_plies_result,
            status=Game.Status.FINISHED,
            position=engine_game.position.to_string(),
            ply=engine_game.ply,
            turn_started_at=now,
            flag_deadline=None,
            result=engine_game.result,
            termination=engine_game.termination,
            created_at=now,
            ended_at=now,
        )
        positions = engine_game.positions
        Move.objects.bulk_create(
            Move(
                game=game,
                ply=index + 1,
                notation=move.notation,
                played_at=now,
                clock_ms=0,
                spent_ms=0,
                position_after=positions[index + 1].to_string(),
                pushed_off=outcome.pushed_off is not None,
            )
            for index, (move, outcome) in enumerate(
                zip(engine_game.moves, engine_game.outcomes, strict=True)
            )
        )
        locked.game = game
        locked.save(update_fields=["game"])
    board_result = BOARD_RESULT_AS_GAME.get(locked.result) if locked.result else None
    return RecordImport(
        game=game,
        board=locked,
        record_result=engine_game.result,
        board_result=locked.result,
        result_agrees=None if not locked.result else board_result == engine_game.result,
    )
