"""Domain errors of the rules engine.

Every error is a :class:`EngineError` (a ``ValueError``) carrying a user-facing message and a short
machine ``code`` (e.g. ``"pac"``, ``"blocked"``, ``"syntax"``) that an API can return as-is.  Any
other exception escaping the engine is a bug.

Messages are English templates with named parameters, shown in the reader's language by the site
(``core.messages``: :class:`~core.messages.MessageError`, :class:`~core.messages.Text`,
:class:`~core.messages.Term`, :func:`~core.messages.gettext_noop`). The engine imports nothing of
Django.
"""

from __future__ import annotations

from core.messages import MessageError


class EngineError(MessageError):
    """Base class of the rules engine's errors: bad input or a rule violation."""


class IllegalMove(EngineError):
    """A move that cannot be parsed or is not legal in the position.

    The message has the form ``<text as given, lower-cased>: <reason>``.
    """

    default_code = "illegal"


class PositionError(EngineError):
    """A position string (or a set of cells) that does not describe a legal layout."""

    default_code = "bad_position"


class GameOverError(EngineError):
    """An attempt to play on, or to end, a game that is already finished."""

    default_code = "game_over"


class SettingsError(EngineError):
    """Game settings outside their allowed ranges."""

    default_code = "bad_settings"


class RecordError(EngineError):
    """A game record that cannot be read: malformed text or an illegal move in it."""

    default_code = "bad_record"
