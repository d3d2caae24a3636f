"""Reads of players."""

from __future__ import annotations

from django.utils.translation import gettext as _

from abalone_site.errors import NotFound

from .models import User


def find_player(username: str | None) -> User | None:
    """The active player called ``username`` (any case, surrounding spaces ignored), or None.

    Every lookup of a player by the name someone typed goes through here, so the rules are the
    same everywhere: usernames are unique whatever their case, and a deactivated account is
    nobody's to challenge, add or look up.
    """
    name = (username or "").strip()
    if not name:
        return None
    return User.objects.filter(username__iexact=name, is_active=True).first()


def player_named(username: str | None) -> User:
    """:func:`find_player`, or :class:`NotFound` naming who was asked for."""
    player = find_player(username)
    if player is None:
        raise NotFound(
            _("There is no player called '%(username)s'.") % {"username": (username or "").strip()}
        )
    return player
