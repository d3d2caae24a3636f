"""The benchmark's players: a small keep-alive HTTP/1.1 client on asyncio streams, players with
tokens, and games played or watched as two browsers would."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import orjson

from bench.live.stack import BenchError, Services, tail

# --- a small keep-alive HTTP/1.1 client on asyncio streams --------------------------------------


class HttpError(Exception):
    pass


class Connection:
    """One keep-alive connection; requests on it are sequential (one game's moves are)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.headers: list[str] = []  # sent with every request ("Cookie: ...")
        self.response_headers: dict[str, str] = {}  # the last answer's, names in lower case

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, *, token: str | None = None, body: dict | None = None
    ) -> tuple[int, dict]:
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._request(method, path, token, body)
            except (ConnectionError, asyncio.IncompleteReadError, HttpError):
                await self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _request(
        self, method: str, path: str, token: str | None, body: dict | None
    ) -> tuple[int, dict]:
        assert self.reader is not None and self.writer is not None
        payload = orjson.dumps(body) if body is not None else b""
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Accept: application/json",
            "Connection: keep-alive",
            f"Content-Length: {len(payload)}",
        ]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Token {token}")
        head += self.headers
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise HttpError("connection closed before a response")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        self.response_headers = headers
        if "content-length" in headers:
            raw = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readline()
            raw = b"".join(chunks)
        else:
            raw = await self.reader.read()
            await self.close()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        try:
            data = orjson.loads(raw) if raw else {}  # a client in C, as a browser's would be
        except ValueError:
            data = {"error": "not_json", "detail": raw[:200].decode(errors="replace")}
        return status, data


# --- players and games -------------------------------------------------------------------------


@dataclass
class Player:
    username: str
    key: str
    session: str = ""  # a logged-in session's key (the WebSocket authenticates by its cookie)


def make_players(count: int, prefix: str, *, sessions: bool = False) -> list[Player]:
    """Players with an unusable password (no slow hashing) and one API token each; with
    ``sessions``, also a logged-in session each, as a browser that logged in has."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from accounts.services import api_token_create

    players = []
    for index in range(count):
        user = User.objects.create_user(username=f"{prefix}{index:04d}", password=None)
        _token, key = api_token_create(user=user, name="bench")
        session = ""
        if sessions:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            session = store.session_key
        players.append(Player(user.username, key, session))
    return players


async def start_game(
    conn: Connection, black: Player, white: Player, settings: dict, errors: Counter
) -> dict | None:
    """Challenge + accept; None (the error counted) if the server refuses either."""
    status, challenge = await conn.request(
        "POST",
        "/api/v1/challenges/",
        token=black.key,
        body={**settings, "opponent": white.username, "colour": "black"},
    )
    if status != 201:
        errors[f"challenge {status} {challenge.get('error', '?')}"] += 1
        return None
    status, state = await conn.request(
        "POST", f"/api/v1/challenges/{challenge['id']}/accept/", token=white.key
    )
    if status != 201:
        errors[f"accept {status} {state.get('error', '?')}"] += 1
        return None
    return state


def pick_move(state: dict, rng: random.Random) -> str:
    """A seeded random legal move, preferring moves that push nothing (games last longer)."""
    moves = state["legal_moves"]
    quiet = [move for move in moves if not move.get("pushed")]
    return rng.choice(quiet or moves)["notation"]


@dataclass
class MoveStats:
    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    setup_errors: Counter = field(default_factory=Counter)
    games_started: int = 0
    peak_connections: int = 0
    games_over: int = 0
    first_at: float | None = None
    last_at: float = 0.0
    cpu: dict = field(default_factory=dict)
    speed_ms: tuple[float, float] = (0.0, 0.0)  # speed_probe() before and after the phase
    answered_at: list[float] = field(default_factory=list)
    spans: list[tuple[float, float]] = field(default_factory=list)  # per game: first, last
    # --watch: when each measured move was sent, (game, version after it) -> (time, mover),
    # and when each state reached each socket, (game, colour, version) -> time
    sent: dict = field(default_factory=dict)
    arrived: dict = field(default_factory=dict)
    sockets: int = 0
    socket_errors: Counter = field(default_factory=Counter)
    # --spectators: each game's spectators' labels ("s0", ...), and the web processes' resident
    # memory (bytes) before the phase's sockets were opened and once they all were
    spectators: dict = field(default_factory=dict)
    spectator_sockets: int = 0
    web_memory: tuple[int, int] = (0, 0)

    def record(self, started: float, finished: float) -> None:
        """A measured move: sent at ``started``, answered at ``finished``."""
        if self.first_at is None:
            self.first_at = started
        self.last_at = max(self.last_at, finished)
        self.answered_at.append(finished)
        self.latencies_ms.append((finished - started) * 1000)

    def event_delays_ms(self) -> tuple[list[float], int]:
        """How long each measured move took to reach the opponent's socket, from the moment
        its POST was sent; and how many moves never reached it."""
        return self._arrivals(lambda _game_id, mover: ("w" if mover == "b" else "b",))

    def spectator_delays_ms(self) -> tuple[list[float], int]:
        """How long each measured move took to reach each spectator's socket of its game, from
        the moment it was sent; and how many (move, spectator) never arrived."""
        return self._arrivals(lambda game_id, _mover: self.spectators.get(game_id, ()))

    def _arrivals(self, receivers) -> tuple[list[float], int]:
        """The delays (ms) of each measured move to each socket ``receivers(game, mover)``
        names, and how many of those never heard it."""
        delays, missing = [], 0
        for (game_id, version), (sent_at, mover) in self.sent.items():
            for label in receivers(game_id, mover):
                arrived = self.arrived.get((game_id, label, version))
                if arrived is None:
                    missing += 1
                else:
                    delays.append((arrived - sent_at) * 1000)
        return delays, missing

    @property
    def wall(self) -> float:
        return (self.last_at - self.first_at) if self.latencies_ms and self.first_at else 0.0

    @property
    def steady_rate(self) -> float:
        """Moves answered per second while every game was playing: from the last game's first
        move to the first game's last, leaving out the ramps where games start and end."""
        if not self.spans:
            return 0.0
        start = max(first for first, _ in self.spans)
        end = min(last for _, last in self.spans)
        if end - start < 1.0:
            return len(self.answered_at) / self.wall if self.wall else 0.0
        return sum(1 for t in self.answered_at if start <= t <= end) / (end - start)


class Pace:
    """When a game sends its next move: at once (closed loop), or on a schedule that offers
    ``rate`` moves/s over ``games`` games (each game every games/rate s on average, 0.5-1.5x
    that, staggered at the start; a game whose answer comes late sends at once)."""

    def __init__(self, rate: float | None, games: int):
        self.interval = games / rate if rate else 0.0

    async def first(self, rng: random.Random) -> float:
        if self.interval:
            await asyncio.sleep(rng.uniform(0, self.interval))
        return time.monotonic()

    async def next(self, due: float, rng: random.Random) -> float:
        if not self.interval:
            return time.monotonic()
        due += self.interval * rng.uniform(0.5, 1.5)
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
            return due
        return time.monotonic()  # behind schedule: send now, do not bunch up


async def play_game(
    conns: dict[str, Connection],
    state: dict,
    players: dict[str, Player],
    plies: int,
    rng: random.Random,
    stats: MoveStats | None,
    pace: Pace,
) -> dict:
    """Play until ``plies``; each player sends on their own connection, as two browsers do.
    With ``stats`` None (the warm-up) nothing is recorded."""
    game_id = state["id"]
    path = f"/api/v1/games/{game_id}/moves/"
    due = await pace.first(rng)
    span_start = None
    while state["status"] == "started" and state["legal_moves"] and state["version"] < plies:
        colour = state["side_to_move"]
        body = {"move": pick_move(state, rng), "ply": state["version"]}
        started = time.perf_counter()
        if stats is not None:
            stats.sent[(game_id, state["version"] + 1)] = (started, colour)
        status, answer = await conns[colour].request(
            "POST", path, token=players[colour].key, body=body
        )
        finished = time.perf_counter()
        if stats is not None:
            stats.record(started, finished)
            if span_start is None:
                span_start = started
        if status == 200:
            state = answer
        else:
            if stats is not None:
                stats.errors[f"{status} {answer.get('error', '?')}"] += 1
            for attempt in range(10):  # refetch the state (as a client does) and play on
                status, fetched = await conns[colour].request("GET", f"/api/v1/games/{game_id}/")
                if status == 200:
                    state = fetched
                    break
                if stats is not None:
                    stats.errors[f"GET {status} {fetched.get('error', '?')}"] += 1
                await asyncio.sleep(0.1 * (attempt + 1))
            else:
                return state
        due = await pace.next(due, rng)
    if stats is not None:
        if span_start is not None:
            stats.spans.append((span_start, time.perf_counter()))
        if state["status"] != "started":
            stats.games_over += 1
    return state


async def watch_game(
    port: int, game_id: int, colour: str, player: Player, stats: MoveStats, opened: asyncio.Event
) -> None:
    """A player's browser tab on the game: its WebSocket, logged in by the session cookie (with
    the compression browsers ask for), and the time every state reaches it. ``opened`` is set
    once the first state arrived: the socket is then in the game's group."""
    from websockets.asyncio.client import connect

    try:
        async with connect(
            f"ws://127.0.0.1:{port}/ws/games/{game_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={player.session}"},
            ping_interval=None,
            max_size=None,
        ) as socket:
            async for raw in socket:
                arrived = time.perf_counter()
                message = orjson.loads(raw)
                if message.get("type") == "state":
                    key = (game_id, colour, message["state"]["version"])
                    stats.arrived.setdefault(key, arrived)
                    opened.set()
                elif message.get("type") == "error":
                    stats.socket_errors[f"error {message.get('error')}"] += 1
    except asyncio.CancelledError:
        raise
    except Exception as error:  # noqa: BLE001 - counted and reported: the socket is the measure
        stats.socket_errors[type(error).__name__] += 1
    finally:
        opened.set()  # a socket that failed must not hold up the phase


class TabSocket:
    """One game socket of a browser tab (``path`` on ``127.0.0.1:port``, with ``cookie``): it
    keeps the newest state it heard (the whole state on connect, then each event merged into
    it: what changed, the legal moves only while they are sent) and matches each move it sends
    with its answer on the same socket, ``{"type": "ack", ...}`` or ``{"type": "error", ...}``
    naming the move's ply. ``heard(message, arrived)`` sees every message first.

    With ``quiet`` (seconds) it also does what the pages do (``whenQuiet`` in ``static/js/socket.js``):
    a socket that hears no state for ``quiet`` while the game goes on asks for the whole state
    (the pause doubling while nothing moves), and so does one that sees a gap in the versions
    (an event lost with the web host that was to send it)."""

    QUIET_MAX = 300.0

    def __init__(self, port: int, path: str, cookie: str, label: str, quiet: float | None = None):
        self.port, self.path, self.cookie, self.label = port, path, cookie, label
        self.state: dict | None = None
        self.changed = asyncio.Event()
        self.answers: dict[int, asyncio.Future] = {}
        self.socket = None
        self.reader: asyncio.Task | None = None
        self.served_by = ""  # the balancer's X-Sumito-Host, when there is one
        self.quiet_base = self.quiet = quiet
        self.asked = ""  # why the whole state was asked for ("quiet", "gap"), until it comes
        self.heard_at = time.monotonic()

    async def _connect(self):
        from websockets.asyncio.client import connect

        socket = await connect(
            f"ws://127.0.0.1:{self.port}{self.path}",
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Cookie": self.cookie},
            ping_interval=None,
            max_size=None,
            open_timeout=5,
        )
        self.served_by = socket.response.headers.get("X-Sumito-Host", "")
        return socket

    async def open(self) -> None:
        self.socket = await self._connect()
        self.reader = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()

    async def _run(self) -> None:
        """Read until the socket closes (a subclass may reconnect)."""
        try:
            await self._read()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - the subclass counts it
            self.lost(error)
        finally:
            self._drop_answers("socket closed")

    def lost(self, error: Exception) -> None:
        """The socket closed under the reader."""

    def _drop_answers(self, why: str) -> None:
        for future in self.answers.values():
            if not future.done():
                future.set_result({"type": "error", "error": why})
        self.answers.clear()
        self.changed.set()

    async def _read(self) -> None:
        while True:
            waiting = (
                self.quiet is not None
                and self.state is not None
                and self.state.get("status") == "started"
            )
            try:
                raw = await asyncio.wait_for(self.socket.recv(), self.quiet if waiting else None)
            except TimeoutError:
                await self._ask("quiet")
                self.quiet = min(self.QUIET_MAX, self.quiet * 2)
                continue
            self._take(orjson.loads(raw), time.perf_counter())

    async def _ask(self, why: str) -> None:
        self.asked = self.asked or why
        await self.socket.send('{"type": "refresh"}')

    def heard(self, message: dict, arrived: float) -> None:
        """Every message, before it is taken."""

    def recovered(self, versions: list[int]) -> None:
        """A whole state asked for came: it brought ``versions``, never heard as events (the
        last of them is heard in this state)."""

    def _take(self, message: dict, arrived: float) -> None:
        self.heard(message, arrived)
        kind = message.get("type")
        if kind == "state":
            self._take_state(message["state"])
            self.changed.set()
        elif kind in ("ack", "error") and message.get("ply") in self.answers:
            future = self.answers.pop(message["ply"])
            if not future.done():
                future.set_result(message)

    def _take_state(self, state: dict) -> None:
        event = "moves_after" in state
        had = self.state["version"] if self.state is not None else None
        if had is not None and state["version"] < had:
            return  # overtaken
        if self.quiet is not None and had is not None:
            if event and state["version"] > had + 1:  # an event between was lost
                asyncio.get_running_loop().create_task(self._ask("gap"))
                return
            if not event and self.asked:
                if state["version"] > had or self.asked == "gap":
                    self.recovered(list(range(had + 1, state["version"] + 1)))
                self.asked = ""
        if self.quiet is not None and (had is None or state["version"] > had):
            self.quiet = self.quiet_base  # the game moved: the quiet is counted from the start
        if event and self.state is not None:
            state = {**self.state, "legal_moves": [], **state}
        self.state = state
        self.heard_at = time.monotonic()

    async def at_least(self, version: int, timeout: float = 10.0) -> dict:
        """The newest state heard once it is at ``version`` or later (or the game is over)."""
        deadline = time.monotonic() + timeout
        while self.state is None or (
            self.state["version"] < version and self.state["status"] == "started"
        ):
            if self.reader is not None and self.reader.done():
                raise BenchError(f"{self.label}: the socket closed")
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label} did not hear version {version}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.state

    async def move(self, notation: str, ply: int) -> dict:
        """Send the move on the socket; its ack or refusal (an error "socket lost" when the
        socket went under the send, "no answer" after 30 s)."""
        future = asyncio.get_running_loop().create_future()
        self.answers[ply] = future
        try:
            await self.socket.send(
                orjson.dumps({"type": "move", "move": notation, "ply": ply}).decode()
            )
        except Exception:  # noqa: BLE001 - the host died under the send
            self.answers.pop(ply, None)
            # what this socket heard is no longer the news: wait for the next socket's state
            # (or for the reader to end), never play again from it without the reader's turn
            self.state = None
            return {"type": "error", "error": "socket lost"}
        try:
            return await asyncio.wait_for(future, 30.0)
        except TimeoutError:
            self.answers.pop(ply, None)
            return {"type": "error", "error": "no answer"}

    async def refresh(self) -> dict:
        await self.socket.send('{"type": "refresh"}')
        self.changed.clear()
        await asyncio.wait_for(self.changed.wait(), 10.0)
        return self.state


class GameSocket(TabSocket):
    """A player's browser tab that plays over the game's WebSocket (``--moves-over socket``):
    logged in by the session cookie, with the compression browsers ask for; records when each
    version arrived (``stats.arrived``) and the socket's errors. Without a player it is a
    spectator's tab, not logged in (``colour`` is then its label, "s0", ...)."""

    def __init__(
        self, port: int, game_id: int, colour: str, player: Player | None, stats: MoveStats
    ):
        cookie = f"sessionid={player.session}" if player is not None else ""
        super().__init__(port, f"/ws/games/{game_id}/", cookie, f"game {game_id} {colour}")
        self.game_id, self.colour, self.player, self.stats = game_id, colour, player, stats

    async def open(self) -> None:
        await super().open()
        await self.at_least(0)

    def heard(self, message: dict, arrived: float) -> None:
        kind = message.get("type")
        if kind == "state":
            key = (self.game_id, self.colour, message["state"]["version"])
            self.stats.arrived.setdefault(key, arrived)
        elif kind == "error" and message.get("ply") not in self.answers:
            self.stats.socket_errors[f"error {message.get('error')}"] += 1

    def lost(self, error: Exception) -> None:
        self.stats.socket_errors[type(error).__name__] += 1


async def play_game_over_sockets(
    sockets: dict[str, GameSocket], plies: int, rng: random.Random, stats: MoveStats, pace: Pace
) -> None:
    """Play until ``plies`` over both players' sockets, as two browsers do: the player to move
    picks from the state their own socket heard, sends the move on it and waits for its ack;
    then the other player waits until their socket hears it. The latency is the ack's."""
    state = await sockets["b"].at_least(0)
    game_id = state["id"]
    due = await pace.first(rng)
    span_start = None
    while state["status"] == "started" and state["legal_moves"] and state["version"] < plies:
        colour = state["side_to_move"]
        version = state["version"]
        notation = pick_move(state, rng)
        started = time.perf_counter()
        stats.sent[(game_id, version + 1)] = (started, colour)
        answer = await sockets[colour].move(notation, version)
        finished = time.perf_counter()
        stats.record(started, finished)
        if span_start is None:
            span_start = started
        opponent = "w" if colour == "b" else "b"
        if answer["type"] == "ack":
            try:
                state = await sockets[opponent].at_least(version + 1)
            except TimeoutError:
                stats.errors["event not heard in 10 s"] += 1
                state = await sockets[opponent].refresh()
        else:
            stats.errors[f"refused {answer.get('error', '?')}"] += 1
            state = await sockets[colour].refresh()
            if state["side_to_move"] != colour:
                state = await sockets[state["side_to_move"]].at_least(state["version"])
        due = await pace.next(due, rng)
    if span_start is not None:
        stats.spans.append((span_start, time.perf_counter()))
    if state["status"] != "started":
        stats.games_over += 1


async def progress_line(label: str, done, total: int, stop: asyncio.Event, probe=None) -> None:
    started = time.monotonic()
    while not stop.is_set():
        if probe is not None:
            probe()
        elapsed = time.monotonic() - started
        count = done()
        rate = count / elapsed if elapsed > 0 else 0.0
        print(
            f"\r\033[K[bench] {label}: {count}/{total}  {rate:6.1f}/s  {elapsed:5.1f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)
    print(file=sys.stderr, flush=True)


async def gather_limited(coroutines, limit: int):
    semaphore = asyncio.Semaphore(limit)

    async def run(coroutine):
        async with semaphore:
            return await coroutine

    return await asyncio.gather(*(run(c) for c in coroutines))


def options(base_seconds: int, increment_seconds: int) -> dict:
    return {
        "base_seconds": base_seconds,
        "increment_seconds": increment_seconds,
        "marbles_to_win": 6,
        "start": "belgian",
        "rated": True,
    }


def wait_until_ready(services: Services, port: int, timeout: float = 60.0) -> None:
    """Until the web answers on the port, the worker answers a ping and beat still runs."""
    from abalone_site.celery import app

    deadline = time.monotonic() + timeout

    async def web_ok() -> bool:
        conn = Connection("127.0.0.1", port)
        try:
            status, _ = await conn.request("GET", "/api/v1/games/?limit=1")
            return status == 200
        except OSError:
            return False
        finally:
            await conn.close()

    web_ready = worker_ready = False
    while time.monotonic() < deadline:
        services.check_alive()
        web_ready = web_ready or asyncio.run(web_ok())
        worker_ready = worker_ready or bool(app.control.ping(timeout=0.5))
        if web_ready and worker_ready:
            time.sleep(1.0)  # the other uvicorn workers and beat's first tick
            services.check_alive()
            return
        time.sleep(0.2)
    raise BenchError(
        f"not ready after {timeout:.0f} s (web {web_ready}, worker {worker_ready}):\n"
        + "\n".join(tail(s.log_path, 10) for s in services.services)
    )
