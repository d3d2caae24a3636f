"""Reads of games: the state document that the API, the page and the WebSocket all send."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import NotAllowed, NotFound
from games import engine
from games.clock import LIVE_LIMIT_SECONDS
from games.models import (
    Challenge,
    ChatMessage,
    ChatMute,
    ConditionalMoves,
    Game,
    Move,
    Vacation,
)

#: :attr:`Game.aborted_unplayed` as a query filter: games over before any move was played
#: (first move not made in time, or aborted), which no player's win/draw/loss record counts.
#: A game in progress has no termination, so it never matches.
ABORTED_UNPLAYED = Q(
    ply=0,
    termination__in=[
        Game.Termination.ABANDONED,
        Game.Termination.FORFEIT,
        Game.Termination.ABORTED,
    ],
)


#: Plies of the placement variant's placement phase: every marble of both sides, one a turn.
PLACEMENT_PLIES = engine.GameSettings(start="placement").placements
#: Every cell of the board in (row, digit) order: where a marble may be placed.
BOARD_CELLS = tuple(
    f"{row}{diagonal + 1}"
    for row_index, row in enumerate("abcdefghi")
    for diagonal in range(9)
    if abs(diagonal - row_index) <= 4
)


def placements_left(game: Game) -> int:
    """How many placements the game's placement phase still has (0: no phase, or over)."""
    if game.start != "placement":
        return 0
    return max(0, PLACEMENT_PLIES - game.ply)


def marbles_lost(game: Game, position: engine.Position | None = None) -> tuple[int, int]:
    """(Black's, White's) marbles pushed off so far: 14 minus those on the board, and none
    during the placement phase, whose board is still filling up (a game may end in it).
    ``position``: the game's position when the caller has it parsed already."""
    if placements_left(game):
        return 0, 0
    if position is None:
        position = engine.Position.from_string(game.position)
    return position.pushed_off(engine.BLACK), position.pushed_off(engine.WHITE)


def _placement_document(game: Game) -> dict | None:
    """The placement phase as the state shows it: marbles each side has still to place."""
    if not placements_left(game):
        return None
    per_side = PLACEMENT_PLIES // 2
    return {
        "black_left": per_side - (game.ply + 1) // 2,
        "white_left": per_side - game.ply // 2,
    }


def _placement_moves(position: engine.Position) -> list[dict]:
    """The placements open in ``position``: one per empty cell (notation ``@e5``)."""
    occupied = set(position.black_cells) | set(position.white_cells)
    return [_PLACEMENT_DOCUMENTS[cell] for cell in BOARD_CELLS if cell not in occupied]


_PLACEMENT_DOCUMENTS = {
    cell: {
        "notation": f"@{cell}",
        "marbles": [],
        "destinations": [cell],
        "direction": None,
        "kind": "placement",
        "pushed": [],
        "pushed_off": False,
    }
    for cell in BOARD_CELLS
}


def _player(user: User) -> dict:
    return {"username": user.username, "display_name": user.shown_name, "bot": user.is_bot}


def legal_move_list(position: engine.Position) -> list[dict]:
    """The legal moves as the state document shows them.

    Each geometric move is one engine object for the life of the process, so its document is
    built once and shared by every state that lists it (the documents are never changed).
    """
    return [_legal_move_document(move) for move in engine.legal_moves(position)]


_LEGAL_MOVE_DOCUMENTS: dict[engine.Move, dict] = {}


def _legal_move_document(move: engine.Move) -> dict:
    document = _LEGAL_MOVE_DOCUMENTS.get(move)
    if document is None:
        document = _LEGAL_MOVE_DOCUMENTS[move] = {
            "notation": move.notation,
            "marbles": list(move.marbles),
            "destinations": list(move.destinations),
            "direction": move.direction,
            "kind": move.kind,
            "pushed": list(move.pushed),
            "pushed_off": move.pushed_off,
        }
    return document


def move_document(
    ply: int, notation: str, played_at: datetime, clock_ms: int, pushed_off: bool
) -> dict:
    """A played move as the state's ``moves`` list shows it."""
    return {
        "ply": ply,
        "notation": notation,
        "played_at": played_at.isoformat(),
        "clock_ms": clock_ms,
        "pushed_off": pushed_off,
    }


def game_state(game: Game, *, now: datetime, move_documents: list[dict] | None = None) -> dict:
    """Everything a client needs to draw the game, as of ``now`` on the server's clock.

    ``version`` is the ply: a client sends it back with its move, and refetches when an event
    carries a version it did not expect. ``move_documents``, when the caller has them, are the
    game's moves in ply order as :func:`move_document` renders them.

    During the placement variant's placement phase ``legal_moves`` are the placements (kind
    ``placement``, notation ``@e5``), ``placement`` says how many marbles each side has still to
    place (null otherwise) and nobody has pushed anything off.
    """
    if move_documents is None:
        move_documents = move_documents_of(game)
    return state_of(game, game_update(game, now=now), move_documents)


def move_documents_of(game: Game) -> list[dict]:
    """The game's moves in ply order as the state shows them (:func:`move_document`)."""
    return [
        move_document(*row)
        for row in Move.objects.filter(game=game)
        .order_by("ply")
        .values_list("ply", "notation", "played_at", "clock_ms", "pushed_off")
    ]


def state_of(game: Game, update: dict, move_documents: list[dict]) -> dict:
    """The whole state from ``update`` (:func:`game_update`) and every move of the game."""
    return {
        "id": game.pk,
        "url": game.get_absolute_url(),
        "black": _player(game.black),
        "white": _player(game.white),
        "rated": game.rated,
        "start": game.start,
        "first_mover": game.start_position[:1],  # "w" only in a custom start that says so
        "time_control": {
            "base_seconds": game.base_seconds,
            "increment_seconds": game.increment_seconds,
            "label": game.time_control.label(),
            # A correspondence clock's days a move (games.clock); null for a live clock.
            "days_per_move": game.days_per_move,
        },
        "marbles_to_win": game.marbles_to_win,
        **update,
        "moves": move_documents,
    }


def game_update(game: Game, *, now: datetime, position: engine.Position | None = None) -> dict:
    """The part of the state a move, a draw offer or the end changes (all of it but the
    players, the settings and the moves), as of ``now``. ``position``: the game's position
    when the caller has it parsed already (the move path's engine)."""
    if position is None:
        position = engine.Position.from_string(game.position)
    black_lost, white_lost = marbles_lost(game, position)
    placing = _placement_document(game)
    if not game.is_active:
        legal_moves = []
    elif placing:
        legal_moves = _placement_moves(position)
    else:
        legal_moves = legal_move_list(position)
    clock = game.clock
    running = game.is_active and game.flag_deadline is not None
    return {
        "version": game.ply,
        "ply": game.ply,
        "status": game.status,
        "position": game.position,
        "side_to_move": game.side_to_move,
        "pushed_off": {"black": black_lost, "white": white_lost},
        "placement": placing,
        "legal_moves": legal_moves,
        "clock": {
            "black_ms": clock.remaining_ms("b", now),
            "white_ms": clock.remaining_ms("w", now),
            "running": running,
            "first_moves": game.is_active and clock.in_first_moves,
            "first_move_ms_left": (
                max(0, int((game.flag_deadline - now).total_seconds() * 1000))
                if running and clock.in_first_moves
                else None
            ),
            "deadline": game.flag_deadline.isoformat() if running else None,
            "server_now": now.isoformat(),
        },
        "draw_offer": game.draw_offer or None,
        "rating_changes": rating_changes(game),
        "result": game.result or None,
        "termination": game.termination or None,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
    }


def move_cells(move: engine.Move) -> dict:
    """The marbles a played move moved and where they went (the board marks them)."""
    document = _legal_move_document(move)
    return {"marbles": document["marbles"], "destinations": document["destinations"]}


def rating_changes(game: Game) -> dict:
    """How the game moved both ratings (empty until a rated game is finished)."""
    if game.is_active or not game.rated:
        return {}
    changes = {}
    for change in game.rating_changes.all():  # ratings.RatingChange, by its reverse relation
        side = "black" if change.user_id == game.black_id else "white"
        changes[side] = {
            "before": change.rating_before,
            "after": change.rating_after,
            "delta": change.delta,
        }
    return changes


def open_seeks(*, now: datetime) -> QuerySet[Challenge]:
    return Challenge.objects.filter(
        status=Challenge.Status.OPEN, opponent__isnull=True, expires_at__gt=now
    ).select_related("challenger")


def challenges_for(user: User, *, now: datetime) -> QuerySet[Challenge]:
    """Open challenges the user made or received."""
    return Challenge.objects.filter(
        Q(challenger=user) | Q(opponent=user), status=Challenge.Status.OPEN, expires_at__gt=now
    ).select_related("challenger", "opponent")


def first_of(games: QuerySet[Game], order: tuple, limit: int) -> QuerySet[Game]:
    """The first ``limit`` of ``games`` in ``order``, as a query to which the rows' players
    and boards can be joined cheaply: the database picks the ids first (a top-N sort of the
    matching rows), then joins only those. Joined before the limit, PostgreSQL reads and
    hashes the whole user table for every list (bench/ratings.py, 5,000 players: 2.8 ms of a
    player's 20 latest games against 0.4 ms so)."""
    return Game.objects.filter(pk__in=games.order_by(*order).values("pk")[:limit]).order_by(*order)


def ongoing_games() -> QuerySet[Game]:
    return Game.objects.filter(status=Game.Status.STARTED).select_related("black", "white")


def games_of(user: User) -> QuerySet[Game]:
    return Game.objects.filter(Q(black=user) | Q(white=user)).select_related("black", "white")


def game_found(game_id: int) -> Game:
    """The game, or NotFound naming it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no game %(game_id)s.") % {"game_id": game_id})
    return game


def chat_line_document(line: ChatMessage, author: User) -> dict:
    """A chat line as the API, the socket and the replay give it."""
    return {
        "id": line.pk,
        "room": line.room,
        "user": author.username,
        "text": line.text,
        "created": line.created.isoformat().replace("+00:00", "Z"),
    }


def chat_lines(game: Game, room: str, *, limit: int = 200) -> list[dict]:
    """The last ``limit`` lines of ``room`` of the game's chat, oldest first."""
    lines = list(
        ChatMessage.objects.filter(game=game, room=room)
        .select_related("user")
        .order_by("-created", "-id")[:limit]
    )
    return [chat_line_document(line, line.user) for line in reversed(lines)]


def chat_muted(game: Game, user: User) -> bool:
    """Whether ``user`` (a player) has muted the other player in the game's chat."""
    return ChatMute.objects.filter(game=game, user=user).exists()


def rematch_offer(game_id: int, user: User, *, now: datetime) -> Challenge | None:
    """The open rematch offer of the game that ``user`` made or received, if any."""
    return (
        Challenge.objects.filter(
            rematch_of_id=game_id, status=Challenge.Status.OPEN, expires_at__gt=now
        )
        .filter(Q(challenger=user) | Q(opponent=user))
        .select_related("challenger", "opponent")
        .first()
    )


def conditional_moves_document(game: Game, user: User) -> dict:
    """``user``'s conditional moves in ``game`` (games.conditional): the ply they start from
    (the game's when there are none) and the lines; ``can_set``: whether they may be saved now
    (a player of a correspondence game in play, on the opponent's turn). NotAllowed for one who
    does not play the game: a player's lines are theirs alone."""
    colour = game.colour_of(user) if user.is_authenticated else None
    if colour is None:
        raise NotAllowed(
            _("You are not a player of game %(pk)s.") % {"pk": game.pk}, code="not_a_player"
        )
    saved = ConditionalMoves.objects.filter(game=game, player=user).first()
    return {
        "game": game.pk,
        "ply": saved.ply if saved else game.ply,
        "lines": saved.lines if saved else [],
        "can_set": bool(game.is_active and game.days_per_move and game.side_to_move != colour),
    }


def premove_candidates(game: Game, user: User) -> list[dict]:
    """The moves ``user`` could play if it were their turn in the current position: what the
    page offers for a premove (queued on the opponent's turn, sent once it is theirs; the server
    then checks it against the new position like any move). Empty when ``user`` is not a
    player of the game in play."""
    colour = game.colour_of(user)
    if colour is None or not game.is_active or placements_left(game):
        return []  # no premoves during a placement phase
    position = engine.Position.from_string(game.position)
    mine = engine.Position(colour, position.black_bits, position.white_bits)
    return legal_move_list(mine)


def outcome_for(result: str, colour: str) -> str:
    """The outcome of a game with ``result`` ("1-0", "0-1", "1/2-1/2") for the player of
    ``colour`` ("black" or "white"): "win", "draw" or "loss"."""
    if result == "1/2-1/2":
        return "draw"
    black_won = result == "1-0"
    return "win" if black_won == (colour == "black") else "loss"


def outcome_told(result: str, colour: str) -> str:
    """:func:`outcome_for` as a sentence says it: "won", "drew" or "lost"."""
    return {"win": "won", "draw": "drew", "loss": "lost"}[outcome_for(result, colour)]


# --- vacations (games.services.vacation) ---------------------------------------------------------


def correspondence_running() -> QuerySet[Game]:
    """Correspondence games in progress whose clock runs (not stopped by a vacation)."""
    return Game.objects.filter(
        status=Game.Status.STARTED,
        base_seconds__gt=LIVE_LIMIT_SECONDS,
        flag_deadline__isnull=False,
    )


def vacation_current(user_id: int, now: datetime) -> Vacation | None:
    """The player's vacation running at ``now``, if any."""
    return (
        Vacation.objects.filter(user_id=user_id, started_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def on_vacation(user_id: int, now: datetime) -> bool:
    return Vacation.objects.filter(user_id=user_id, started_at__lte=now, ends_at__gt=now).exists()


def vacation_left(user_id: int, now: datetime) -> timedelta:
    """What is left of the player's allowance for ``now``'s calendar year (UTC)."""
    year_start = datetime(now.year, 1, 1, tzinfo=UTC)
    year_end = datetime(now.year + 1, 1, 1, tzinfo=UTC)
    used = timedelta()
    for started, ends in Vacation.objects.filter(
        user_id=user_id, ends_at__gt=year_start, started_at__lt=year_end
    ).values_list("started_at", "ends_at"):
        # the part of each vacation in this year and already taken
        used += max(timedelta(), min(ends, now, year_end) - max(started, year_start))
    allowance = timedelta(days=settings.CORRESPONDENCE_VACATION_DAYS)
    return max(timedelta(), min(allowance - used, year_end - now))


def vacation_summary(user_id: int, now: datetime) -> dict:
    """The player's vacation as the lobby and the API show it: running or not, since and until
    when (its planned end: when the year's allowance would be spent), and what is left of the
    allowance were it to end now (in days, one decimal)."""
    current = vacation_current(user_id, now)
    left = vacation_left(user_id, now)  # a running vacation's days so far counted, not the rest
    return {
        "on_vacation": current is not None,
        "started_at": current.started_at.isoformat() if current else None,
        "ends_at": current.ends_at.isoformat() if current else None,
        "days_left": round(left.total_seconds() / 86400, 1),
        "days_a_year": settings.CORRESPONDENCE_VACATION_DAYS,
    }
