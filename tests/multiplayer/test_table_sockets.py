"""The table socket under uvicorn: every seat's and every spectator's socket gets the whole
table on connect and after each move, seat and end; the lobby's socket hears of tables."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect

from multiplayer import services
from multiplayer.models import Table
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.multiplayer.test_tables import PUSH_OFF_LINE


async def next_table(socket) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if message["type"] == "table":
            return message["table"]


def move(table_id: int, users: dict, notation: str) -> None:
    table = Table.objects.get(pk=table_id)
    services.table_move(
        table_id=table_id,
        user=users[table.position[0]],
        move=notation,
        expected_ply=table.ply,
        now=timezone.now(),
    )


@pytest.mark.django_db(transaction=True)
def test_sockets_of_players_and_spectators_follow_the_table(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    ann, bob, cid = (make_player(n) for n in ("s_ann", "s_bob", "s_cid"))
    table = services.table_create(
        creator=ann, players=3, base_seconds=600, colour="b", now=timezone.now()
    )
    users = {"b": ann, "w": bob, "r": cid}
    base = asgi_live_server.replace("http://", "ws://")

    async def watch():
        async with (
            connect(f"{base}/ws/tables/{table.pk}/", origin=asgi_live_server) as one,
            connect(f"{base}/ws/tables/{table.pk}/", origin=asgi_live_server) as two,
            connect(f"{base}/ws/tables/", origin=asgi_live_server) as lobby,
        ):
            first = await next_table(one)
            assert first["status"] == "open" and first["ply"] == 0
            await next_table(two)
            for user, colour in ((bob, "w"), (cid, "r")):
                await database_sync_to_async(services.table_join)(
                    table_id=table.pk, user=user, colour=colour, now=timezone.now()
                )
            heard = json.loads(await asyncio.wait_for(lobby.recv(), 5))
            assert heard == {"type": "tables"}
            seen = []
            for notation in PUSH_OFF_LINE[:3]:
                await database_sync_to_async(move)(table.pk, users, notation)
            while not seen or seen[-1]["ply"] < 3:
                seen.append(await next_table(two))
            return seen

    seen = asyncio.run(watch())
    assert seen[-1]["status"] == "started" and seen[-1]["side_to_move"] == "b"
    assert [m["notation"] for m in seen[-1]["moves"]] == PUSH_OFF_LINE[:3]
    assert len(seen[-1]["positions"]) == 4
