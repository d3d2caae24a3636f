"""How long the computer thinks on a move, from its clock. Pure, no Django: the clock's values
are passed in (``games.computer`` reads them from the game just before it thinks).

The budget of one move (:func:`thinking_seconds`), all in milliseconds:

- **reserve** = the worker's latency margin (:data:`LATENCY_MARGIN_MS`: what comes between
  reading the clock and the move being written: the search's set-up and overrun, looking up
  the computer's account, playing the move through the move service and committing it) plus,
  while the increment does not pay for it, :data:`QUICKEST_MOVE_MS` for every move it may still
  have to play before the move cap (``max_plies``), so that a game played to the cap at the
  quickest still fits in the time (1+0 with 200 moves to play keeps 30.75 s);
- **usable** = remaining - reserve;
- **share** = usable / moves left + 0.8 x increment, where moves left is an estimate
  (:func:`moves_left`: 50 moves a side at the start, never fewer than 20, and never more than
  the moves to the cap);
- the budget is the share, but never more than a quarter of the usable time (plus the
  increment's share), nor half of what is left beyond the margin (the increment comes only
  after the move), nor the level's own thinking time, nor (during the first moves, when the main
  clock does not run yet) half of what is left of the first-move timer beyond the margin; and
  never less than :data:`MIN_SECONDS`, the least a search needs to finish its first depth.

Time the search does not use stays on the clock, and the increment comes back after every
move, so the budget of the next move is computed afresh from what is left.
"""

from __future__ import annotations

#: What the worker may need between reading the clock and the move being committed, kept in
#: reserve on every move: from reading the clock to the move written, up to 0.45 s beyond the
#: budget was measured on a busy machine (docs/computer.md, "The clock").
LATENCY_MARGIN_MS = 750
#: What a move costs at the least, for the reserve kept for the moves still to come without an
#: increment: the shortest search (:data:`MIN_SECONDS`) and the worker's latency per move
#: (waiting for a worker, loading the game, writing the move: about 0.1 s measured on a busy
#: machine, with now and then a slower one).
QUICKEST_MOVE_MS = 150
#: The least a search is given (it finishes depth 1 in that on a busy machine).
MIN_SECONDS = 0.03
#: The expected length of a game, in moves of one side, and the fewest moves left assumed.
EXPECTED_MOVES = 50
MIN_MOVES_LEFT = 20
#: The share of the increment spent on the move it comes with.
INCREMENT_SHARE = 0.8
#: The most of the usable time one move may take.
MAX_FRACTION = 0.25


def moves_left(ply: int, max_plies: int) -> int:
    """An estimate of the moves the side to move at ``ply`` still has to play: 50 at the start,
    one fewer with each of its moves down to 20, and never more than it can play before the
    move cap (``max_plies``, counted as ``ply``)."""
    to_cap = max(1, (max_plies - ply + 1) // 2)
    expected = max(MIN_MOVES_LEFT, EXPECTED_MOVES - ply // 2)
    return min(expected, to_cap)


def reserve_ms(*, increment_ms: int, ply: int, max_plies: int, margin_ms: int) -> int:
    """What is kept on the clock and never planned to be spent (see the module docstring)."""
    to_cap = max(0, (max_plies - ply + 1) // 2)
    unpaid = max(0, QUICKEST_MOVE_MS - increment_ms)
    return margin_ms + unpaid * to_cap


def thinking_seconds(
    *,
    cap: float,
    remaining_ms: int | None,
    increment_ms: int = 0,
    ply: int = 0,
    max_plies: int = 400,
    first_move_left_ms: int | None = None,
    margin_ms: int = LATENCY_MARGIN_MS,
) -> float:
    """The seconds the search may take on this move.

    ``cap``: the level's own thinking time; ``remaining_ms``: the mover's main clock now (None:
    the game has no clock); ``increment_ms``: its Fischer increment; ``ply``: the plies played
    (after any placement phase) and ``max_plies`` the move cap; ``first_move_left_ms``: during
    the first moves (the main clock not running yet), what is left of the first-move timer;
    ``margin_ms``: the worker's latency margin."""
    cap = max(cap, MIN_SECONDS)
    if remaining_ms is None:
        budget_ms = cap * 1000
    else:
        reserve = reserve_ms(
            increment_ms=increment_ms, ply=ply, max_plies=max_plies, margin_ms=margin_ms
        )
        usable = max(0, remaining_ms - reserve)
        share = usable / moves_left(ply, max_plies) + INCREMENT_SHARE * increment_ms
        budget_ms = min(
            cap * 1000,
            share,
            usable * MAX_FRACTION + INCREMENT_SHARE * increment_ms,
            max(0, remaining_ms - margin_ms) / 2,
        )
    if first_move_left_ms is not None:
        budget_ms = min(budget_ms, max(0, first_move_left_ms - margin_ms) / 2)
    return max(MIN_SECONDS, budget_ms / 1000)
