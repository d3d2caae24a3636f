"""The game clock: pure arithmetic, no Django, time passed in as ``now``.

The server never ticks a clock. It stores, per game, what each side had left when the current turn
began and the instant the turn began; remaining time is computed on read. The *deadline* is the
instant the side to move runs out; it is stored on the game so a sweep can find flagged games
without anyone watching.

Two phases:

* **first moves**: until each side has made its first move (ply 0 and ply 1) the main clock does
  not run; instead each side has ``first_move_seconds`` to make its first move. Missing it ends
  the game by abandonment (or abort, for casual games: the caller decides).
* **running**: the side to move is charged ``now - turn_started_at``; a move made in time adds the
  Fischer increment; a move at or after the deadline is not played: the mover lost on time.

**Correspondence** (a base of whole days, :data:`CORRESPONDENCE_DAYS`): the days are a limit per
move, not a budget for the game, as lichess's and Board Game Arena's turn-based clocks are. Each
move made in time gives the mover its full days back for its next turn (no increment, nothing
banked); the first moves get the same days (``first_move_seconds`` is the base). The deadline is
the turn's start plus the days left, stored as for any clock, so the same sweep finds a flag with
nobody online.

Times are integer milliseconds; instants are timezone-aware ``datetime`` values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from games.engine.position import BLACK, WHITE

DAY_SECONDS = 24 * 3600
#: The days a correspondence clock may give each move (lichess's choices).
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)
#: The longest base of a live clock.
LIVE_LIMIT_SECONDS = 6 * 3600


@dataclass(frozen=True)
class TimeControl:
    """Base time and Fischer increment, in seconds; ``base_seconds=None`` means no clock. A base
    of whole days (one of :data:`CORRESPONDENCE_DAYS`, no increment) is a correspondence clock:
    that many days for each move."""

    base_seconds: int | None
    increment_seconds: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.increment_seconds <= 600:
            raise ValueError("increment must be between 0 and 600 seconds")
        if self.base_seconds is None or 0 < self.base_seconds <= LIVE_LIMIT_SECONDS:
            return
        whole_days, rest = divmod(self.base_seconds, DAY_SECONDS)
        if rest or whole_days not in CORRESPONDENCE_DAYS:
            raise ValueError(
                "base time must be between 1 second and 6 hours, or "
                + ", ".join(map(str, CORRESPONDENCE_DAYS))
                + " days a move"
            )
        if self.increment_seconds:
            raise ValueError("a correspondence clock (days a move) has no increment")

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        """``days`` for each move."""
        return cls(days * DAY_SECONDS)

    @property
    def has_clock(self) -> bool:
        return self.base_seconds is not None

    @property
    def days_per_move(self) -> int | None:
        """The days of a correspondence clock; None for a live clock or none."""
        return per_move_days(self.base_seconds)

    @property
    def estimated_seconds(self) -> int:
        """lichess' estimate of a game's length: base + 40 x increment (speed categories)."""
        return (self.base_seconds or 0) + 40 * self.increment_seconds

    def label(self) -> str:
        if self.base_seconds is None:
            return "no clock"
        if self.days_per_move:
            return f"{self.days_per_move}d/move"
        minutes = self.base_seconds / 60
        shown = f"{minutes:g}" if minutes >= 1 else f"{self.base_seconds}s"
        return f"{shown}+{self.increment_seconds}"


@dataclass(frozen=True)
class ClockState:
    """What the server stores: time left for each side when the current turn began."""

    black_ms: int
    white_ms: int
    increment_ms: int
    side_to_move: str
    turn_started_at: datetime
    ply: int
    first_move_ms: int
    running: bool = True
    #: A correspondence clock's days a move, in ms: what a move made in time leaves its mover
    #: (0: a live clock, whose mover keeps what it has left and the increment).
    per_move_ms: int = 0

    def left_at_turn_start(self, side: str) -> int:
        return self.black_ms if side == BLACK else self.white_ms

    @property
    def in_first_moves(self) -> bool:
        return self.ply < 2

    def deadline(self) -> datetime | None:
        """When the side to move runs out (first-move timer during the first moves)."""
        if not self.running:
            return None
        # A correspondence turn's days are what it had at its start, first moves included (a
        # vacation stops and restarts a turn with what was left: games.services.vacation).
        budget = (
            self.first_move_ms
            if self.in_first_moves and not self.per_move_ms
            else self.left_at_turn_start(self.side_to_move)
        )
        return self.turn_started_at + timedelta(milliseconds=budget)

    def remaining_ms(self, side: str, now: datetime) -> int:
        """Main-clock time ``side`` has at ``now`` (never negative)."""
        left = self.left_at_turn_start(side)
        # A correspondence clock's days run from the first move on (they are its first-move
        # time); a live clock's main time waits for the first moves.
        waiting = self.in_first_moves and not self.per_move_ms
        if not self.running or side != self.side_to_move or waiting:
            return left
        return max(0, left - _ms(now - self.turn_started_at))

    def is_flagged(self, now: datetime) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline


@dataclass(frozen=True)
class MoveTiming:
    clock: ClockState
    mover_ms_after: int
    spent_ms: int


class TimeOut(Exception):
    """The move came at or after the deadline: it is not played and the mover lost on time."""


def per_move_days(base_seconds: int | None) -> int | None:
    """The days a move of a clock of ``base_seconds`` (as stored: a validated control), or None
    for a live clock or none."""
    if base_seconds is None or base_seconds <= LIVE_LIMIT_SECONDS:
        return None
    return base_seconds // DAY_SECONDS


def reminder_seconds(days: int) -> int:
    """How long before a correspondence turn's deadline its player is reminded: a quarter of
    the days, at most a day (1 day a move: 6 hours; 2 days: 12 hours; 3 days or more: 24)."""
    return min(DAY_SECONDS, days * DAY_SECONDS // 4)


def first_move_seconds_of(tc: TimeControl, live_seconds: int) -> int:
    """The time each side has for its first move: ``live_seconds`` (the site's or the event's)
    with a live clock, the whole days of a correspondence clock."""
    return tc.base_seconds if tc.days_per_move else live_seconds


def start(*, tc: TimeControl, now: datetime, first_move_seconds: int) -> ClockState:
    base_ms = (tc.base_seconds or 0) * 1000
    return ClockState(
        black_ms=base_ms,
        white_ms=base_ms,
        increment_ms=tc.increment_seconds * 1000,
        side_to_move=BLACK,
        turn_started_at=now,
        ply=0,
        first_move_ms=first_move_seconds * 1000,
        running=True,
        per_move_ms=base_ms if tc.days_per_move else 0,
    )


def after_move(clock: ClockState, *, now: datetime, has_clock: bool = True) -> MoveTiming:
    """Charge the mover and hand the turn over. Raises ``TimeOut`` if the deadline had passed.

    Without a main clock (``has_clock=False``) only the first-move timer applies.
    """
    if clock.is_flagged(now):
        raise TimeOut
    mover = clock.side_to_move
    spent = max(0, _ms(now - clock.turn_started_at))
    left = clock.left_at_turn_start(mover)
    # The main clock starts once both sides have moved.
    timed = has_clock and not clock.in_first_moves
    after = left - spent + clock.increment_ms if timed else left
    if clock.per_move_ms:  # correspondence: the days of the next turn, whatever this one took
        after = clock.per_move_ms
    next_ply = clock.ply + 1
    changes = {"black_ms": after} if mover == BLACK else {"white_ms": after}
    new_clock = replace(
        clock,
        side_to_move=WHITE if mover == BLACK else BLACK,
        turn_started_at=now,
        ply=next_ply,
        running=has_clock or next_ply < 2,
        **changes,
    )
    return MoveTiming(clock=new_clock, mover_ms_after=after, spent_ms=spent)


def stop(clock: ClockState, *, now: datetime) -> ClockState:
    """Freeze the clock at ``now`` (game over): the side to move keeps what it had left."""
    mover = clock.side_to_move
    left = clock.remaining_ms(mover, now)
    changes = {"black_ms": left} if mover == BLACK else {"white_ms": left}
    return replace(clock, running=False, **changes)


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)
