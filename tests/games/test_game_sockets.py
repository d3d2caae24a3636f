"""The game socket, served by the site's ASGI application under uvicorn: the whole state on
connect, then each change with only the moves after ``moves_after``."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect

from games import engine, selectors, services
from games.models import Game
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - a fixture


def play_first_legal_move(game_id: int, black, white) -> None:
    game = Game.objects.get(pk=game_id)
    player = black if game.side_to_move == "b" else white
    notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    services.game_move_apply(
        game_id=game_id, player=player, move=notation, expected_ply=game.ply, now=timezone.now()
    )


@pytest.mark.django_db(transaction=True)
def test_a_socket_gets_the_whole_state_then_each_change_with_the_moves_after(
    make_player,
    asgi_live_server,  # noqa: F811 (the fixture above)
):
    black, white = make_player("sock_b"), make_player("sock_w")
    game = services.game_create(
        black=black,
        white=white,
        game_settings=services.GameSettings(600, 5, 6, "belgian", True),
        now=timezone.now(),
        first_move_seconds=60,
    )
    play_first_legal_move(game.pk, black, white)
    play_first_legal_move(game.pk, black, white)

    async def watch() -> list[dict]:
        url = asgi_live_server.replace("http://", "ws://") + f"/ws/games/{game.pk}/"
        async with connect(url, origin=asgi_live_server) as socket:
            received = [json.loads(await asyncio.wait_for(socket.recv(), 5))]
            for _ply in range(3):
                await database_sync_to_async(play_first_legal_move)(game.pk, black, white)
                received.append(json.loads(await asyncio.wait_for(socket.recv(), 5)))
            await database_sync_to_async(services.game_draw_offer)(
                game_id=game.pk, player=white, now=timezone.now()
            )
            received.append(json.loads(await asyncio.wait_for(socket.recv(), 5)))
        return received

    first, *updates = asyncio.run(watch())

    assert first["type"] == "state" and "moves_after" not in first["state"]
    assert [m["ply"] for m in first["state"]["moves"]] == [1, 2]
    moves = first["state"]["moves"]
    for update, version in zip(updates, [3, 4, 5, 5], strict=True):
        state = update["state"]
        assert (update["type"], state["version"]) == ("state", version)
        assert state["moves_after"] == version - 1
        assert [m["ply"] for m in state["moves"]] == [version]
        moves = [m for m in moves if m["ply"] <= state["moves_after"]] + state["moves"]
    assert updates[-1]["state"]["draw_offer"] == "w"
    # what the page puts together is the whole state's list
    whole = selectors.game_state(Game.objects.get(pk=game.pk), now=timezone.now())
    assert moves == whole["moves"]
