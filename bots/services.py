"""Writes of the bots: an account becomes a bot (docs/bots.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict
from games.models import Game
from multiplayer.models import Seat
from tournaments.models import Entrant


def has_played(user: User) -> bool:
    """Whether ``user`` has played, or sits in, any game: two-player, a table, an event."""
    return (
        Game.objects.filter(black=user).exists()
        or Game.objects.filter(white=user).exists()
        or Seat.objects.filter(user=user).exists()
        or Entrant.objects.filter(user=user).exists()
    )


def bot_account_upgrade(*, user: User) -> User:
    """Make ``user``'s account a bot, for good, as lichess does: only before it has played any
    game (a person's games and rating are not a bot's). An admin can mark any account in the
    admin site."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            raise Conflict(_("This account is already a bot."), code="already_bot")
        if has_played(locked):
            raise Conflict(
                _(
                    "Only an account that has played no game can become a bot; this one has "
                    "played or entered games."
                ),
                code="has_played",
            )
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
    user.is_bot = True
    return user
