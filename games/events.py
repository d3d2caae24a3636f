"""Game events to browsers, sent after commit through the channel layer.

Each event carries the state with its version, but of the moves only the last (see
``socket_update``), encoded once as the socket message's text; a client that sees a gap
refetches. Sent with ``core.live.send_group`` (Redis in production, in-memory in the
embedded default).
"""

import threading
from collections import OrderedDict

from django.utils import timezone

from core.live import home_group, send_group, site_changed
from core.renderers import encode_json
from games.computer_players import maybe_move
from games.models import Game
from games.selectors import game_state

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


def spectators_group(game_id: int) -> str:
    """The sockets on a game's page that are not its players' (the spectators' chat)."""
    return f"game-{game_id}-spectators"


def socket_update(state: dict) -> dict:
    """``state`` as an event sends it: with only the last move in ``moves``, and ``moves_after``
    the ply after which they come. A socket already has every earlier move (the whole state on
    connect, then every event), and the moves list grows with the game: sent whole, it made the
    events of a long game three times the size and cost of a short one's. A client that misses
    an event sees the gap and refetches."""
    moves = state["moves"][-1:]
    return {**state, "moves": moves, "moves_after": len(state["moves"]) - len(moves)}


def socket_text(state: dict) -> str:
    """The socket message carrying ``state``: ``{"type": "state", "state": ...}``."""
    return encode_json({"type": "state", "state": state}).decode()


def publish_game(
    game_id: int, *, game: Game | None = None, move_documents: list[dict] | None = None
) -> None:
    """Send the game's state to everyone watching it (after the commit that changed it).

    ``game`` and ``move_documents``, when given, are the committed game (with its players) and
    its moves as the state shows them, saving the reads.
    """
    if game is None:
        game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        return
    state = game_state(game, now=timezone.now(), move_documents=move_documents)
    _remember(state)
    # The socket message itself, encoded once here: each process with sockets on the game then
    # sends the same text to each of them (see GameConsumer.game_state), instead of encoding
    # the whole state again per socket. It carries only the last move (see socket_update).
    send_group(
        game_group(game_id), {"type": "game.state", "text": socket_text(socket_update(state))}
    )
    if not game.is_active or game.ply <= 1:  # started, first move, ended: the live list
        site_changed("games")
    if game.is_active:  # the player to move's home pages (their "your move" list), no other tab
        to_move = game.black_id if game.side_to_move == "b" else game.white_id
        turn = {"type": "turn", "game": game_id, "version": game.ply}
        send_group(home_group(to_move), {"type": "user.event", "text": encode_json(turn).decode()})
        maybe_move(game)  # the computer's turn: a worker thinks (games.computer)
