"""The multi-host rehearsal: three web hosts behind HAProxy, one of them killed mid-game.

Run from the repository root, as root (it makes network namespaces), with Debian's haproxy:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/12 \\
        .venv/bin/python bench/hosts.py [--games 6] [--plies 30] [--flag-games 4] [--loopback]

What it does (``docs/deploy.md``, "Several web hosts", is the shape it rehearses):

1. creates a fresh database (``--db-name``, default ``sumito_hosts``), migrates it, FLUSHES the
   Redis database ``REDIS_URL`` names, and makes the players (with sessions, as browsers have);
2. starts three **hosts**: network namespaces on a bridge (``10.77.0.11``-``13``; PostgreSQL and
   Redis reached at ``10.77.0.1``, the bridge's end on this machine, where HAProxy forwards them
   to the servers on the loopback, as a database host's address would be), or with
   ``--loopback`` (or where namespaces cannot be made) process groups on their own loopback
   addresses (``127.0.0.11``-``13``). Each host runs a web process (uvicorn, with its deadline
   watcher); hosts 1 and 2 run a Celery worker; host 3 the one beat;
3. starts HAProxy on ``127.0.0.1`` in front of them: health checks on ``/healthz``, WebSocket
   upgrades, a host cookie (``SUMITO_HOST``) that keeps a browser on its host while it lives and
   sends it to another when it dies (``option redispatch``), and the serving host named in each
   answer (``X-Sumito-Host``);
4. plays ``--games`` games, every one through the balancer: black's tabs on one host, white's on
   another, a spectator on the third (rotated from game to game). The challenge and its
   acceptance are notifications that cross hosts (heard on the other player's ``/ws/me/``);
   every move is sent on the mover's game socket and heard by the opponent and the spectator
   on the other hosts;
5. halfway, **kills host 2** (SIGKILL of every process on it): its tabs lose their sockets and
   reconnect through the balancer to the other hosts; a move whose answer was lost with the
   host is found in the state the new socket sends (stored, or sent again: never twice). Then
   ``--flag-games`` games with a 2 s clock are started, their first moves made, and left: the
   deadline watchers of the hosts still alive must adjudicate them on time;
6. plays every game to ``--plies``, black resigns, and checks the database: every acknowledged
   move stored once at its ply, every game's moves without gap or double, the opponent and the
   spectator heard every ply, one rating change per player and game, the finish notified to both
   players, every flag fallen once; then prints moves/s per host, the reconnect delays and the
   flags' delays, stops everything, removes the namespaces and drops the database.

The exit code is 0 when every check passes, 1 when one fails (it prints which), 2 when the
machine cannot run it (no haproxy, no PostgreSQL or Redis). ``--timeout`` bounds the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from bench.common import free_port, machine_facts, recreate_database, speed_probe  # noqa: E402
from bench.live.client import (  # noqa: E402
    Connection,
    Player,
    TabSocket,
    make_players,
    options,
    pick_move,
)
from bench.live.hosts import (  # noqa: E402
    HAPROXY,
    HOST_COOKIE,
    Host,
    Network,
    conn_on,
    haproxy_config,
    namespaces_allowed,
    start_hosts,
    wait_for_balancer,
)
from bench.live.phases import FLAG_BASE_SECONDS, FLAG_SPREAD_SECONDS  # noqa: E402
from bench.live.stack import (  # noqa: E402
    BenchError,
    Services,
    check_environment,
    log,
    migrate_and_set_up_django,
    stack_env,
    tail,
)

KILLED = "h2"
QUIET_S = 10.0  # as the game page (static/js/game/live.js): a quiet socket asks for the state

# --- browsers' tabs through the balancer -----------------------------------------------------


@dataclass
class Reconnect:
    socket: str
    lost_on: str
    now_on: str
    delay_s: float


@dataclass
class Recovery:
    socket: str
    versions: list[int]
    how: str  # "quiet" or "gap"
    phase: str
    after_s: float  # since the tab last heard a state


@dataclass
class Record:
    """What the tabs saw, for the checks and the report."""

    acks: Counter = field(default_factory=Counter)  # (host, phase) -> moves acknowledged
    acked: dict = field(default_factory=dict)  # (game, ply) -> notation
    resolved: dict = field(default_factory=dict)  # (game, ply) -> notation, found stored
    heard: dict = field(default_factory=lambda: defaultdict(set))  # (game, who) -> versions
    notifications: dict = field(default_factory=lambda: defaultdict(set))  # user -> {(kind, id)}
    reconnects: list[Reconnect] = field(default_factory=list)
    # (game, who) -> versions a tab never heard as events but read in a whole state it asked
    # for: after a quiet spell or on seeing a gap (an event lost with its host)
    recovered: dict = field(default_factory=lambda: defaultdict(set))
    recoveries: list[Recovery] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    phase: str = "before"


class Tab(TabSocket):
    """One socket of a browser tab, through the balancer, kept on its host by the host cookie:
    when the host dies, it reconnects (every 0.2 s) and the balancer sends it to another host.
    ``on_message`` sees every message. As the game page does, a quiet game socket asks for the
    state, and so does one that sees a gap (``TabSocket``): what it found is recorded."""

    def __init__(
        self,
        front_port: int,
        path: str,
        host: str,
        label: str,
        record: Record,
        *,
        session: str = "",
        on_message=None,
        game_key: tuple | None = None,
    ):
        cookie = f"{HOST_COOKIE}={host}" + (f"; sessionid={session}" if session else "")
        super().__init__(front_port, path, cookie, label, quiet=QUIET_S)
        self.host, self.record, self.on_message = host, record, on_message
        self.game_key = game_key  # (game id, who): where recovered versions go
        self.closing = False

    async def open(self) -> None:
        await super().open()
        if self.served_by != self.host:
            self.record.problems.append(
                f"{self.label}: asked for host {self.host}, served by {self.served_by}"
            )

    async def close(self) -> None:
        self.closing = True
        await super().close()

    def heard(self, message: dict, arrived: float) -> None:
        if self.on_message is not None:
            self.on_message(message)

    def recovered(self, versions: list[int]) -> None:
        if self.game_key is not None:
            self.record.recovered[self.game_key].update(versions)
        after = time.monotonic() - self.heard_at
        recovery = Recovery(self.label, versions, self.asked, self.record.phase, after)
        self.record.recoveries.append(recovery)

    async def at_least(self, version: int, timeout: float = 30.0) -> dict:
        return await super().at_least(version, timeout)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(Exception):  # a lost socket: reconnected below
                await self._read()
            if self.closing:
                return
            lost_at, lost_on = time.monotonic(), self.served_by
            self.state, self.asked = None, ""  # until the new socket's whole state
            self._drop_answers("socket lost")
            while True:
                try:
                    self.socket = await self._connect()
                    # the whole state, or the latest notifications
                    first = await asyncio.wait_for(self.socket.recv(), 10)
                    break
                except Exception:  # noqa: BLE001 - no live host behind the balancer yet
                    await asyncio.sleep(0.2)
            self.record.reconnects.append(
                Reconnect(self.label, lost_on, self.served_by, time.monotonic() - lost_at)
            )
            self._take(orjson.loads(first), time.perf_counter())


# --- a game across hosts ---------------------------------------------------------------------


@dataclass
class Seat:
    player: Player
    host: str
    conn: Connection
    me: Tab | None = None
    game: Tab | None = None


def notification_listener(record: Record, username: str):
    """Records (kind, challenge or game id) of each notification the player's tab hears: pushed
    live, or in the latest ten a reconnected socket sends."""

    def add(item: dict) -> None:
        subjects = item.get("subjects") or {}
        subject = subjects.get("challenge") if "challenge" in item["kind"] else subjects.get("game")
        record.notifications[username].add((item["kind"], subject))

    def take(message: dict) -> None:
        if message.get("type") == "notification":
            add(message["notification"])
        elif message.get("type") == "notifications":
            for item in message.get("latest", []):
                add(item)

    return take


def heard_listener(record: Record, game: dict, who: str):
    def take(message: dict) -> None:
        if message.get("type") == "state":
            record.heard[(game["id"], who)].add(message["state"]["version"])

    return take


async def open_game(
    front_port: int, black: Seat, white: Seat, spectator_host: str, record: Record, rng
) -> tuple[dict, dict[str, Tab]] | None:
    """The challenge (heard by white on its host), the acceptance (heard by black on its host),
    and the three game sockets on three hosts."""
    status, challenge = await black.conn.request(
        "POST",
        "/api/v1/challenges/",
        token=black.player.key,
        body={**options(600, 5), "opponent": white.player.username, "colour": "black"},
    )
    if status != 201:
        record.problems.append(f"challenge refused: {status} {challenge}")
        return None
    status, state = await white.conn.request(
        "POST", f"/api/v1/challenges/{challenge['id']}/accept/", token=white.player.key
    )
    if status != 201:
        record.problems.append(f"acceptance refused: {status} {state}")
        return None
    game = {"id": state["id"], "challenge": challenge["id"]}
    tabs = {}
    for colour, seat in (("b", black), ("w", white)):
        seat.game = Tab(
            front_port,
            f"/ws/games/{game['id']}/",
            seat.host,
            f"game {game['id']} {colour} on {seat.host}",
            record,
            session=seat.player.session,
            on_message=heard_listener(record, game, colour),
            game_key=(game["id"], colour),
        )
        tabs[colour] = seat.game
    tabs["s"] = Tab(
        front_port,
        f"/ws/games/{game['id']}/",
        spectator_host,
        f"game {game['id']} spectator on {spectator_host}",
        record,
        on_message=heard_listener(record, game, "s"),
        game_key=(game["id"], "s"),
    )
    for tab in tabs.values():
        await tab.open()
        await tab.at_least(0)
    return game, tabs


async def play(game: dict, tabs: dict[str, Tab], plies: int, record: Record, rng, moved) -> None:
    """Play to ``plies`` over the players' sockets; a move whose answer was lost with its host is
    looked up in the state the reconnected socket sends: stored, or sent again."""
    state = await tabs["b"].at_least(0)
    while state["status"] == "started" and state["version"] < plies:
        colour = state["side_to_move"]
        tab = tabs[colour]
        state = await tab.at_least(state["version"])
        if not state.get("legal_moves"):
            state = await tab.at_least(state["version"] + 1, timeout=5)
            continue
        version = state["version"]
        notation = pick_move(state, rng)
        answer = await tab.move(notation, version)
        if answer["type"] == "ack":
            record.acks[(tab.served_by, record.phase)] += 1
            record.acked[(game["id"], version)] = notation
            moved()
        elif answer.get("error") in ("socket lost", "no answer"):
            state = await tab.at_least(version)  # the reconnected socket's whole state
            if state["version"] > version:
                record.resolved[(game["id"], version)] = notation  # the database must say so
                moved()
            continue
        else:
            record.problems.append(f"game {game['id']} ply {version}: refused {answer}")
            state = await tab.at_least(version + 1, timeout=5)
            continue
        opponent = "w" if colour == "b" else "b"
        state = await tabs[opponent].at_least(version + 1)


# --- the checks ------------------------------------------------------------------------------


def check_database(games: list[dict], record: Record, plies: int) -> list[str]:
    """What the database holds against what the tabs were told and heard."""
    from games.models import Game, Move
    from notifications.models import Notification
    from ratings.models import RatingChange

    wrong = []
    told = {**record.acked, **record.resolved}
    reconnected = {r.socket for r in record.reconnects}
    for game in games:
        row = Game.objects.get(pk=game["id"])
        moves = dict(Move.objects.filter(game_id=row.pk).values_list("ply", "notation"))
        if sorted(moves) != list(range(1, row.ply + 1)):  # a move is stored at its number
            wrong.append(f"game {row.pk}: stored plies {sorted(moves)} with the game at {row.ply}")
        for (game_id, ply), notation in told.items():
            # sent at ply (the version it was played on), stored as move ply + 1
            if game_id == row.pk and moves.get(ply + 1) != notation:
                wrong.append(
                    f"game {row.pk} ply {ply}: {notation} acknowledged, {moves.get(ply + 1)} stored"
                )
        if row.ply != plies or (row.status, row.termination) != ("finished", "resignation"):
            wrong.append(
                f"game {row.pk}: ply {row.ply} {row.status} {row.termination}, "
                f"not {plies} plies then resigned"
            )
        for who, label in game["tabs"].items():
            heard = record.heard[(row.pk, who)]
            # a tab that reconnected heard the versions it missed in one whole state
            wanted = {row.ply} if label in reconnected else set(range(row.ply + 1))
            # an event lost with the killed host, read in a whole state the tab asked for
            missing = wanted - heard - record.recovered[(row.pk, who)]
            if missing:
                wrong.append(f"{label} never heard versions {sorted(missing)[:6]}")
        changes = RatingChange.objects.filter(game_id=row.pk).count()
        if changes != 2:
            wrong.append(f"game {row.pk}: {changes} rating changes, not 2")
        lost = [r for r in record.recoveries if r.phase == "before" and r.versions]
        for recovery in lost:
            if recovery.socket in game["tabs"].values():
                wrong.append(
                    f"{recovery.socket} missed versions {recovery.versions} with no host killed"
                )
        finished = Notification.objects.filter(key=f"game_finished:{row.pk}").count()
        if finished != 2:
            wrong.append(f"game {row.pk}: {finished} 'game finished' notifications, not 2")
        expected = [
            (game["white"], "challenge_received", game["challenge"]),
            (game["black"], "challenge_accepted", game["challenge"]),
            (game["white"], "game_finished", row.pk),
            (game["black"], "game_finished", row.pk),
        ]
        for username, kind, subject in expected:
            if (kind, subject) not in record.notifications[username]:
                wrong.append(f"{username}'s tab did not hear '{kind}' ({subject})")
    return wrong


# --- the run ---------------------------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=30, help="each game's length")
    parser.add_argument("--flag-games", type=int, default=4)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--loopback", action="store_true", help="hosts on loopback addresses")
    parser.add_argument("--timeout", type=float, default=300.0, help="the whole run, seconds")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db-name", default="sumito_hosts")
    parser.add_argument("--keep-logs", action="store_true")
    return parser.parse_args(argv)


def main(argv=None) -> int:  # noqa: C901 - one script, in order
    args = parse_args(argv)
    if args.hosts != 3 or args.games < 1 or args.plies < 4:
        print("--hosts must be 3, --games >= 1, --plies >= 4", file=sys.stderr)
        return 2
    if not os.path.exists(HAPROXY):
        print("haproxy is missing (apt-get install haproxy)", file=sys.stderr)
        return 2
    # one rehearsal at a time on a machine: a second would take the first's namespaces,
    # bridge and database from under it
    lock = open(Path(tempfile.gettempdir()) / "sumito-hosts.lock", "w")  # noqa: SIM115 - held
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("another rehearsal is running on this machine", file=sys.stderr)
        return 2
    admin_url, bench_url, redis_url = check_environment(args.db_name, False)
    loopback = args.loopback or not namespaces_allowed()

    def on_alarm(signum, frame):
        raise BenchError(f"the rehearsal took over --timeout {args.timeout:.0f} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(args.timeout))
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))

    scratch = Path(tempfile.mkdtemp(prefix="sumito-hosts-"))
    env = stack_env(bench_url, redis_url)
    network = Network(args.hosts, loopback)
    hosts: list[Host] = []
    balancer = Services(env, scratch)
    created = False
    began = time.monotonic()
    try:
        probe = speed_probe()
        log(
            f"creating database {args.db_name}; hosts as "
            + ("loopback addresses" if loopback else "network namespaces")
        )
        recreate_database(admin_url, args.db_name)
        created = True
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        migrate_and_set_up_django(env)
        network.up()
        front_port = free_port()
        config = scratch / "haproxy.cfg"
        config.write_text(haproxy_config(front_port, network))
        balancer.start("haproxy", [HAPROXY, "-f", str(config), "-db"])
        time.sleep(0.5)
        balancer.check_alive()
        hosts = start_hosts(network, env, scratch, bench_url, redis_url)
        players = make_players(2 * args.games, "host", sessions=True)
        asyncio.run(wait_for_balancer(front_port, hosts, balancer))
        log(f"3 hosts up behind HAProxy on :{front_port} ({time.monotonic() - began:.1f} s)")
        record = Record()
        result = asyncio.run(rehearse(args, front_port, hosts, players, record))
        games, flags, phases = result
        for host in hosts:
            if host.name != KILLED:
                host.services.check_alive()
        balancer.check_alive()
        wrong = record.problems + check_database(games, record, args.plies)
        wrong += flags.wrong + [f"flag game {pk} never adjudicated" for pk in flags.unfinished]
        print(report(args, probe, loopback, hosts, record, phases, flags, wrong))
        return 1 if wrong else 0
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except (BenchError, subprocess.CalledProcessError, TimeoutError) as error:
        log(f"failed: {error}")
        for host in hosts:
            for service in host.services.services:
                log(f"last lines of {service.name}:\n{tail(service.log_path, 20)}")
        return 1
    finally:
        signal.alarm(0)
        for host in hosts:
            host.services.stop()
        balancer.stop()
        network.down()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if created:
            with contextlib.suppress(Exception):
                recreate_database(admin_url, args.db_name, drop_only=True)
        if args.keep_logs:
            log(f"logs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


async def rehearse(args, front_port: int, hosts: list[Host], players, record: Record):
    from bench.live.phases import flag_setup, flag_wait

    rng = random.Random(args.seed)
    names = [host.name for host in hosts]
    seats, games, all_tabs = [], [], []
    for index in range(args.games):
        turn = names[index % 3 :] + names[: index % 3]  # black, white, spectator hosts rotate
        black = Seat(players[2 * index], turn[0], conn_on(front_port, turn[0]))
        white = Seat(players[2 * index + 1], turn[1], conn_on(front_port, turn[1]))
        for seat in (black, white):
            seat.me = Tab(
                front_port,
                "/ws/me/",
                seat.host,
                f"{seat.player.username} /ws/me/ on {seat.host}",
                record,
                session=seat.player.session,
                on_message=notification_listener(record, seat.player.username),
            )
            await seat.me.open()
            all_tabs.append(seat.me)
        opened = await open_game(front_port, black, white, turn[2], record, rng)
        if opened is None:
            continue
        game, tabs = opened
        game.update(
            black=black.player.username,
            white=white.player.username,
            tabs={who: tab.label for who, tab in tabs.items()},
        )
        all_tabs += tabs.values()
        seats.append((black, white))
        games.append((game, tabs))
    log(f"{len(games)} games open across the hosts; playing")

    total = len(games) * args.plies
    done = 0
    kill_at = total // 2
    killed = asyncio.Event()
    phase_times = {"before": [time.monotonic(), None], "after": [None, None]}

    def moved() -> None:
        nonlocal done
        done += 1
        if done >= kill_at and not killed.is_set():
            killed.set()

    async def killer():
        await killed.wait()
        phase_times["before"][1] = time.monotonic()
        host = next(h for h in hosts if h.name == KILLED)
        log(f"killing host {KILLED} at {done}/{total} moves")
        host.kill()
        record.phase = "after"
        phase_times["after"][0] = time.monotonic()

    killer_task = asyncio.create_task(killer())
    await asyncio.gather(
        *(
            play(game, tabs, args.plies, record, random.Random(rng.random()), moved)
            for game, tabs in games
        )
    )
    phase_times["after"][1] = time.monotonic()
    killer_task.cancel()
    if not killed.is_set():
        raise BenchError("the games ended before host 2 was killed")

    log("flag games on the hosts still alive")
    flag_errors: Counter = Counter()
    flag_players = players[: 2 * args.flag_games]
    deadlines = await flag_setup(
        SimpleNamespace(flag_games=args.flag_games, seed=args.seed),
        front_port,
        flag_players,
        flag_errors,
    )
    for error, count in flag_errors.items():
        record.problems.append(f"flag game setup: {error} x{count}")

    for (game, _tabs), (black, _white) in zip(games, seats, strict=True):
        status, answer = await black.conn.request(
            "POST", f"/api/v1/games/{game['id']}/resign/", token=black.player.key
        )
        if status != 200:
            record.problems.append(f"game {game['id']}: resign {status} {answer}")
    await asyncio.sleep(1.5)  # the finish's notifications on their way
    flags = await asyncio.to_thread(
        flag_wait, deadlines, FLAG_SPREAD_SECONDS + FLAG_BASE_SECONDS + 30
    )
    for tab in all_tabs:
        await tab.close()
    for black, white in seats:
        await black.conn.close()
        await white.conn.close()
    return [game for game, _ in games], flags, phase_times


def report(args, probe, loopback, hosts, record: Record, phases, flags, wrong) -> str:
    facts = machine_facts()
    lines = [
        "",
        "Sumito multi-host rehearsal",
        f"machine    nproc {facts['nproc']}, {facts['cpu']}, {facts['memory']}; "
        f"speed probe {probe:.1f} ms",
        f"hosts      {len(hosts)} "
        + ("process groups on loopback addresses" if loopback else "network namespaces")
        + " behind HAProxy; workers on h1 and h2, beat on h3; host h2 killed mid-game",
        f"games      {args.games} to {args.plies} plies, each player on another host, a "
        f"spectator on the third; {args.flag_games} flag games after the kill",
        "moves/s per host (acknowledged on its sockets)",
    ]
    for phase, label in (("before", "before the kill"), ("after", "after the kill")):
        start, end = phases[phase]
        span = max(1e-6, (end or start) - start)
        counts = ", ".join(
            f"{host.name} {record.acks[(host.name, phase)] / span:6.1f}" for host in hosts
        )
        lines.append(f"  {label:16} {counts}   ({span:.1f} s)")
    delays = [r.delay_s * 1000 for r in record.reconnects]
    if delays:
        lines.append(
            f"reconnects {len(delays)} sockets from h2 to "
            + ", ".join(
                f"{h} x{n}" for h, n in sorted(Counter(r.now_on for r in record.reconnects).items())
            )
            + f": min {min(delays):.0f} ms, median {statistics.median(delays):.0f} ms, "
            f"max {max(delays):.0f} ms"
        )
    else:
        lines.append("reconnects none")
    if flags.delays_s:
        lines.append(
            f"flags      {len(flags.delays_s)} adjudicated after the kill, "
            f"{min(flags.delays_s):.2f}-{max(flags.delays_s):.2f} s after their deadlines"
        )
    found = [r for r in record.recoveries if r.versions]
    lines.append(f"lost       {len(found) or 'no'} events missed by a tab whose socket stayed open")
    lines += [
        f"  {r.socket}: versions {r.versions} read in the state it asked for "
        f"({'after a quiet' if r.how == 'quiet' else 'on a gap'}), "
        f"{r.after_s:.1f} s after the last state it heard"
        for r in found
    ]
    lines.append(
        f"resolved   {len(record.resolved)} moves whose answer was lost with the host, found stored"
    )
    lines.append("checks     " + ("all passed" if not wrong else f"{len(wrong)} FAILED:"))
    lines += [f"  - {line}" for line in wrong]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
