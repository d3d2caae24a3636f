"""Every write to a tournament goes through here, one module per sub-topic:

- :mod:`.setup` -- ``tournament_create``, ``tournament_update`` (settings), ``arbiter_appoint``,
  ``arbiter_remove``;
- :mod:`.entries` -- ``entries_import`` (a pasted or uploaded entry list, guests for players
  without an account), ``guest_claim`` (a guest's entries handed to an account);
- :mod:`.registration` -- ``tournament_register``, ``tournament_withdraw``, ``entrant_readmit``,
  ``entrant_add`` (late entries), ``bye_request``, ``forbid_pair``, ``forbid_pair_remove``;
- :mod:`.rounds` -- ``tournament_start``, ``round_pair``, ``round_pair_by`` (a director),
  ``round_unpair`` (a director takes back a round not yet started),
  ``round_pair_in_background`` (the job), ``round_start``, ``tournament_advance``,
  ``tournaments_move_on``; the draw is :mod:`tournaments.draw`;
- :mod:`.boards` -- ``board_pairing_edit``, ``bye_grant`` (a director's hand edits, audited);
- :mod:`.prizes` -- ``prize_add``, ``prize_remove`` (the prize list; given out by
  :mod:`tournaments.prizes`);
- :mod:`.reports` -- ``result_report``, ``result_confirm``, ``result_dispute`` (players report
  their over-the-board results; the opponent confirms or disputes, an arbiter decides);
- :mod:`.results` -- ``tournament_game_finished`` (a game's end, through :mod:`games.hooks`),
  ``board_result_set`` (a director's result or correction), ``board_record_import``.

Permissions are :mod:`tournaments.permissions`; reads (``entrant_for``, ``pairing_warnings``,
standings) are :mod:`tournaments.selectors`; the director's actions as pages and the API call
them are :mod:`tournaments.actions`.

Lock order, everywhere: the tournament row (``common.locked``) first, then the round, then the
board; rating rows last (``ratings.services``, in user-id order). A server game's end comes in
holding the game's row, which is locked before all of these. Pairing, starting a round and
recording a game's end are idempotent (a duplicated Celery delivery changes nothing).
"""

from tournaments.services.boards import board_pairing_edit, bye_grant
from tournaments.services.cups import armageddon_nominate, cup_lot_drawn, team_cup_lot_drawn
from tournaments.services.entries import EntriesImport, entries_import, guest_claim
from tournaments.services.match_results import match_game_result_set
from tournaments.services.prizes import prize_add, prize_remove
from tournaments.services.registration import (
    bye_request,
    entrant_add,
    entrant_readmit,
    forbid_pair,
    forbid_pair_remove,
    tournament_register,
    tournament_withdraw,
)
from tournaments.services.reports import result_confirm, result_dispute, result_report
from tournaments.services.results import (
    RecordImport,
    board_record_import,
    board_result_set,
    round_results_set,
    tournament_game_finished,
)
from tournaments.services.rounds import (
    round_pair,
    round_pair_by,
    round_pair_in_background,
    round_start,
    round_unpair,
    tournament_advance,
    tournament_start,
    tournaments_move_on,
)
from tournaments.services.setup import (
    MAX_RATING,
    SETTINGS_FIELDS,
    arbiter_appoint,
    arbiter_remove,
    tournament_create,
    tournament_update,
)

__all__ = [
    "match_game_result_set",
    "cup_lot_drawn",
    "team_cup_lot_drawn",
    "armageddon_nominate",
    "EntriesImport",
    "entries_import",
    "guest_claim",
    "prize_add",
    "prize_remove",
    "result_confirm",
    "result_dispute",
    "result_report",
    "MAX_RATING",
    "SETTINGS_FIELDS",
    "RecordImport",
    "arbiter_appoint",
    "arbiter_remove",
    "board_pairing_edit",
    "bye_grant",
    "board_record_import",
    "board_result_set",
    "round_results_set",
    "round_unpair",
    "bye_request",
    "entrant_add",
    "entrant_readmit",
    "forbid_pair",
    "forbid_pair_remove",
    "round_pair",
    "round_pair_by",
    "round_pair_in_background",
    "round_start",
    "tournament_advance",
    "tournament_create",
    "tournament_game_finished",
    "tournament_register",
    "tournament_start",
    "tournament_update",
    "tournament_withdraw",
    "tournaments_move_on",
]
