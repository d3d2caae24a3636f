"""The tournament actions on results (:mod:`tournaments.actions` lists them): a board's result,
a round's results at once, a game of a match over the board, a cup's lot, a player's report and
its confirmation or dispute, and a board's pairing edited by hand."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import NotFound
from ratings.selectors import ratings_being_updated
from tournaments import board_selectors, selectors, services
from tournaments.action_call import Call, Outcome
from tournaments.models import TeamMatch
from tournaments.templatetags.tournament_results import shown_result


def result(call: Call) -> Outcome:
    board = services.board_result_set(
        board=call.board(),
        actor=call.actor,
        result=call.data["result"],
        black_marbles=call.data.get("black_marbles"),
        white_marbles=call.data.get("white_marbles"),
        reason=call.data.get("reason", ""),
        now=call.now,
    )
    updating = ratings_being_updated()
    message = _("Board %(number)s: %(result)s.") % {
        "number": board.number,
        "result": shown_result(board.result),
    }
    if updating:
        message += " " + _("Ratings are being updated.")
    return Outcome(
        message,
        {**board_selectors.board_document(board), "ratings_updating": updating},
        page=f"rounds/{board.round.number}/",
    )


def cup_lot(call: Call) -> Outcome:
    board = services.cup_lot_drawn(
        board=call.board(), actor=call.actor, winner=call.data["winner"], now=call.now
    )
    chosen = board.black if call.data["winner"] == "black" else board.white
    message = _("Board %(number)s: %(name)s goes through by lot.") % {
        "number": board.number,
        "name": chosen.label,
    }
    return Outcome(
        message,
        board_selectors.board_document(board_selectors.board_of(call.tournament, board.pk)),
        page=f"rounds/{board.round.number}/",
    )


def team_cup_lot(call: Call) -> Outcome:
    match = TeamMatch.objects.filter(
        round__tournament=call.tournament, pk=call.data["match"]
    ).first()
    if match is None:
        raise NotFound(_("This tournament has no match %(id)s.") % {"id": call.data["match"]})
    match = services.team_cup_lot_drawn(
        match=match, actor=call.actor, winner=call.data["winner"], now=call.now
    )
    chosen = match.first if match.lot == "first" else match.second
    return Outcome(
        _("Match %(number)s: %(name)s goes through by lot.")
        % {"number": match.number, "name": chosen.name},
        {"match": match.pk, "lot": match.lot, "team": chosen.name},
        page="bracket/",
    )


def game_result(call: Call) -> Outcome:
    match_game = services.match_game_result_set(
        board=call.board(),
        number=call.data["game"],
        actor=call.actor,
        result=call.data["result"],
        black_marbles=call.data.get("black_marbles"),
        white_marbles=call.data.get("white_marbles"),
        reason=call.data.get("reason", ""),
        now=call.now,
    )
    board = board_selectors.board_of(call.tournament, match_game.board_id)
    updating = ratings_being_updated()
    message = _("Board %(number)s, game %(game)s: %(result)s.") % {
        "number": board.number,
        "game": match_game.number,
        "result": shown_result(match_game.result),
    }
    if board.result:
        message += " " + _("The match: %(result)s.") % {"result": shown_result(board.result)}
    if updating:
        message += " " + _("Ratings are being updated.")
    return Outcome(
        message,
        {
            **board_selectors.board_document(board),
            "match_game": {"number": match_game.number, "result": match_game.result},
            "ratings_updating": updating,
        },
        page=f"rounds/{board.round.number}/",
    )


def results(call: Call) -> Outcome:
    boards = services.round_results_set(
        tournament=call.tournament, actor=call.actor, entries=call.data["results"], now=call.now
    )
    updating = ratings_being_updated()
    message = ngettext("%(count)s result saved.", "%(count)s results saved.", len(boards)) % {
        "count": len(boards)
    }
    if updating:
        message += " " + _("Ratings are being updated.")
    rounds = sorted({board.round.number for board in boards})
    return Outcome(
        message,
        {
            "boards": [board_selectors.board_document(board) for board in boards],
            "ratings_updating": updating,
        },
        page=f"rounds/{rounds[-1]}/" if len(rounds) == 1 else "",
    )


def report_result(call: Call) -> Outcome:
    report = services.result_report(
        board=call.board(),
        actor=call.actor,
        result=call.data["result"],
        black_marbles=call.data.get("black_marbles"),
        white_marbles=call.data.get("white_marbles"),
        now=call.now,
    )
    board = report.board
    messages = {
        "reported": _("Board %(number)s: %(result)s reported; your opponent confirms it."),
        "confirmed": _("Board %(number)s: %(result)s, as your opponent reported; it is entered."),
        "disputed": _(
            "Board %(number)s: your opponent reported another result; the arbiter decides."
        ),
    }
    return Outcome(
        messages[report.state] % {"number": board.number, "result": shown_result(report.result)},
        {"board": board.pk, "state": report.state, "result": report.result},
        status=201,
        page=f"rounds/{board.round.number}/",
    )


def confirm_result(call: Call) -> Outcome:
    board = services.result_confirm(board=call.board(), actor=call.actor, now=call.now)
    return Outcome(
        _("Board %(number)s: %(result)s confirmed and entered.")
        % {"number": board.number, "result": shown_result(board.result)},
        board_selectors.board_document(board),
        page=f"rounds/{board.round.number}/",
    )


def dispute_result(call: Call) -> Outcome:
    report = services.result_dispute(
        board=call.board(), actor=call.actor, reason=call.data.get("reason", ""), now=call.now
    )
    return Outcome(
        _("Board %(number)s: result disputed; the arbiter decides.")
        % {"number": report.board.number},
        {"board": report.board_id, "state": report.state},
        page=f"rounds/{report.board.round.number}/",
    )


def edit_board(call: Call) -> Outcome:
    board = call.board()
    white = call.data.get("white")
    done = services.board_pairing_edit(
        board=board,
        actor=call.actor,
        black=selectors.entrant_for(call.tournament, call.data["black"]),
        white=selectors.entrant_for(call.tournament, white) if white else None,
        now=call.now,
    )
    board.refresh_from_db()
    return Outcome(
        " ".join([_("Board %(number)s changed.") % {"number": board.number}, *done.moves]),
        {
            "board": board_selectors.board_document(board),
            "moves": done.moves,
            "warnings": done.warnings,
        },
        page=f"rounds/{board.round.number}/",
        warnings=done.warnings,
    )
