"""The spectator count's versions: a count announced late never replaces a newer one."""

from __future__ import annotations

import asyncio
import json

from django.core.cache import cache

from games import watchers
from games.consumers import GameConsumer


def test_each_change_returns_the_count_and_a_later_version():
    game_id = 987_001
    cache.delete(watchers._key(game_id))
    changes = [watchers.watchers_change(game_id, delta) for delta in (+1, +1, -1, -1)]
    assert [count for count, _ in changes] == [1, 2, 1, 0]
    versions = [version for _, version in changes]
    assert versions == sorted(versions) and len(set(versions)) == 4
    assert watchers.watchers_count(game_id) == (0, versions[-1])


def test_a_count_that_would_go_below_zero_starts_again_from_nobody_at_a_later_version():
    game_id = 987_002
    cache.delete(watchers._key(game_id))
    _, first = watchers.watchers_change(game_id, +1)
    cache.delete(watchers._key(game_id))  # the key expired while the socket was open
    count, version = watchers.watchers_change(game_id, -1)
    assert count == 0 and version >= 1
    assert watchers.watchers_count(game_id)[0] == 0
    assert watchers.watchers_change(game_id, +1)[0] == 1


def test_a_plain_count_left_by_an_older_release_is_read_as_version_zero():
    game_id = 987_003
    cache.set(watchers._key(game_id), 3)
    assert watchers.watchers_count(game_id) == (3, 0)
    assert watchers.watchers_change(game_id, -1) == (2, 1)


def test_the_socket_drops_a_count_older_than_the_last_it_passed_on():
    consumer = GameConsumer()
    sent = []

    async def send(text_data=None, bytes_data=None, close=False):
        sent.append(json.loads(text_data)["count"])

    consumer.send = send

    async def deliver(*events):
        for count, version in events:
            await consumer.game_state(watchers.watchers_event(1, count, version))

    # Two spectators left: the count went 2 -> 1 (version 4) -> 0 (version 5), and the two
    # announcements crossed on the way.
    asyncio.run(deliver((2, 3), (0, 5), (1, 4)))
    assert sent == [2, 0]


def test_other_events_pass_whatever_the_count_version():
    consumer = GameConsumer()
    consumer.watchers_version = 10
    sent = []

    async def send(text_data=None, bytes_data=None, close=False):
        sent.append(text_data)

    consumer.send = send
    asyncio.run(consumer.game_state({"type": "game.state", "text": '{"type": "state"}'}))
    assert sent == ['{"type": "state"}']
