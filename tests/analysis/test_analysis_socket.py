"""The analysis streamed to its owner's page: the site's ASGI application under uvicorn, with the
real channel layer (Redis in the production-shape run). The worker's part runs here, beside the
server, as a worker would: every finished depth reaches the owner's socket (``/ws/me/``) as the
API document, and no one else's."""

import asyncio
import contextlib
import json

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect

from analysis import services
from tests.analysis.test_analysis import WIN_NOW, finished_game
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture
from tests.support import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

MIDDLE_GAME = (
    "b|a1,a2,a3,b1,b2,b3,b4,c3,c4,c5,d4,d5,e5,e6|e4,f5,f6,g5,g6,g7,h6,h7,h8,i7,i8,i9,f4,d3"
)


async def analyses(socket, wait: float = 8.0) -> list[dict]:
    """The analysis documents the socket hears until one is final."""
    seen = []
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), wait))
        if message["type"] != "analysis":
            continue
        seen.append(message["analysis"])
        if message["analysis"]["status"] in ("done", "failed"):
            return seen


@pytest.fixture
def no_queue(monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda name, *args: None)


def test_each_depth_reaches_the_owners_socket_and_no_one_elses(
    api,
    make_player,
    no_queue,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    ann, bob = make_player("ann"), make_player("bob")
    base = asgi_live_server.replace("http://", "ws://")
    ann_cookie, bob_cookie = session_cookie(ann), session_cookie(bob)

    def ask() -> int:
        return services.analysis_request(
            user=ann, position=MIDDLE_GAME, game_id=None, seconds=1.0, now=timezone.now()
        ).pk

    async def run():
        async with (
            connect(
                f"{base}/ws/me/",
                origin=asgi_live_server,
                additional_headers={"Cookie": ann_cookie},
            ) as anns,
            connect(
                f"{base}/ws/me/",
                origin=asgi_live_server,
                additional_headers={"Cookie": bob_cookie},
            ) as bobs,
        ):
            await anns.recv()  # the notifications' snapshot
            await bobs.recv()
            analysis_id = await database_sync_to_async(ask)()
            worker = asyncio.create_task(
                database_sync_to_async(services.analysis_run)(analysis_id=analysis_id)
            )
            heard = await analyses(anns)
            assert await worker is True
            with pytest.raises(TimeoutError):  # bob heard nothing of ann's
                await asyncio.wait_for(bobs.recv(), 0.5)
            return analysis_id, heard

    analysis_id, heard = asyncio.run(run())
    assert {doc["id"] for doc in heard} == {analysis_id}
    assert heard[0]["status"] == "running" and heard[0]["lines"] == []
    depths = [len(doc["lines"]) for doc in heard]
    assert depths == sorted(depths) and depths[-1] >= 2  # depth by depth, as they finish
    in_progress = [doc for doc in heard if doc["status"] == "running" and doc["lines"]]
    assert in_progress, "no depth was pushed before the end"
    final = api(ann).get(f"/api/v1/analysis/{analysis_id}/").json()
    assert heard[-1] == final and final["status"] == "done"


def test_a_game_analysis_and_a_failure_are_pushed_too(
    make_player,
    no_queue,
    monkeypatch,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    game = finished_game(make_player, plies=14)
    owner = game.black
    base = asgi_live_server.replace("http://", "ws://")
    cookie = session_cookie(owner)

    def ask(**kwargs) -> int:
        return services.analysis_request(user=owner, now=timezone.now(), **kwargs).pk

    async def run():
        async with connect(
            f"{base}/ws/me/",
            origin=asgi_live_server,
            additional_headers={"Cookie": cookie},
        ) as socket:
            await socket.recv()
            game_analysis = await database_sync_to_async(ask)(game_id=game.pk)
            await database_sync_to_async(services.analysis_run)(analysis_id=game_analysis)
            game_docs = await analyses(socket)

            def broken(*args, **kwargs):
                raise RuntimeError("the search broke")

            monkeypatch.setattr(services, "Searcher", broken)
            failing = await database_sync_to_async(ask)(position=WIN_NOW, game_id=None, seconds=1.0)
            with contextlib.suppress(RuntimeError):
                await database_sync_to_async(services.analysis_run)(analysis_id=failing)
            failed_docs = await analyses(socket)
            return game_docs, failed_docs

    game_docs, failed_docs = asyncio.run(run())
    final = game_docs[-1]
    assert final["status"] == "done" and final["game"] == game.pk
    assert [e["ply"] for e in final["evaluations"]] == list(range(game.ply + 1))
    assert any(doc["status"] == "running" and doc["evaluations"] for doc in game_docs)  # ply 0, 10
    assert failed_docs[-1]["status"] == "failed"
    assert "the search broke" in failed_docs[-1]["error"]
