"""The example bot (docs/examples/random_bot.py) plays a whole game through a real server.

A real uvicorn server with the site; the bot is the example script in its own process, talking
HTTP to the event stream and the move endpoint; the person is this test, playing through the API
with the engine's one-ply player so that the game ends by marbles.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from accounts.services import api_token_create
from bots.services import bot_account_upgrade
from games import engine
from games.engine.levels import greedy_move
from games.models import Game, Move
from ratings.models import RatingChange
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 - the fixture
from tests.support import wait_for

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "random_bot.py"
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_stream(settings):
    settings.BOT_STREAM_POLL_SECONDS = 0.05


def _token(user) -> dict:
    return {"Authorization": f"Token {api_token_create(user=user, name='test')[1]}"}


class Client:
    """JSON over HTTP with the standard library, as the example bot talks."""

    def __init__(self, server: str, headers: dict) -> None:
        self.server, self.headers = server, headers

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {**self.headers, "Content-Type": "application/json"}
        request = urllib.request.Request(self.server + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get(self, path: str) -> dict:
        status, document = self.request("GET", path)
        assert status == 200, document
        return document


def test_the_example_bot_plays_a_whole_game_through_the_stream(
    asgi_live_server,  # noqa: F811
    make_player,
    fast_stream,
):
    server = asgi_live_server
    bot = bot_account_upgrade(user=make_player("example_bot"))
    person = make_player("bot_tester")
    bot_process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--server", server, "--games", "1", "--seed", "7"],
        env={"SUMITO_TOKEN": _token(bot)["Authorization"].split()[1], "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        client = Client(server, _token(person))
        status, answer = client.request(
            "POST",
            "/api/v1/challenges/",
            {"opponent": bot.username, "colour": "black", "preset": "rapid-15+0"},
        )
        assert status == 201, answer
        challenge = f"/api/v1/challenges/{answer['id']}/"
        assert wait_for(lambda: client.get(challenge)["game"], 30), "the bot did not accept"
        game_id = client.get(challenge)["game"]
        rng = random.Random(3)
        for _ in range(2000):
            state = client.get(f"/api/v1/games/{game_id}/")
            if state["status"] != "started":
                break
            if state["side_to_move"] != "b":
                version = state["version"]
                wait_for(lambda v=version: client.get(f"/api/v1/games/{game_id}/")["version"] != v)
                continue
            move = greedy_move(engine.Position.from_string(state["position"]), rng)
            status, played = client.request(
                "POST",
                f"/api/v1/games/{game_id}/moves/",
                {"move": move.notation, "ply": state["version"]},
            )
            assert status == 200, played
        out, err = bot_process.communicate(timeout=60)
    finally:
        if bot_process.poll() is None:
            bot_process.kill()
    assert bot_process.returncode == 0, err
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and game.termination == "marbles" and game.result == "1-0"
    assert f"game {game_id} over: 1-0 (marbles)" in out
    bot_moves = Move.objects.filter(game=game, ply__gte=1).count() // 2  # White: odd plies
    assert bot_moves >= 5 and game.white_id == bot.pk
    # Rated, in the bots' pool.
    assert set(RatingChange.objects.filter(game=game).values_list("category", flat=True)) == {"bot"}


def test_open_streams_hold_no_http_thread(asgi_live_server, make_player, settings):  # noqa: F811
    """More streams open than the server has HTTP threads, and it still answers requests."""
    server = asgi_live_server
    bot = bot_account_upgrade(user=make_player("listening_bot"))
    headers = _token(bot)
    opened = []
    stop = threading.Event()

    def listen() -> None:
        request = urllib.request.Request(server + "/api/v1/bot/stream/", headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            opened.append(response.status)
            for _ in response:  # a line at once, then the keep-alive lines
                if stop.is_set():
                    return

    listeners = [threading.Thread(target=listen, daemon=True) for _ in range(6)]
    for thread in listeners:
        thread.start()
    try:
        assert wait_for(lambda: len(opened) == 6, 20) and set(opened) == {200}
        client = Client(server, headers)
        for _ in range(5):
            assert client.get("/api/v1/me/")["is_bot"] is True
    finally:
        stop.set()
