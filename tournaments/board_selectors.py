"""Reads of a round's boards for the round page, the printouts and the API: a board found by its
id and as the API shows it; the round's boards with the players' scores before it, their
virtual points in an accelerated round, a match's games and a cup's next game; the pairings in
alphabetical order; a player's own board and its result report, the reports at a glance."""

from __future__ import annotations

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from core.errors import NotFound
from tournaments import history
from tournaments.models import Board, ResultReport, Round, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.matches import game_sides
from tournaments.selectors import entrants, standings_input
from tournaments.templatetags.tournament_results import shown_points


def report_of(board: Board) -> ResultReport | None:
    try:
        return board.report
    except ResultReport.DoesNotExist:
        return None


def board_of_player(boards: list[Board], user) -> Board | None:
    """The board of ``boards`` ``user`` plays on (a game, not a bye), if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    for board in boards:
        if board.white_id and user.pk in (board.black.user_id, board.white.user_id):
            return board
    return None


def report_panel(tournament: Tournament, round_: Round, board: Board, user) -> dict:
    """What a player sees of their own board's result on an over-the-board event's round: its
    report and what they may do (report or correct their report; confirm or dispute the
    opponent's)."""
    report = report_of(board)
    open_round = (
        tournament.play_mode == Tournament.PlayMode.OTB
        and round_.status == Round.Status.STARTED
        and not board.result
    )
    waiting = report is not None and report.state == ResultReport.State.REPORTED
    mine = waiting and report.reported_by_id == user.pk
    opponent = board.white if board.black.user_id == user.pk else board.black
    return {
        "board": board,
        "report": report,
        "opponent": opponent,
        "can_report": open_round and (report is None or mine),
        "can_answer": open_round and waiting and not mine,
        "mine": mine,
    }


def reports_summary(boards: list[Board]) -> dict:
    """A round's results at a glance: boards with a game, results in, reports waiting for the
    opponent, disputes, and boards nobody reported."""
    games = [board for board in boards if board.white_id]
    reports = [report_of(board) for board in games if not board.result]
    return {
        "games": len(games),
        "entered": sum(1 for board in games if board.result),
        "waiting": sum(1 for r in reports if r and r.state == ResultReport.State.REPORTED),
        "disputed": sum(1 for r in reports if r and r.state == ResultReport.State.DISPUTED),
        "missing": sum(1 for r in reports if r is None),
    }


def board_of(tournament: Tournament, board_id: int) -> Board:
    """Board ``board_id`` of ``tournament`` with its round, or NotFound."""
    board = (
        Board.objects.select_related("round__tournament", "black__user", "white__user")
        .filter(pk=board_id, round__tournament=tournament)
        .first()
    )
    if board is None:
        raise NotFound(
            _(
                "%(name)s has no board with the id %(board_id)s (a board's id, as the round's "
                "boards list it, not its number on the round)."
            )
            % {"name": tournament.name, "board_id": board_id}
        )
    return board


def board_document(board: Board) -> dict:
    """A board as the API shows it."""
    return {
        "id": board.pk,
        "round": board.round.number,
        "board": board.number,
        "black": board.black.user.username,
        "white": board.white.user.username if board.white_id else None,
        "bye": board.bye or None,
        "result": board.result or None,
        "black_marbles": board.black_marbles,
        "white_marbles": board.white_marbles,
        "termination": board.termination or None,
        "game": board.game_id,
        "note": board.shown_note,
    }


def round_boards(round_: Round, virtual: dict[int, str] | None = None) -> list[Board]:
    """The round's boards with each player's score before it and, in an accelerated round,
    their virtual points (``virtual``, from :func:`virtual_points`, read when not given)."""
    boards = list(
        round_.boards.select_related(
            "black__user", "white__user", "game", "report__reported_by", "report__answered_by"
        )
    )
    data = standings_input(round_.tournament, up_to_round=round_.number - 1)
    points = {p.number: sum(data.scoring.of(e) for e in p.entries) for p in data.players}
    if virtual is None:
        virtual = virtual_points(round_)
    tournament = round_.tournament
    if tournament.has_matches:
        prefetch_related_objects(boards, "match_games__game")
    for board in boards:
        board.match = history.board_match_score(board, tournament)
        board.match_list = list(board.match_games.all()) if board.match else []
        board.game_rows = _game_rows(board, tournament) if board.match else []
        board.cup_game = _cup_game(board, tournament)
        board.black_points = shown_points(points.get(board.black.pairing_number, 0))
        board.black_virtual = virtual.get(board.black.pairing_number)
        if board.white_id:
            board.white_points = shown_points(points.get(board.white.pairing_number, 0))
            board.white_virtual = virtual.get(board.white.pairing_number)
    return boards


def _cup_game(board: Board, tournament: Tournament) -> int | None:
    """A cup's open pairing: the number of its game in play, or to be entered next."""
    if not tournament.is_knockout or board.result or not board.white_id:
        return None
    decision = history.cup_decision(tournament, board.match_list)
    return decision.number if decision.stage == knockout.PLAY else None


def _game_rows(board: Board, tournament: Tournament) -> list[dict]:
    """Every game of ``board``'s match in order, for the director's entry over the board: its
    number, its first and second mover (entrants), and what is entered so far."""
    entered = {game.number: game for game in board.match_list}
    numbers = range(1, tournament.match_games + 1)
    if tournament.is_knockout:  # the games entered, and the pairing's next game if any
        finished = len(history.cup_results(board.match_list))
        decision = history.cup_decision(tournament, board.match_list)
        numbers = range(1, finished + (2 if decision.stage == knockout.PLAY else 1))
    rows = []
    for number in numbers:
        first, second = game_sides(board.black, board.white, number)
        game = entered.get(number)
        rows.append(
            {
                "number": number,
                "first": first,
                "second": second,
                "result": game.result if game else "",
                "first_marbles": game.first_marbles if game else None,
                "second_marbles": game.second_marbles if game else None,
                "tiebreak": tournament.is_knockout and number > tournament.match_games,
            }
        )
    return rows


def virtual_points(round_: Round) -> dict[int, str]:
    """Accelerated Swiss (C.04.5.1): the virtual points each player was paired with in the
    round, by pairing number, as printed (``1``, ``½``); none outside accelerated rounds."""
    if not round_.tournament.acceleration:
        return {}
    blocks = history.acceleration_blocks(round_.tournament, entrants(round_.tournament))
    shown = {}
    for block in blocks:
        if block.first_round <= round_.number <= block.last_round:
            for number in range(block.first_player, block.last_player + 1):
                shown[number] = shown_points(block.points)
    return shown


def round_acceleration(virtual: dict[int, str]) -> dict | None:
    """The accelerated round's note, from :func:`virtual_points`: the virtual points and the
    first and last player who have them."""
    if not virtual:
        return None
    return {"points": next(iter(virtual.values())), "first": min(virtual), "last": max(virtual)}


def alphabetical_pairings(round_: Round) -> list[dict]:
    """Every player of a round in alphabetical order of their names (what players look for on
    the wall): their board, colour and opponent, or their bye."""
    rows = []
    for board in round_.boards.select_related("black__user", "white__user"):
        seats = [(board.black, board.white, "b")]
        if board.white_id:
            seats.append((board.white, board.black, "w"))
        for entrant, opponent, colour in seats:
            rows.append(
                {
                    "entrant": entrant,
                    "board": board.number,
                    "colour": colour if opponent is not None else "",
                    "opponent": opponent,
                    "bye": board.get_bye_display() if opponent is None else "",
                }
            )
    rows.sort(key=lambda row: (row["entrant"].name.casefold(), row["entrant"].pairing_number or 0))
    return rows
