"""Reads of players: finding one by name, and telling the computer's accounts apart."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.computer_names import PREFIX as COMPUTER_PREFIX
from core.errors import NotFound

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
    return User.objects.filter(username__iexact=name, is_active=True, is_guest=False).first()


def player_named(username: str | None) -> User:
    """:func:`find_player`, or :class:`NotFound` naming who was asked for."""
    player = find_player(username)
    if player is None:
        raise NotFound(
            _("There is no player called '%(username)s'.") % {"username": (username or "").strip()}
        )
    return player


def players_matching(query: str) -> QuerySet[User]:
    """The active players whose username or display name contains ``query`` (any case; all of
    them for an empty query), by username: the player list's page and its API."""
    players = User.objects.filter(is_active=True, is_guest=False).order_by("username")
    if query:
        players = players.filter(Q(username__icontains=query) | Q(display_name__icontains=query))
    return players


# --- games against the computer -------------------------------------------------------------------
# The computer's accounts (``games.computer``) are told by their name: "Sumito level N", with
# spaces, which sign-up never gives (``accounts.computer_names``). A player's page keeps the games
# against them apart from the games against people (``players.selectors.profile.computer_games``).


def computer_accounts() -> QuerySet[User]:
    """The accounts of the computer's levels (those made so far)."""
    return User.objects.filter(username__startswith=COMPUTER_PREFIX)


def against_the_computer(user: User) -> Q:
    """A filter of games: ``user``'s games whose opponent is the computer (a subquery, no
    query of its own). On a computer's own account it finds nothing."""
    computers = computer_accounts().values("pk")
    return Q(black=user, white__in=computers) | Q(white=user, black__in=computers)
