"""Game events to browsers, sent after commit through the channel layer.

Each event carries the whole state with its version; a client that sees a gap refetches. The
channel layer is Redis in production (every web process hears it) and in-memory in the embedded
default (one process).
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game
from games.selectors import game_state

logger = logging.getLogger(__name__)


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
    try:
        async_to_sync(layer.group_send)(game_group(game_id), {"type": "game.state", "state": state})
    except Exception:  # a lost event is recovered by the client's refetch
        logger.exception("could not publish game %s", game_id)
