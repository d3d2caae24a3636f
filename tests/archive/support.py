"""Building archived games quickly: played through the engine, written straight with the ORM.

Shared by the archive's database tests and its browser test.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games import engine
from games.models import Game, Move

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
#: Black's first move lets White push a black marble off at once (Belgian Daisy).
PUSH_OPENING = ("i8i7", "g5h6")


def notations_for(plies: int, opening: tuple[str, ...] = (), start: str = "belgian") -> list[str]:
    """``opening`` and then the first legal move at each ply, ``plies`` moves in all."""
    game = engine.Game(start)
    for notation in opening[:plies]:
        game.play(notation)
    while game.ply < plies and not game.is_over:
        game.play(game.legal_moves()[0])
    return list(game.notations)


def archived_game(
    black,
    white,
    *,
    notations: list[str] | None = None,
    plies: int = 6,
    result: str = "1-0",
    termination: str = "resignation",
    status: str = Game.Status.FINISHED,
    ended_at: datetime = T0,
    rated: bool = True,
    start: str = "belgian",
    base_seconds: int | None = 300,
    increment_seconds: int = 0,
    spend_ms: int = 3_000,
) -> Game:
    """A game ended at ``ended_at``; each move takes ``spend_ms`` off the mover's clock."""
    if notations is None:
        notations = notations_for(plies, start=start)
    engine_game = engine.Game(start)
    start_text = engine_game.position.to_string()
    game = Game.objects.create(
        black=black,
        white=white,
        base_seconds=base_seconds,
        increment_seconds=increment_seconds,
        marbles_to_win=6,
        start=start,
        rated=rated,
        start_position=start_text,
        position=start_text,
        status=status,
        result="" if status == Game.Status.ABORTED else result,
        termination="aborted" if status == Game.Status.ABORTED else termination,
        turn_started_at=ended_at,
        created_at=ended_at - timedelta(minutes=10),
        ended_at=None if status == Game.Status.STARTED else ended_at,
    )
    clocks = {"b": (base_seconds or 0) * 1000, "w": (base_seconds or 0) * 1000}
    moves = []
    for ply, notation in enumerate(notations, start=1):
        outcome = engine_game.play(notation)
        clocks[outcome.mover] -= spend_ms + 10 * ply
        moves.append(
            Move(
                game=game,
                ply=ply,
                notation=outcome.move.notation,
                played_at=ended_at,
                clock_ms=clocks[outcome.mover] if base_seconds else 0,
                position_after=engine_game.position.to_string(),
                pushed_off=outcome.pushed_off is not None,
            )
        )
    Move.objects.bulk_create(moves)
    game.position = engine_game.position.to_string()
    game.ply = len(moves)
    game.save(update_fields=["position", "ply"])
    return game


def record_text(
    notations: list[str],
    *,
    black: str = "?",
    white: str = "?",
    result: str = "1-0",
    termination: str = "resignation",
    start: str = "belgian",
) -> str:
    """A record written by hand (so it may hold illegal moves)."""
    units = []
    for index, notation in enumerate(notations):
        units.append(f"{index // 2 + 1}. {notation}" if index % 2 == 0 else notation)
    headers = {
        "Event": "Club night",
        "Round": "1.1",
        "Date": "2026.11.21",
        "Black": black,
        "White": white,
        "Start": start,
        "MarblesToWin": "6",
        "TimeControl": "900",
        "Result": result,
        "Termination": termination,
    }
    head = "\n".join(f'[{tag} "{value}"]' for tag, value in headers.items())
    return f"{head}\n\n{' '.join(units)} {result}\n"
