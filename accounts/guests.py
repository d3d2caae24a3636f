"""Visitors who play the computer without an account (issue 23, "the first minutes").

A visitor's browser session gets a guest account the first time it starts a game against the
computer: a player like any other for the games' services (an unrated game, kept in the archive
under the guest's name), but with no password, never found by a name (``selectors.find_player``
leaves guests out), never rated, and able to act only where a view says so: the computer's
page, and that guest's own moves, resignations and aborts on their games
(``authentication.GuestSessionAuthentication``, on those API views only). The session keeps the
account's id; a new session is a new guest.

A guest's name has a space, which sign-up never gives, so it can be nobody else's.
"""

from __future__ import annotations

import secrets

from .models import User

PREFIX = "Guest "
SESSION_KEY = "sumito_guest"


def guest_of(request) -> User | None:
    """The guest account of this browser session, or None (none yet, or a logged-in player)."""
    if request.user.is_authenticated:
        return None
    return guest_of_session(request.session)


def guest_of_session(session) -> User | None:
    """The guest account a session holds (a page's request or a socket's scope), or None."""
    guest_id = session.get(SESSION_KEY) if session is not None else None
    if guest_id is None:
        return None
    return User.objects.filter(pk=guest_id, is_guest=True, is_active=True).first()


def guest_for(request) -> User:
    """The session's guest account, made on first use."""
    guest = guest_of(request)
    if guest is None:
        guest = User(username=f"{PREFIX}{secrets.token_hex(4)}", is_guest=True)
        guest.set_unusable_password()
        guest.save()
        request.session[SESSION_KEY] = guest.pk
    return guest
