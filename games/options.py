"""What a new game is played with: time control, marbles to win, start, rated.

A challenge, an accepted challenge and a tournament round all create games from a
:class:`GameOptions`; the lobby's form and the API's serializer both read the player's choice
(a preset or a custom clock) through :func:`options_from_choices`, so the two agree on every
default. The rules engine's own per-game settings are a different thing
(:class:`games.engine.GameSettings`: repetition, move cap); these are the server's.

Starts (:data:`STARTS`): the engine's named starts (``standard``, the default of casual play as
in the rule books; ``belgian`` and ``german``, the tournament daisies; ``placement``, the empty
board of the placement variant) and ``custom``, a position string given as ``start_position``.
A custom start is refused, with a 422 naming the problem, when the string does not parse, when
a side has already lost ``marbles_to_win`` marbles, or when the side to move cannot move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from core.errors import InvalidInput, Unprocessable, engine_text
from games import engine
from games.clock import CORRESPONDENCE_DAYS, DAY_SECONDS, TimeControl

PRESETS = {
    # name: (label, base seconds, increment seconds, marbles to win)
    "blitz-3+2": ("Blitz 3+2", 180, 2, 4),
    "blitz-5+0": ("Blitz 5+0", 300, 0, 4),
    "rapid-10+0": ("Rapid 10+0", 600, 0, 6),
    "rapid-15+0": ("Rapid 15+0", 900, 0, 6),
    "classical-30+0": ("Classical 30+0", 1800, 0, 6),
    # Correspondence: days for each move (games.clock), rated in a category of their own.
    **{
        f"correspondence-{days}d": (f"Correspondence {days}d", days * DAY_SECONDS, 0, 6)
        for days in CORRESPONDENCE_DAYS
    },
}
#: The presets of live clocks (the computer's page offers these).
LIVE_PRESETS = tuple(key for key, (_l, base, _i, _m) in PRESETS.items() if base < DAY_SECONDS)

CUSTOM = "custom"
#: Every start a game may be given (``games.models.START_CHOICES`` labels them).
STARTS = (*engine.START_NAMES, CUSTOM)
#: The start of a casual challenge when the players choose none (the rule books' start).
DEFAULT_START = "standard"
#: The error codes of a refused custom start (the pages show them on the position's field).
START_POSITION_ERRORS = (
    "start_position_missing",
    "start_position_not_custom",
    "invalid_start_position",
)


def custom_start(text: str, *, marbles_to_win: int) -> engine.Position:
    """The position a custom start's string gives, or :class:`Unprocessable` naming what is
    wrong with it: not a position string (a bad cell, a cell listed twice or for both sides,
    more than 14 marbles of a side), a side that has already lost ``marbles_to_win`` marbles,
    or a side to move without a legal move."""
    text = (text or "").strip()
    if not text:
        raise Unprocessable(
            _(
                "A custom start needs start_position: a position string such as b|a1,a2,...|i9,... (side to move, Black's cells, White's cells)."
            ),
            code="start_position_missing",
        )
    try:
        position = engine.Position.from_string(text)
        engine.GameSettings(start=position.to_string(), marbles_to_win=marbles_to_win)
    except engine.EngineError as error:
        raise Unprocessable(
            _("Custom start position: %(error)s.") % {"error": engine_text(error)},
            code="invalid_start_position",
        ) from error
    if not position.has_legal_move():
        side = engine.COLOUR_NAMES[position.side_to_move]
        raise Unprocessable(
            _("Custom start position: %(side)s is to move and has no legal move.") % {"side": side},
            code="invalid_start_position",
        )
    return position


@dataclass(frozen=True)
class GameOptions:
    """The options of a new game; :meth:`validated` says what is wrong with them, if anything."""

    base_seconds: int | None
    increment_seconds: int = 0
    marbles_to_win: int = engine.MARBLES_TO_WIN_STANDARD
    start: str = DEFAULT_START
    rated: bool = True
    #: ``start`` custom: the position string; blank for every other start.
    start_position: str = ""

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.base_seconds, self.increment_seconds)

    @classmethod
    def of(cls, row: Any) -> GameOptions:
        """The options a challenge or a game stored (``games.models.TimeControlFields``; a
        game's ``start_position`` is the string of any start, kept here only for a custom one)."""
        custom = row.start_position if row.start == CUSTOM else ""
        return cls(
            row.base_seconds,
            row.increment_seconds,
            row.marbles_to_win,
            row.start,
            row.rated,
            custom,
        )

    def fields(self) -> dict[str, Any]:
        """These options as the fields of a challenge or a game (``TimeControlFields``)."""
        return {
            "base_seconds": self.base_seconds,
            "increment_seconds": self.increment_seconds,
            "marbles_to_win": self.marbles_to_win,
            "start": self.start,
            "rated": self.rated,
            "start_position": self.start_position,
        }

    def start_board(self) -> engine.Position:
        """The position the game starts from (options already :meth:`validated`)."""
        if self.start == CUSTOM:
            return engine.Position.from_string(self.start_position)
        return engine.start_position(self.start)

    def validated(self) -> GameOptions:
        """These options (a custom start's string made canonical), or :class:`InvalidInput` /
        :class:`Unprocessable` naming the first thing wrong."""
        try:
            has_clock = self.time_control.has_clock
        except ValueError as error:
            raise InvalidInput(
                _("time control: %(error)s.") % {"error": error}, code="invalid_time_control"
            ) from error
        if not isinstance(self.marbles_to_win, int) or not 1 <= self.marbles_to_win <= 6:
            raise InvalidInput(_("marbles_to_win must be 1 to 6 (6 standard, 4 blitz)."))
        if self.rated and not has_clock:
            raise InvalidInput(_("A rated game needs a clock."), code="rated_needs_clock")
        if self.start not in STARTS:
            raise InvalidInput(
                _("start must be one of %(starts)s, not '%(start)s'.")
                % {"starts": ", ".join(STARTS), "start": self.start},
                code="invalid_start",
            )
        if self.start != CUSTOM:
            if (self.start_position or "").strip():
                raise Unprocessable(
                    _("start_position is given only with start 'custom', not '%(start)s'.")
                    % {"start": self.start},
                    code="start_position_not_custom",
                )
            return replace(self, start_position="") if self.start_position else self
        position = custom_start(self.start_position, marbles_to_win=self.marbles_to_win)
        return replace(self, start_position=position.to_string())


def options_from_choices(choices: Mapping[str, Any]) -> GameOptions:
    """The options a player chose, from the keys present in ``choices``: ``preset`` (its clock
    and marbles apply where ``base_seconds``, ``increment_seconds`` or ``marbles_to_win`` are
    not given), or a custom clock (``base_seconds``, None for no clock; increment 0 and 6
    marbles unless given); ``start`` and ``rated`` default to "standard" and rated, and
    ``start_position`` (a custom start's string) to none. Not validated: call
    :meth:`GameOptions.validated`."""
    values: dict[str, Any] = {}
    preset = choices.get("preset")
    if preset:
        if preset not in PRESETS:
            raise InvalidInput(
                _("preset must be one of %(presets)s, not '%(preset)s'.")
                % {"presets": ", ".join(PRESETS), "preset": preset},
                code="invalid_preset",
            )
        _label, base_seconds, increment_seconds, marbles_to_win = PRESETS[preset]
        values = {
            "base_seconds": base_seconds,
            "increment_seconds": increment_seconds,
            "marbles_to_win": marbles_to_win,
        }
    elif "base_seconds" not in choices:
        raise InvalidInput(
            _("Give a preset or base_seconds (null for no clock) and increment_seconds."),
            code="invalid_time_control",
        )
    values.update(
        (name, choices[name])
        for name in (
            "base_seconds",
            "increment_seconds",
            "marbles_to_win",
            "start",
            "rated",
            "start_position",
        )
        if name in choices
    )
    return GameOptions(**values)
