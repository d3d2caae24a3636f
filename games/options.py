"""What a new game is played with: time control, marbles to win, start, rated.

A challenge, an accepted challenge and a tournament round all create games from a
:class:`GameOptions`; the lobby's form and the API's serializer both read the player's choice
(a preset or a custom clock) through :func:`options_from_choices`, so the two agree on every
default. The rules engine's own per-game settings are a different thing
(:class:`games.engine.GameSettings`: repetition, move cap); these are the server's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from abalone_site.errors import InvalidInput
from games import engine
from games.clock import TimeControl

PRESETS = {
    # name: (label, base seconds, increment seconds, marbles to win)
    "blitz-3+2": ("Blitz 3+2", 180, 2, 4),
    "blitz-5+0": ("Blitz 5+0", 300, 0, 4),
    "rapid-10+0": ("Rapid 10+0", 600, 0, 6),
    "rapid-15+0": ("Rapid 15+0", 900, 0, 6),
    "classical-30+0": ("Classical 30+0", 1800, 0, 6),
}


@dataclass(frozen=True)
class GameOptions:
    """The options of a new game; :meth:`validated` says what is wrong with them, if anything."""

    base_seconds: int | None
    increment_seconds: int = 0
    marbles_to_win: int = engine.MARBLES_TO_WIN_STANDARD
    start: str = "belgian"
    rated: bool = True

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.base_seconds, self.increment_seconds)

    @classmethod
    def of(cls, row: Any) -> GameOptions:
        """The options a challenge or a game stored (``games.models.TimeControlFields``)."""
        return cls(
            row.base_seconds, row.increment_seconds, row.marbles_to_win, row.start, row.rated
        )

    def fields(self) -> dict[str, Any]:
        """These options as the fields of a challenge or a game (``TimeControlFields``)."""
        return {
            "base_seconds": self.base_seconds,
            "increment_seconds": self.increment_seconds,
            "marbles_to_win": self.marbles_to_win,
            "start": self.start,
            "rated": self.rated,
        }

    def validated(self) -> GameOptions:
        """These options, or :class:`InvalidInput` naming the first thing wrong."""
        try:
            has_clock = self.time_control.has_clock
        except ValueError as error:
            raise InvalidInput(f"time control: {error}.", code="invalid_time_control") from error
        if not isinstance(self.marbles_to_win, int) or not 1 <= self.marbles_to_win <= 6:
            raise InvalidInput("marbles_to_win must be 1 to 6 (6 standard, 4 blitz).")
        if self.rated and not has_clock:
            raise InvalidInput("A rated game needs a clock.", code="rated_needs_clock")
        if self.start not in engine.START_NAMES:
            raise InvalidInput(
                f"start must be one of {', '.join(engine.START_NAMES)}, not '{self.start}'.",
                code="invalid_start",
            )
        return self


def options_from_choices(choices: Mapping[str, Any]) -> GameOptions:
    """The options a player chose, from the keys present in ``choices``: ``preset`` (its clock
    and marbles apply where ``base_seconds``, ``increment_seconds`` or ``marbles_to_win`` are
    not given), or a custom clock (``base_seconds``, None for no clock; increment 0 and 6
    marbles unless given); ``start`` and ``rated`` default to "belgian" and rated. Not
    validated: call :meth:`GameOptions.validated`."""
    values: dict[str, Any] = {}
    preset = choices.get("preset")
    if preset:
        if preset not in PRESETS:
            raise InvalidInput(
                f"preset must be one of {', '.join(PRESETS)}, not '{preset}'.",
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
            "Give a preset or base_seconds (null for no clock) and increment_seconds.",
            code="invalid_time_control",
        )
    values.update(
        (name, choices[name])
        for name in ("base_seconds", "increment_seconds", "marbles_to_win", "start", "rated")
        if name in choices
    )
    return GameOptions(**values)
