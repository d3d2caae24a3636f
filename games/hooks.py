"""What other apps do when a game ends: explicit hooks, registered at start-up.

``games`` knows nothing of tournaments or ratings. An app that must act when a game ends
registers a callback here from its ``AppConfig.ready()``; :func:`game_finished` runs them when
the game's end is recorded, inside the game's transaction and while the game's row is locked,
so what they write commits (or rolls back) with the result itself.

They run in the order of their ``lock_rank``, lowest first. A callback that takes row locks
must take them after the game's row and in the site's one lock order (see
``docs/architecture.md``): the tournament and its round (``tournaments``, rank 10), then
rating rows in user-id order (``ratings``, rank 20). Ranks make that order explicit rather than
an accident of which app registered first.

Every callback must be idempotent and a no-op for games it does not concern (a casual game, a
game outside tournaments): finishing is idempotent, and a callback may meet the same game again
when a director corrects a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Game

GameFinished = Callable[..., object]


@dataclass(frozen=True)
class _Hook:
    lock_rank: int
    name: str
    callback: GameFinished


_game_finished: list[_Hook] = []


def on_game_finished(callback: GameFinished, *, lock_rank: int) -> None:
    """Call ``callback(game=game, now=now)`` whenever a game's end is recorded (see above).

    Registering the same callback again replaces it, so a second ``ready()`` (tests that reload
    apps) does not run it twice.
    """
    name = f"{callback.__module__}.{callback.__qualname__}"
    _game_finished[:] = [hook for hook in _game_finished if hook.name != name]
    _game_finished.append(_Hook(lock_rank, name, callback))
    _game_finished.sort(key=lambda hook: hook.lock_rank)


def game_finished(*, game: Game, now: datetime) -> None:
    """Run every registered callback for the finished ``game``, in lock-rank order."""
    for hook in _game_finished:
        hook.callback(game=game, now=now)


def registered() -> list[str]:
    """The registered callbacks' names, in the order they run (for tests and the curious)."""
    return [hook.name for hook in _game_finished]
