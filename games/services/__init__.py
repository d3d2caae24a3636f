"""Every write to a game goes through here, one module per sub-topic:

- :mod:`.lifecycle` -- ``game_create``, ``game_finish``, ``game_adjudicate``, ``game_current``
  (the game as of now, a fallen flag adjudicated), ``games_sweep_flags``, and what happens
  after the commit (events to browsers, the deadline task);
- :mod:`.moves` -- ``game_move_apply``; its storage is :mod:`games.move_store`;
- :mod:`.player_actions` -- ``game_resign``, ``game_abort``, ``game_draw_offer``,
  ``game_draw_answer``, ``game_claim_flag``;
- :mod:`.chat` -- ``chat_post``, ``chat_mute`` (the players' and the spectators' rooms);
- :mod:`.correspondence` -- ``correspondence_notify`` (your move, reminders: a sweep);
- :mod:`.conditional` -- ``conditional_moves_set`` (a player's "if he plays X, I play Y"),
  ``conditional_moves_pending`` (the sweep's); :mod:`.moves` plays them (``conditional_follow``);
- :mod:`.vacation` -- ``vacation_start``, ``vacation_end``, ``vacations_resume`` and ``vacations_hold`` (the sweep's;
  the reads are ``games.selectors``' ``vacation_current``, ``vacation_left``, ``vacation_summary``);
- :mod:`.challenges` -- ``challenge_create`` (and ``..._from_choices``), ``challenge_accept``,
  ``challenge_decline``, ``challenge_cancel``, ``challenge_rematch``, ``challenges_expire``.

One locked code path per game: every service takes ``SELECT ... FOR UPDATE`` on the game row
(on SQLite the IMMEDIATE transaction serialises writers instead), re-reads the state and checks
the ply the client saw, so two racing requests give one success and one 409. The one shortcut
is the compare-and-set of an ordinary move on PostgreSQL (see :mod:`.moves`). Time is a
parameter (``now``). Events go to browsers after the commit, carrying the new version.

A new kind of player action goes in :mod:`.player_actions`: lock with ``_active_for``, decide,
end the game with ``finish_locked`` or save and call ``after_commit``.
"""

from games.services.challenges import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_create_from_choices,
    challenge_decline,
    challenge_rematch,
    challenges_expire,
)
from games.services.chat import chat_mute, chat_post
from games.services.conditional import conditional_moves_pending, conditional_moves_set
from games.services.correspondence import correspondence_notify
from games.services.lifecycle import (
    game_adjudicate,
    game_adjudicate_unfinished,
    game_create,
    game_current,
    game_finish,
    games_sweep_flags,
)
from games.services.moves import game_move_apply
from games.services.player_actions import (
    game_abort,
    game_claim_flag,
    game_draw_answer,
    game_draw_offer,
    game_resign,
)
from games.services.vacation import (
    vacation_end,
    vacation_start,
    vacations_hold,
    vacations_resume,
)

__all__ = [
    "conditional_moves_pending",
    "conditional_moves_set",
    "challenge_accept",
    "chat_mute",
    "correspondence_notify",
    "vacation_end",
    "vacation_start",
    "vacations_hold",
    "vacations_resume",
    "chat_post",
    "challenge_cancel",
    "challenge_create",
    "challenge_create_from_choices",
    "challenge_decline",
    "challenge_rematch",
    "challenges_expire",
    "game_abort",
    "game_adjudicate",
    "game_adjudicate_unfinished",
    "game_claim_flag",
    "game_create",
    "game_current",
    "game_draw_answer",
    "game_draw_offer",
    "game_finish",
    "game_move_apply",
    "game_resign",
    "games_sweep_flags",
]
