"""Game events to browsers, sent after commit through the channel layer.

Each event carries the whole state with its version; a client that sees a gap refetches. The
channel layer is Redis in production (every web process hears it) and in-memory in the embedded
default (one process).
"""

import logging
import threading
from collections import OrderedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game
from games.selectors import game_state

logger = logging.getLogger(__name__)

# The last state published per game in this process: the request that caused an event answers
# with the same document instead of building it a second time.
_recent: OrderedDict[int, dict] = OrderedDict()
_recent_lock = threading.Lock()
_RECENT_MAX = 2000


def _remember(state: dict) -> None:
    with _recent_lock:
        _recent[state["id"]] = state
        _recent.move_to_end(state["id"])
        while len(_recent) > _RECENT_MAX:
            _recent.popitem(last=False)


def recent_state(game: Game) -> dict | None:
    """The state last published for ``game`` if it shows the game as it is now."""
    with _recent_lock:
        state = _recent.get(game.pk)
    if state is None:
        return None
    same = (
        state["version"] == game.ply
        and state["status"] == game.status
        and state["draw_offer"] == (game.draw_offer or None)
    )
    return state if same else None


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def publish_game(game_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        return
    state = game_state(game, now=timezone.now())
    _remember(state)
    try:
        async_to_sync(layer.group_send)(game_group(game_id), {"type": "game.state", "state": state})
    except Exception:  # a lost event is recovered by the client's refetch
        logger.exception("could not publish game %s", game_id)
