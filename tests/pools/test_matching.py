"""Who plays whom in a pool (pools.matching): pure, no database."""

import random
from datetime import UTC, datetime, timedelta

from pools.matching import ANYONE_AFTER, RANGE_GROWTH, RANGE_START, Seeker, accepted_range, pairs

NOW = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


def seeker(id, rating, waited=0.0):
    return Seeker(id, rating, NOW - timedelta(seconds=waited))


def ids(made):
    return [(a.id, b.id) for a, b in made]


def test_the_range_widens_with_waiting_then_takes_anyone():
    assert accepted_range(seeker(1, 1500), NOW) == RANGE_START
    assert accepted_range(seeker(1, 1500, 5), NOW) == RANGE_START + 5 * RANGE_GROWTH
    assert accepted_range(seeker(1, 1500, ANYONE_AFTER), NOW) == float("inf")


def test_two_close_players_play_at_once_and_far_ones_wait():
    assert ids(pairs([seeker(1, 1500), seeker(2, 1580)], NOW)) == [(1, 2)]
    assert pairs([seeker(1, 1500), seeker(2, 1900)], NOW) == []
    # both must accept: one who waited long accepts 1900, the newcomer at 1500 does not
    assert pairs([seeker(1, 1900, 20), seeker(2, 1500)], NOW) == []
    assert ids(pairs([seeker(1, 1900, 20), seeker(2, 1500, 20)], NOW)) == [(1, 2)]
    assert ids(pairs([seeker(1, 2400, ANYONE_AFTER), seeker(2, 900, ANYONE_AFTER)], NOW)) == [
        (1, 2)
    ]


def test_the_longest_waiting_is_served_first_with_the_closest_rating():
    made = pairs([seeker(1, 1500, 10), seeker(2, 1540), seeker(3, 1510), seeker(4, 1530, 1)], NOW)
    assert ids(made) == [(1, 3), (4, 2)]


def test_nobody_plays_twice_or_themself_and_the_order_given_does_not_matter():
    rng = random.Random(7)
    for _ in range(300):
        field = [
            seeker(i, rng.randint(1000, 2200), rng.uniform(0, 40))
            for i in range(rng.randint(0, 15))
        ]
        made = pairs(field, NOW)
        players = [s.id for pair in made for s in pair]
        assert len(players) == len(set(players))
        assert all(a.id != b.id for a, b in made)
        for a, b in made:
            assert abs(a.rating - b.rating) <= min(accepted_range(a, NOW), accepted_range(b, NOW))
        shuffled = field[:]
        rng.shuffle(shuffled)
        assert ids(pairs(shuffled, NOW)) == ids(made)
        # no two left unpaired would accept each other
        left = [s for s in field if s.id not in players]
        for a in left:
            for b in left:
                if a.id < b.id:
                    assert abs(a.rating - b.rating) > min(
                        accepted_range(a, NOW), accepted_range(b, NOW)
                    )
