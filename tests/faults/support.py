"""What the fault tests do to the stack from outside: games whose flags fall on time, players
with API tokens, moves over HTTP, tasks sent to the stack's own Redis."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from accounts.services import api_token_create
from games import engine, services
from games.models import Game
from games.options import GameOptions
from ratings.models import RatingChange
from tests.support import wait_for

# The promise (docs/deploy.md): a flag falls within this of its deadline while everything runs,
FLAG_ON_TIME_SECONDS = 2.0
# and within this of the last fault ending.
FLAG_AFTER_FAULT_SECONDS = 10.0


def new_player(make_player, prefix: str):
    return make_player(f"{prefix}{uuid.uuid4().hex[:8]}")


@dataclass
class FlagGame:
    game: Game
    deadline: datetime


def flag_games(make_player, seconds: list[int]) -> list[FlagGame]:
    """One rated game per entry, both first moves made, Black's clock (that many seconds) then
    running out with nobody moving again: only the server can end these games."""
    games = []
    for base in seconds:
        black, white = new_player(make_player, "fb"), new_player(make_player, "fw")
        game = services.game_create(
            black=black,
            white=white,
            options=GameOptions(base, 0, 6, "belgian", True),
            now=timezone.now(),
            first_move_seconds=60,
        )
        for player in (black, white):
            game.refresh_from_db()
            notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
            game = services.game_move_apply(
                game_id=game.pk,
                player=player,
                move=notation,
                expected_ply=game.ply,
                now=timezone.now(),
            )
        game.refresh_from_db()
        games.append(FlagGame(game, game.flag_deadline))
    return games


def wait_flags(games: list[FlagGame], timeout: float = 60.0) -> list[Game]:
    """Wait until every game is over; the games as they ended (a timeout fails the test)."""
    ids = [g.game.pk for g in games]
    done = wait_for(
        lambda: Game.objects.filter(pk__in=ids, status=Game.Status.STARTED).count() == 0,
        timeout,
        every=0.1,
    )
    assert done, f"games still running: {list(Game.objects.filter(pk__in=ids, status='started'))}"
    return list(Game.objects.filter(pk__in=ids).order_by("pk"))


def flag_delays(games: list[FlagGame], *, fault_ended: datetime | None = None) -> list[float]:
    """Each game's delay: from its deadline (or the end of the fault, if the deadline fell in
    it) to its adjudication. Also checks each was adjudicated exactly once: lost on time by
    Black, one end, both rating changes and no more."""
    ended = {g.pk: g for g in wait_flags(games)}
    delays = []
    for flag in games:
        game = ended[flag.game.pk]
        assert (game.status, game.result, game.termination) == ("finished", "0-1", "time")
        assert RatingChange.objects.filter(game=game).count() == 2
        start = max(flag.deadline, fault_ended) if fault_ended else flag.deadline
        delays.append((game.ended_at - start).total_seconds())
    return delays


def unchanged_afterwards(games: list[FlagGame], seconds: float = 2.0) -> None:
    """Nothing ends a game twice: the ends recorded stay as they are a while later."""
    ids = [g.game.pk for g in games]
    before = list(Game.objects.filter(pk__in=ids).values_list("pk", "ended_at", "result"))
    time.sleep(seconds)
    after = list(Game.objects.filter(pk__in=ids).values_list("pk", "ended_at", "result"))
    assert before == after
    assert RatingChange.objects.filter(game_id__in=ids).count() == 2 * len(ids)


def summary(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50_s": round(ordered[len(ordered) // 2], 3),
        "max_s": round(ordered[-1], 3),
    }


class Http:
    """A scripted client of the stack's API, with a player's token."""

    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url
        self.token = token

    @classmethod
    def for_player(cls, base_url: str, player) -> Http:
        _token, key = api_token_create(user=player, name="fault suite")
        return cls(base_url, key)

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 10.0):
        """(status, JSON answer); (0, error text) when the connection failed or the answer
        was cut off."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, text.decode(errors="replace")
        except (OSError, http.client.HTTPException) as error:
            # the process died under the request, before or while answering (IncompleteRead:
            # the headers came, the body was cut off)
            return 0, repr(error)


def send_task(stack, name: str, *args, **options) -> None:
    """Send Celery task ``name`` to the stack's Redis (not the suite's)."""
    from abalone_site.celery import app

    with app.connection_for_write(stack.redis_url) as connection:
        app.send_task(name, args=args, connection=connection, **options)
