"""The names of the computer's accounts: "Sumito level N", with spaces, which sign-up never gives
(usernames are letters, digits and ``@.+-_``). ``games.computer`` makes an account so named for
each level it plays; everything that must tell the computer from a person (the game pages, the
player's page, the records) reads the name here, without importing the games."""

from __future__ import annotations

PREFIX = "Sumito level "


def computer_username(level: int) -> str:
    return f"{PREFIX}{level}"


def level_named(username: str) -> int | None:
    """The level of the computer account called ``username``, or None for any other name."""
    if not username.startswith(PREFIX):
        return None
    number = username[len(PREFIX) :]
    if not (number.isascii() and number.isdigit()) or number != str(int(number)):
        return None
    return int(number)
