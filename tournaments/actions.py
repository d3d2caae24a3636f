"""The players' and directors' tournament actions, as the pages and the API both take them.

Each action reads its input from a mapping (a page's POST data or the API's JSON), checked by
:data:`INPUTS`; calls one service, which checks who may do it; and says what happened in an
:class:`Outcome`: the message a page shows, the JSON the API answers with and its status, and the
tournament page to go back to. ``tournaments.views.tournament_action`` and
``tournaments.api.TournamentActionView`` only translate.

A new action is one function here, added to :data:`ACTIONS`, its input to :data:`INPUTS` (and a
status other than 200 to :data:`STATUSES`); both the pages and the API have it then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import serializers

from accounts.models import User
from accounts.selectors import player_named
from core.api_errors import flatten_detail
from core.errors import InvalidInput, NotFound
from ratings.selectors import ratings_being_updated
from tournaments import selectors, services
from tournaments.action_inputs import (
    AddPlayerInput,
    ArbiterInput,
    BoardInput,
    ByeInput,
    CupLotInput,
    DisputeInput,
    EditBoardInput,
    EntryListInput,
    ForbidInput,
    GameResultInput,
    GrantByeInput,
    NoInput,
    PairInput,
    PrizeIdInput,
    PrizeInput,
    ReportInput,
    ResultInput,
    ResultsInput,
    RoundInput,
    UsernameInput,
    WithdrawInput,
)
from tournaments.models import Board, Entrant, Tournament
from tournaments.templatetags.tournament_results import shown_result


@dataclass
class Outcome:
    """What an action did: ``message`` for the page, ``data`` and ``status`` for the API,
    ``page`` the tournament page to show next (relative to the tournament's URL)."""

    message: str
    data: dict[str, Any]
    status: int = 200
    page: str = ""
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Call:
    tournament: Tournament
    actor: User
    data: dict[str, Any]
    now: datetime

    def player(self, name: str) -> User:
        """The player the field ``name`` names: one of the event's entrants (guest players
        included, whom no other page finds), else an account of the site."""
        entrant = (
            Entrant.objects.filter(
                tournament=self.tournament, user__username__iexact=(self.data[name] or "").strip()
            )
            .select_related("user")
            .first()
        )
        return entrant.user if entrant is not None else player_named(self.data[name])

    def board(self) -> Board:
        return selectors.board_of(self.tournament, self.data["board"])


def perform(
    action: str, *, tournament: Tournament, actor: User, data: Mapping[str, Any], now: datetime
) -> Outcome:
    """Run ``action`` for ``actor`` with the input ``data``; a ServiceError says why not."""
    handler = ACTIONS.get(action)
    if handler is None:
        raise NotFound(_("There is no tournament action '%(action)s'.") % {"action": action})
    shape = INPUTS[action]
    if isinstance(data, QueryDict) and hasattr(shape, "from_form"):
        data = shape.from_form(data)
    checked = shape(data=data)
    if not checked.is_valid():
        raise InvalidInput(flatten_detail(checked.errors))
    return handler(_Call(tournament, actor, dict(checked.validated_data), now))


def _register(call: _Call) -> Outcome:
    entrant = services.tournament_register(
        tournament=call.tournament, user=call.actor, now=call.now
    )
    return Outcome(
        _("You are registered for %(name)s.") % {"name": call.tournament.name},
        {"registered": entrant.user.username},
        status=201,
    )


def _withdraw(call: _Call) -> Outcome:
    target = call.player("username") if call.data.get("username") else call.actor
    services.tournament_withdraw(
        tournament=call.tournament,
        user=target,
        actor=call.actor,
        repair=call.data.get("then") == "repair",
        now=call.now,
    )
    return Outcome(
        _("%(username)s withdrew.") % {"username": target.username},
        {"withdrawn": target.username},
    )


def _unpair_round(call: _Call) -> Outcome:
    number = services.round_unpair(tournament=call.tournament, actor=call.actor, now=call.now)
    return Outcome(
        _("Round %(number)s unpaired: pair it again when ready.") % {"number": number},
        {"unpaired": number},
    )


def _readmit(call: _Call) -> Outcome:
    target = call.player("username")
    services.entrant_readmit(tournament=call.tournament, actor=call.actor, user=target)
    return Outcome(
        _("%(username)s is back in.") % {"username": target.username},
        {"readmitted": target.username},
    )


def _appoint_arbiter(call: _Call) -> Outcome:
    target = call.player("username")
    role = call.data.get("role") or "deputy"
    services.arbiter_appoint(tournament=call.tournament, actor=call.actor, user=target, role=role)
    message = (
        _(
            "%(username)s is the chief arbiter of %(name)s: they may pair, enter and correct results."
        )
        if role == "chief"
        else _("%(username)s is an arbiter of %(name)s: they may pair, enter and correct results.")
    )
    return Outcome(
        message % {"username": target.username, "name": call.tournament.name},
        {"arbiter": target.username, "role": role},
        status=201,
        page="players/",
    )


def _remove_arbiter(call: _Call) -> Outcome:
    target = call.player("username")
    services.arbiter_remove(tournament=call.tournament, actor=call.actor, user=target)
    return Outcome(
        _("%(username)s is no longer an arbiter of %(name)s.")
        % {"username": target.username, "name": call.tournament.name},
        {"removed": target.username},
        page="players/",
    )


def _enter_list(call: _Call) -> Outcome:
    done = services.entries_import(
        tournament=call.tournament,
        actor=call.actor,
        text=call.data["players"],
        late_bye=call.data.get("late_bye") or "Z",
        override=bool(call.data.get("override")),
        now=call.now,
    )
    return Outcome(
        done.summary(),
        {"added": done.added, "skipped": done.skipped},
        status=201,
        page="players/",
        warnings=done.skipped,
    )


def _add_player(call: _Call) -> Outcome:
    entrant = services.entrant_add(
        tournament=call.tournament,
        actor=call.actor,
        user=call.player("username"),
        late_bye=call.data.get("late_bye") or "Z",
        override=call.data.get("override", False),
        now=call.now,
    )
    name = entrant.user.username
    return Outcome(
        _("%(username)s added.") % {"username": name},
        {"added": name, "first_round": entrant.first_round},
        status=201,
        page="players/",
    )


def _bye(call: _Call) -> Outcome:
    services.bye_request(
        tournament=call.tournament,
        user=call.actor,
        round_number=call.data["round"],
        kind=call.data.get("kind") or "H",
    )
    return Outcome(_("Bye requested."), {"bye": call.data["round"]}, status=201)


def _forbid(call: _Call) -> Outcome:
    first, second = call.player("first"), call.player("second")
    services.forbid_pair(
        tournament=call.tournament,
        actor=call.actor,
        first=first,
        second=second,
        reason=call.data.get("reason", ""),
    )
    return Outcome(
        _("Those two will not be paired."),
        {"forbidden": [first.username, second.username]},
        status=201,
        page="players/",
    )


def _unforbid(call: _Call) -> Outcome:
    first, second = call.player("first"), call.player("second")
    services.forbid_pair_remove(
        tournament=call.tournament, actor=call.actor, first=first, second=second
    )
    return Outcome(
        _("Those two may be paired again."),
        {"allowed": [first.username, second.username]},
        page="players/",
    )


def _grant_bye(call: _Call) -> Outcome:
    said = services.bye_grant(
        tournament=call.tournament,
        actor=call.actor,
        user=call.player("username"),
        round_number=call.data["round"],
        kind=call.data["kind"],
        now=call.now,
    )
    return Outcome(
        said,
        {"granted": call.data["kind"], "round": call.data["round"], "message": said},
        status=201,
        page="players/",
    )


def _paired(call: _Call, round_, *, waiting: str) -> Outcome:
    """The outcome of pairing a round: paired now, or handed to a background job (None)."""
    if round_ is None:
        call.tournament.refresh_from_db()
        number = call.tournament.pairing_requested_round
        return Outcome(waiting, {"round": number, "status": "pairing"}, status=202)
    return Outcome(
        _("Round %(number)s is paired.") % {"number": round_.number},
        {"round": round_.number, "status": round_.status},
        status=201,
        page=f"rounds/{round_.number}/",
    )


def _start(call: _Call) -> Outcome:
    round_ = services.tournament_start(tournament=call.tournament, actor=call.actor, now=call.now)
    return _paired(call, round_, waiting=_("Registration is closed; round 1 is being paired."))


def _pair_next(call: _Call) -> Outcome:
    round_ = services.round_pair_by(tournament=call.tournament, actor=call.actor, now=call.now)
    return _paired(call, round_, waiting=_("The round is being paired in the background."))


def _start_round(call: _Call) -> Outcome:
    round_ = services.round_start(
        tournament_id=call.tournament.pk, number=call.data["round"], actor=call.actor, now=call.now
    )
    return Outcome(
        _("Round %(number)s has started.") % {"number": round_.number},
        {"round": round_.number, "status": round_.status},
        page=f"rounds/{round_.number}/",
    )


def _result(call: _Call) -> Outcome:
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
        {**selectors.board_document(board), "ratings_updating": updating},
        page=f"rounds/{board.round.number}/",
    )


def _cup_lot(call: _Call) -> Outcome:
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
        selectors.board_document(selectors.board_of(call.tournament, board.pk)),
        page=f"rounds/{board.round.number}/",
    )


def _game_result(call: _Call) -> Outcome:
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
    board = selectors.board_of(call.tournament, match_game.board_id)
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
            **selectors.board_document(board),
            "match_game": {"number": match_game.number, "result": match_game.result},
            "ratings_updating": updating,
        },
        page=f"rounds/{board.round.number}/",
    )


def _results(call: _Call) -> Outcome:
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
            "boards": [selectors.board_document(board) for board in boards],
            "ratings_updating": updating,
        },
        page=f"rounds/{rounds[-1]}/" if len(rounds) == 1 else "",
    )


def _report_result(call: _Call) -> Outcome:
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


def _confirm_result(call: _Call) -> Outcome:
    board = services.result_confirm(board=call.board(), actor=call.actor, now=call.now)
    return Outcome(
        _("Board %(number)s: %(result)s confirmed and entered.")
        % {"number": board.number, "result": shown_result(board.result)},
        selectors.board_document(board),
        page=f"rounds/{board.round.number}/",
    )


def _dispute_result(call: _Call) -> Outcome:
    report = services.result_dispute(
        board=call.board(), actor=call.actor, reason=call.data.get("reason", ""), now=call.now
    )
    return Outcome(
        _("Board %(number)s: result disputed; the arbiter decides.")
        % {"number": report.board.number},
        {"board": report.board_id, "state": report.state},
        page=f"rounds/{report.board.round.number}/",
    )


def _add_prize(call: _Call) -> Outcome:
    prize = services.prize_add(
        tournament=call.tournament,
        actor=call.actor,
        kind=call.data.get("kind") or "overall",
        threshold=call.data.get("threshold"),
        club=call.data.get("club", ""),
        amount=call.data.get("amount"),
        label=call.data.get("label", ""),
    )
    return Outcome(
        _("Prize %(position)s added.") % {"position": prize.position},
        {"prize": prize.pk, "position": prize.position},
        status=201,
        page="prizes/",
    )


def _remove_prize(call: _Call) -> Outcome:
    services.prize_remove(tournament=call.tournament, actor=call.actor, prize_id=call.data["prize"])
    return Outcome(_("Prize removed."), {"removed": call.data["prize"]}, page="prizes/")


def _edit_board(call: _Call) -> Outcome:
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
            "board": selectors.board_document(board),
            "moves": done.moves,
            "warnings": done.warnings,
        },
        page=f"rounds/{board.round.number}/",
        warnings=done.warnings,
    )


#: What each action takes (its API request body; a page's form fields).
INPUTS: dict[str, type[serializers.Serializer]] = {
    "register": NoInput,
    "withdraw": WithdrawInput,
    "readmit": UsernameInput,
    "appoint-arbiter": ArbiterInput,
    "enter-list": EntryListInput,
    "remove-arbiter": UsernameInput,
    "add-player": AddPlayerInput,
    "bye": ByeInput,
    "grant-bye": GrantByeInput,
    "forbid": ForbidInput,
    "unforbid": PairInput,
    "start": NoInput,
    "pair-next": NoInput,
    "unpair-round": NoInput,
    "start-round": RoundInput,
    "result": ResultInput,
    "results": ResultsInput,
    "game-result": GameResultInput,
    "cup-lot": CupLotInput,
    "edit-board": EditBoardInput,
    "report-result": ReportInput,
    "confirm-result": BoardInput,
    "dispute-result": DisputeInput,
    "add-prize": PrizeInput,
    "remove-prize": PrizeIdInput,
}
#: The status of each action's success: 201 when it made something, 202 when a background job
#: pairs the round.
STATUSES: dict[str, tuple[int, ...]] = {
    "register": (201,),
    "add-player": (201,),
    "bye": (201,),
    "grant-bye": (201,),
    "forbid": (201,),
    "appoint-arbiter": (201,),
    "enter-list": (201,),
    "report-result": (201,),
    "add-prize": (201,),
    "start": (201, 202),
    "pair-next": (201, 202),
}

#: The actions whose input can be well-formed and still against a rule (422): a player paired
#: with themself, a late correction without a reason.
UNPROCESSABLE = {
    "forbid",
    "edit-board",
    "result",
    "results",
    "game-result",
    "grant-bye",
    "report-result",
}

ACTIONS: dict[str, Callable[[_Call], Outcome]] = {
    "register": _register,
    "withdraw": _withdraw,
    "readmit": _readmit,
    "appoint-arbiter": _appoint_arbiter,
    "remove-arbiter": _remove_arbiter,
    "enter-list": _enter_list,
    "add-player": _add_player,
    "bye": _bye,
    "grant-bye": _grant_bye,
    "forbid": _forbid,
    "unforbid": _unforbid,
    "start": _start,
    "pair-next": _pair_next,
    "unpair-round": _unpair_round,
    "start-round": _start_round,
    "result": _result,
    "results": _results,
    "game-result": _game_result,
    "cup-lot": _cup_lot,
    "edit-board": _edit_board,
    "report-result": _report_result,
    "confirm-result": _confirm_result,
    "dispute-result": _dispute_result,
    "add-prize": _add_prize,
    "remove-prize": _remove_prize,
}
