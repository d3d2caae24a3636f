"""Reads of players: finding one by name, and telling the computer's accounts apart."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from core.errors import NotFound
from games.computer_players import PREFIX as COMPUTER_PREFIX

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


# --- games against the computer -------------------------------------------------------------------
# The computer's accounts (``games.computer``) are told by their name: "Sumito level N", with
# spaces, which sign-up never gives (``games.computer_players``). A player's page keeps the games
# against them apart from the games against people (``ratings.selectors.computer_games``).


def computer_accounts() -> QuerySet[User]:
    """The accounts of the computer's levels (those made so far)."""
    return User.objects.filter(username__startswith=COMPUTER_PREFIX)


def against_the_computer(user: User) -> Q:
    """A filter of games: ``user``'s games whose opponent is the computer (a subquery, no
    query of its own). On a computer's own account it finds nothing."""
    computers = computer_accounts().values("pk")
    return Q(black=user, white__in=computers) | Q(white=user, black__in=computers)
