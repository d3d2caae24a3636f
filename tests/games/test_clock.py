"""The clock as pure arithmetic, with controlled time."""

from datetime import UTC, datetime, timedelta

import pytest

from games import clock

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def started(base=180, increment=2, first_move=30):
    return clock.start(tc=clock.TimeControl(base, increment), now=T0, first_move_seconds=first_move)


def play(state, seconds, has_clock=True):
    return clock.after_move(state, now=at(seconds), has_clock=has_clock).clock


def test_first_moves_run_on_the_first_move_timer_not_the_main_clock():
    state = started()
    assert state.deadline() == at(30)
    assert state.remaining_ms("b", at(20)) == 180_000
    state = play(state, 20)  # Black's first move, 20 s of thought: not charged
    assert state.black_ms == 180_000 and state.side_to_move == "w"
    assert state.deadline() == at(50)  # White's own first-move timer
    state = play(state, 45)
    assert state.white_ms == 180_000
    assert state.deadline() == at(45 + 180)  # Black's main clock now runs


def test_a_move_is_charged_and_gets_the_increment():
    state = play(play(started(), 1), 2)
    timing = clock.after_move(state, now=at(12.5))
    assert timing.spent_ms == 10_500
    assert timing.mover_ms_after == 180_000 - 10_500 + 2_000
    assert timing.clock.black_ms == timing.mover_ms_after
    assert timing.clock.turn_started_at == at(12.5)


def test_remaining_is_computed_on_read():
    state = play(play(started(), 1), 2)
    assert state.remaining_ms("b", at(62)) == 120_000
    assert state.remaining_ms("w", at(62)) == 180_000
    assert state.remaining_ms("b", at(1000)) == 0


def test_a_move_at_or_after_the_deadline_is_not_played():
    state = play(play(started(), 1), 2)
    assert not state.is_flagged(at(181.999))
    assert state.is_flagged(at(182))
    with pytest.raises(clock.TimeOut):
        clock.after_move(state, now=at(182))
    with pytest.raises(clock.TimeOut):
        clock.after_move(started(), now=at(30))  # the first-move timer flags too


def test_increment_is_not_added_to_a_late_move():
    state = play(play(started(base=10, increment=5), 1), 2)
    with pytest.raises(clock.TimeOut):
        clock.after_move(state, now=at(12.001))


def test_stop_freezes_the_side_to_move():
    state = play(play(started(), 1), 2)
    stopped = clock.stop(state, now=at(32))
    assert stopped.black_ms == 150_000 and not stopped.running
    assert stopped.deadline() is None
    assert stopped.remaining_ms("b", at(5000)) == 150_000


def test_without_a_main_clock_only_the_first_moves_are_timed():
    state = clock.start(tc=clock.TimeControl(None), now=T0, first_move_seconds=30)
    state = play(state, 5, has_clock=False)
    assert state.running and state.deadline() == at(35)
    state = play(state, 10, has_clock=False)
    assert not state.running and state.deadline() is None


@pytest.mark.parametrize(("base", "increment"), [(0, 0), (-5, 0), (60, -1), (60, 601)])
def test_bad_time_controls_are_refused(base, increment):
    with pytest.raises(ValueError):
        clock.TimeControl(base, increment)


def test_labels_and_estimates():
    assert clock.TimeControl(180, 2).label() == "3+2"
    assert clock.TimeControl(30, 0).label() == "30s+0"
    assert clock.TimeControl(None).label() == "no clock"
    assert clock.TimeControl(180, 2).estimated_seconds == 260


DAY = 86_400


def correspondence(days=3):
    tc = clock.TimeControl.correspondence(days)
    return clock.start(tc=tc, now=T0, first_move_seconds=clock.first_move_seconds_of(tc, 60))


def test_a_correspondence_clock_gives_each_move_its_days_and_banks_nothing():
    state = correspondence(3)
    assert state.deadline() == at(3 * DAY)  # the first move has the days, not the 60 s
    state = play(state, 2 * DAY)  # Black's first move after two days
    assert state.deadline() == at(5 * DAY)  # White's own three days
    state = play(state, 2 * DAY + 60)  # White answers within a minute
    assert state.black_ms == 3 * DAY * 1000 and state.white_ms == 3 * DAY * 1000
    assert state.deadline() == at(2 * DAY + 60 + 3 * DAY)
    assert state.remaining_ms("b", at(3 * DAY + 60)) == 2 * DAY * 1000
    # A move taking two days and 23 hours leaves the mover three days again, not nine.
    state = play(state, 5 * DAY + 59)
    assert state.black_ms == 3 * DAY * 1000
    assert state.remaining_ms("w", at(5 * DAY + 59)) == 3 * DAY * 1000


def test_a_correspondence_move_after_its_days_is_not_played():
    state = play(play(correspondence(1), 10), 20)
    assert not state.is_flagged(at(20 + DAY - 1))
    with pytest.raises(clock.TimeOut):
        clock.after_move(state, now=at(20 + DAY))
    with pytest.raises(clock.TimeOut):  # the first move's days run out too
        clock.after_move(correspondence(2), now=at(2 * DAY))


@pytest.mark.parametrize("days", clock.CORRESPONDENCE_DAYS)
def test_the_correspondence_clocks_and_their_labels(days):
    tc = clock.TimeControl(days * DAY)
    assert tc == clock.TimeControl.correspondence(days)
    assert tc.days_per_move == days and tc.has_clock
    assert tc.label() == f"{days}d/move"
    assert clock.first_move_seconds_of(tc, 60) == days * DAY
    assert clock.TimeControl(180, 2).days_per_move is None
    assert clock.first_move_seconds_of(clock.TimeControl(180, 2), 60) == 60


@pytest.mark.parametrize(
    ("base", "increment"),
    [(6 * 3600 + 1, 0), (DAY - 1, 0), (4 * DAY, 0), (DAY + 1, 0), (30 * DAY, 0), (DAY, 10)],
)
def test_a_clock_between_six_hours_and_the_days_or_with_an_increment_is_refused(base, increment):
    with pytest.raises(ValueError):
        clock.TimeControl(base, increment)
