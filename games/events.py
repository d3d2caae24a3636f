"""Game events to browsers, sent after commit through the channel layer.

An event is what changed (``games.selectors.game_update``: the position, the clocks, the result,
...) with the last move, never the players, the settings or the earlier moves, which a socket has
from its whole state on connect: ``{"type": "state", "state": {...}}`` whose ``moves`` are the
moves after its ``moves_after``. The legal moves go only to the sockets of the player to move (a
spectator and the player waiting never use them). Each event is encoded once, by the process
that publishes it, as the socket messages' texts; a client that sees a gap refetches. Sent with
``core.live.send_group`` (Redis in production, in-memory in the embedded default).
"""

import threading
from collections import OrderedDict

from django.utils import timezone

from core.live import home_group, send_group, site_changed
from core.renderers import encode_json
from games import engine
from games.computer_players import maybe_move
from games.models import Game
from games.selectors import game_update, move_cells, move_documents_of, state_of

# The last change published per game in this process: the request that caused it answers with
# the same document instead of building it a second time. (game, update, moves): the whole
# state is put together only when a request asks (a move sent on the socket needs none).
_recent: OrderedDict[int, tuple[Game, dict, list[dict]]] = OrderedDict()
_recent_lock = threading.Lock()
_RECENT_MAX = 2000


def _remember(game: Game, update: dict, move_documents: list[dict]) -> None:
    with _recent_lock:
        _recent[game.pk] = (game, update, move_documents)
        _recent.move_to_end(game.pk)
        while len(_recent) > _RECENT_MAX:
            _recent.popitem(last=False)


def recent_state(game: Game) -> dict | None:
    """The state last published for ``game`` if it shows the game as it is now."""
    with _recent_lock:
        entry = _recent.get(game.pk)
    if entry is None:
        return None
    published, update, move_documents = entry
    same = (
        published.created_at == game.created_at  # the same game, not one given its id again
        and update["position"] == game.position
        and update["version"] == game.ply
        and update["status"] == game.status
        and update["draw_offer"] == (game.draw_offer or None)
    )
    return state_of(published, update, move_documents) if same else None


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def spectators_group(game_id: int) -> str:
    """The sockets on a game's page that are not its players' (the spectators' chat)."""
    return f"game-{game_id}-spectators"


def socket_update(game_id: int, update: dict, move_documents: list[dict]) -> dict:
    """The event's state: ``update`` without the legal moves, with ``id`` and only the last move
    in ``moves``, and ``moves_after`` the ply after which they come. A socket already has every
    earlier move (the whole state on connect, then every event), and the moves list grows with
    the game: sent whole, it made the events of a long game three times the size and cost of a
    short one's. A client that misses an event sees the gap and refetches."""
    moves = move_documents[-1:]
    event = {key: value for key, value in update.items() if key != "legal_moves"}
    return {"id": game_id, **event, "moves": moves, "moves_after": len(move_documents) - len(moves)}


def socket_text(state: dict) -> str:
    """The socket message carrying ``state``: ``{"type": "state", "state": ...}``."""
    return encode_json({"type": "state", "state": state}).decode()


def publish_game(
    game_id: int,
    *,
    game: Game | None = None,
    move_documents: list[dict] | None = None,
    engine_game: engine.Game | None = None,
) -> None:
    """Send what changed in the game to everyone watching it (after the commit that changed it).

    ``game`` and ``move_documents``, when given, are the committed game (with its players) and
    its moves as the state shows them, saving the reads; ``engine_game``, the move path's engine
    after the move, saves parsing the position again and names the move's marbles.
    """
    if game is None:
        game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        return
    if move_documents is None:
        move_documents = move_documents_of(game)
    position = engine_game.position if engine_game is not None else None
    update = game_update(game, now=timezone.now(), position=position)
    _remember(game, update, move_documents)
    # The socket messages themselves, encoded once here: each process with sockets on the game
    # then sends the same text to each of them (see GameConsumer.game_state), instead of
    # encoding the state again per socket. The one with the legal moves goes to the sockets of
    # the player to move only.
    event = socket_update(game_id, update, move_documents)
    last = engine_game.last_move if engine_game is not None else None
    if isinstance(last, engine.Move):  # the board marks every marble it moved
        event["last_move"] = move_cells(last)
    message = {"type": "game.state", "text": socket_text(event)}
    if update["legal_moves"]:
        message["to_move"] = game.side_to_move
        message["to_move_text"] = socket_text({**event, "legal_moves": update["legal_moves"]})
    send_group(game_group(game_id), message)
    if not game.is_active or game.ply <= 1:  # started, first move, ended: the live list
        site_changed("games")
    if game.is_active:  # the player to move's home pages (their "your move" list), no other tab
        to_move = game.black_id if game.side_to_move == "b" else game.white_id
        turn = {"type": "turn", "game": game_id, "version": game.ply}
        send_group(home_group(to_move), {"type": "user.event", "text": encode_json(turn).decode()})
        maybe_move(game)  # the computer's turn: a worker thinks (games.computer)
