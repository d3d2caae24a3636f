"""A game's chat: the players' room and the spectators' room.

- The players' room: the two players only, during and after the game; kept with the game and
  shown to the two of them in the replay. A player may mute the other (``chat_mute``): the
  muted player can no longer write there (403 ``muted``).
- The spectators' room: any logged-in player but the two (their opponent's watchers must not
  coach them), while the game is played and after.
- A tournament's directors may turn chat off for their event's games (403 ``chat_off``).

A line is 1 to 300 characters of plain text on one line (runs of spaces and line breaks become
one space); pages show it as text,
so a link is never clickable. How often a player may write is throttled by the API and the
socket (``THROTTLE_RATES["chat"]``). A line reaches the open pages after the commit: the
players' room through each player's own group (their tabs), the spectators' room through the
group of the game's spectator sockets (never the players').
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed
from core.live import after_commit, send_group, user_group
from core.renderers import encode_json
from games.events import spectators_group
from games.models import ChatMessage, ChatMute, Game
from games.selectors import chat_line_document, game_found

CHAT_MAX_LENGTH = 300
ROOMS = ChatMessage.Room.values


def _clean(text: str) -> str:
    kept = " ".join(str(text).replace("\x00", "").split())  # one line, single spaces
    if not kept:
        raise InvalidInput(_("A chat message needs some text."), code="empty_message")
    if len(kept) > CHAT_MAX_LENGTH:
        raise InvalidInput(
            _("A chat message has at most %(chat_max_length)s characters (%(count)s sent).")
            % {"chat_max_length": CHAT_MAX_LENGTH, "count": len(kept)},
            code="message_too_long",
        )
    return kept


def require_room(game: Game, user: User, room: str) -> None:
    """Refuse ``user`` reading or writing ``room`` of ``game`` (NotAllowed)."""
    if room not in ROOMS:
        raise InvalidInput(
            _("room must be one of %(rooms)s.") % {"rooms": ", ".join(ROOMS)}, code="bad_room"
        )
    player = user.pk in (game.black_id, game.white_id)
    if room == ChatMessage.Room.PLAYERS and not player:
        raise NotAllowed(_("Only the two players read and write the players' chat."))
    if room == ChatMessage.Room.SPECTATORS and player and game.is_active:
        raise NotAllowed(
            _("Players do not use the spectators' chat during their game."), code="players_room"
        )


def chat_post(*, game_id: int, user: User, room: str, text: str, now: datetime) -> ChatMessage:
    """Write ``text`` in ``room`` of the game; refusals change nothing."""
    game = game_found(game_id)
    require_room(game, user, room)
    if not game.chat_enabled:
        raise NotAllowed(_("The directors turned chat off for this event."), code="chat_off")
    text = _clean(text)
    if room == ChatMessage.Room.PLAYERS:
        other = game.white_id if user.pk == game.black_id else game.black_id
        if ChatMute.objects.filter(game=game, user_id=other, muted=user).exists():
            raise NotAllowed(_("Your opponent muted the chat with you."), code="muted")
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game=game, user=user, room=room, text=text, created=now
        )
        document = chat_line_document(message, user)
        after_commit(lambda: _publish(game, room, document), f"game {game.pk}'s chat line")
    return message


def chat_mute(*, game_id: int, user: User, mute: bool) -> bool:
    """``user`` (a player) mutes or unmutes the other player in the game's players' room."""
    game = game_found(game_id)
    if user.pk not in (game.black_id, game.white_id):
        raise NotAllowed(_("Only a player of the game mutes their opponent."))
    other = game.white_id if user.pk == game.black_id else game.black_id
    if mute:
        try:
            with transaction.atomic():
                ChatMute.objects.get_or_create(game=game, user=user, muted_id=other)
        except IntegrityError as error:  # muted twice at once: muted
            if not ChatMute.objects.filter(game=game, user=user, muted_id=other).exists():
                raise Conflict(_("Try again.")) from error
    else:
        ChatMute.objects.filter(game=game, user=user, muted_id=other).delete()
    return mute


def _publish(game: Game, room: str, document: dict) -> None:
    text = encode_json({"type": "chat", "game": game.pk, "message": document}).decode()
    event = {"type": "user.event", "text": text}
    if room == ChatMessage.Room.PLAYERS:
        for player_id in (game.black_id, game.white_id):
            send_group(user_group(player_id), event)
    else:  # not to the players' sockets: their watchers must not coach them
        send_group(spectators_group(game.pk), event)
