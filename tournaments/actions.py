"""The players' and directors' tournament actions, as the pages and the API both take them.

Each action reads its input from a mapping (a page's POST data or the API's JSON), checked by
:data:`INPUTS`; calls one service, which checks who may do it; and says what happened in an
:class:`Outcome`: the message a page shows, the JSON the API answers with and its status, and the
tournament page to go back to. ``tournaments.views.tournament_action`` and
``tournaments.api.TournamentActionView`` only translate.

A new action is one function here (or, for results, in :mod:`tournaments.result_actions`),
taking a :class:`~tournaments.action_call.Call`, added to :data:`ACTIONS`, its input to
:data:`INPUTS` (and a status other than 200 to :data:`STATUSES`); both the pages and the API have
it then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework import serializers

from accounts.models import User
from core.api_errors import flatten_detail
from core.errors import InvalidInput, NotFound
from tournaments import result_actions, services
from tournaments.action_call import Call, Outcome
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
    TeamCupLotInput,
    UsernameInput,
    WithdrawInput,
)
from tournaments.models import Tournament


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
    return handler(Call(tournament, actor, dict(checked.validated_data), now))


def _register(call: Call) -> Outcome:
    entrant = services.tournament_register(
        tournament=call.tournament, user=call.actor, now=call.now
    )
    return Outcome(
        _("You are registered for %(name)s.") % {"name": call.tournament.name},
        {"registered": entrant.user.username},
        status=201,
    )


def _withdraw(call: Call) -> Outcome:
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


def _unpair_round(call: Call) -> Outcome:
    number = services.round_unpair(tournament=call.tournament, actor=call.actor, now=call.now)
    return Outcome(
        _("Round %(number)s unpaired: pair it again when ready.") % {"number": number},
        {"unpaired": number},
    )


def _readmit(call: Call) -> Outcome:
    target = call.player("username")
    services.entrant_readmit(tournament=call.tournament, actor=call.actor, user=target)
    return Outcome(
        _("%(username)s is back in.") % {"username": target.username},
        {"readmitted": target.username},
    )


def _appoint_arbiter(call: Call) -> Outcome:
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


def _remove_arbiter(call: Call) -> Outcome:
    target = call.player("username")
    services.arbiter_remove(tournament=call.tournament, actor=call.actor, user=target)
    return Outcome(
        _("%(username)s is no longer an arbiter of %(name)s.")
        % {"username": target.username, "name": call.tournament.name},
        {"removed": target.username},
        page="players/",
    )


def _enter_list(call: Call) -> Outcome:
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


def _add_player(call: Call) -> Outcome:
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


def _bye(call: Call) -> Outcome:
    services.bye_request(
        tournament=call.tournament,
        user=call.actor,
        round_number=call.data["round"],
        kind=call.data.get("kind") or "H",
    )
    return Outcome(_("Bye requested."), {"bye": call.data["round"]}, status=201)


def _forbid(call: Call) -> Outcome:
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


def _unforbid(call: Call) -> Outcome:
    first, second = call.player("first"), call.player("second")
    services.forbid_pair_remove(
        tournament=call.tournament, actor=call.actor, first=first, second=second
    )
    return Outcome(
        _("Those two may be paired again."),
        {"allowed": [first.username, second.username]},
        page="players/",
    )


def _grant_bye(call: Call) -> Outcome:
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


def _paired(call: Call, round_, *, waiting: str) -> Outcome:
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


def _start(call: Call) -> Outcome:
    round_ = services.tournament_start(tournament=call.tournament, actor=call.actor, now=call.now)
    return _paired(call, round_, waiting=_("Registration is closed; round 1 is being paired."))


def _pair_next(call: Call) -> Outcome:
    round_ = services.round_pair_by(tournament=call.tournament, actor=call.actor, now=call.now)
    return _paired(call, round_, waiting=_("The round is being paired in the background."))


def _start_round(call: Call) -> Outcome:
    round_ = services.round_start(
        tournament_id=call.tournament.pk, number=call.data["round"], actor=call.actor, now=call.now
    )
    return Outcome(
        _("Round %(number)s has started.") % {"number": round_.number},
        {"round": round_.number, "status": round_.status},
        page=f"rounds/{round_.number}/",
    )


def _add_prize(call: Call) -> Outcome:
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


def _remove_prize(call: Call) -> Outcome:
    services.prize_remove(tournament=call.tournament, actor=call.actor, prize_id=call.data["prize"])
    return Outcome(_("Prize removed."), {"removed": call.data["prize"]}, page="prizes/")


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
    "team-cup-lot": TeamCupLotInput,
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

ACTIONS: dict[str, Callable[[Call], Outcome]] = {
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
    "result": result_actions.result,
    "results": result_actions.results,
    "game-result": result_actions.game_result,
    "cup-lot": result_actions.cup_lot,
    "team-cup-lot": result_actions.team_cup_lot,
    "edit-board": result_actions.edit_board,
    "report-result": result_actions.report_result,
    "confirm-result": result_actions.confirm_result,
    "dispute-result": result_actions.dispute_result,
    "add-prize": _add_prize,
    "remove-prize": _remove_prize,
}
