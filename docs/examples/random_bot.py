#!/usr/bin/env python3
"""A Sumito bot that plays random legal moves: the smallest bot there is (docs/bots.md).

It needs nothing but Python's standard library. Make an account, create an API token on your
settings page, make the account a bot (once, before it plays any game):

    curl -X POST -H "Authorization: Token $TOKEN" https://your.server/api/v1/bot/account/upgrade/

then run it:

    SUMITO_TOKEN=... python docs/examples/random_bot.py --server https://your.server

It listens to its event stream (GET /api/v1/bot/stream/, one JSON event a line), accepts every
challenge addressed to it, and on its turn plays a move chosen at random among the legal moves
the event carries (POST /api/v1/games/{id}/moves/ with the game's version). ``--games N`` stops
after N finished games; without it, it runs until stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request


class Client:
    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body or {}).encode()
        headers = {**self.headers, "Content-Type": "application/json"}
        request = urllib.request.Request(self.server + path, data, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:  # a refusal: {"error": code, "detail": ...}
            return error.code, json.loads(error.read() or b"{}")

    def events(self):
        """The event stream, one decoded event at a time (empty keep-alive lines skipped)."""
        request = urllib.request.Request(self.server + "/api/v1/bot/stream/", headers=self.headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)


def play_turn(client: Client, game: dict, rng: random.Random) -> None:
    """On the bot's turn, a random legal move at the game's version."""
    if not game.get("your_turn") or not game.get("legal_moves"):
        return
    move = rng.choice(game["legal_moves"])["notation"]
    status, answer = client.post(
        f"/api/v1/games/{game['id']}/moves/", {"move": move, "ply": game["version"]}
    )
    if status != 200:  # the game moved on meanwhile (a flag, a resignation): the stream says
        print(f"game {game['id']}: {move} refused: {answer.get('detail')}", file=sys.stderr)


def run(client: Client, games: int | None, rng: random.Random) -> int:
    finished = 0
    for event in client.events():
        kind = event["type"]
        if kind == "challenge":
            challenge = event["challenge"]
            status, answer = client.post(f"/api/v1/challenges/{challenge['id']}/accept/")
            print(f"challenge {challenge['id']}: accepted ({status})", file=sys.stderr)
        elif kind in ("game_start", "game_state"):
            play_turn(client, event["game"], rng)
        elif kind == "game_finish":
            game = event["game"]
            finished += 1
            print(f"game {game['id']} over: {game['result']} ({game['termination']})")
            if games is not None and finished >= games:
                return finished
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--server", default=os.environ.get("SUMITO_SERVER", "http://127.0.0.1:8000")
    )
    parser.add_argument("--token", default=os.environ.get("SUMITO_TOKEN"))
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if not args.token:
        parser.error("give the bot's API token (--token or SUMITO_TOKEN)")
    client, rng = Client(args.server, args.token), random.Random(args.seed)
    finished = 0
    while args.games is None or finished < args.games:
        try:
            finished += run(client, None if args.games is None else args.games - finished, rng)
        except urllib.error.HTTPError as error:  # refused: not a bot, a bad token
            sys.exit(f"the stream was refused ({error.code}): {error.read().decode()}")
        except (urllib.error.URLError, OSError, ValueError) as error:
            print(f"stream lost ({error}); reconnecting", file=sys.stderr)
            time.sleep(2)  # a new stream announces again whatever is still open


if __name__ == "__main__":
    main()
