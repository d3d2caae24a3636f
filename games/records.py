"""A stored game as the rules engine sees it, and as a game record (``docs/game-records.md``).

:func:`engine_game_of` is the one way to rebuild an :class:`engine.Game` from the database: the
move path (``games.move_store``), the archive and the tournament exports all use it.
:func:`game_record` and :func:`records_stream` write the one record of a game, so a game
downloaded from the archive and from its tournament's export is the same text.

A game played on a tournament board carries the board as ``game.tournament_board`` (the reverse
side of ``tournaments.Board.game``); its record names the event and the round from it. No
tournament code is imported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import Prefetch, QuerySet

from games import engine
from games.models import Game, Move

#: A bulk download stops after this many games (narrow the search for more).
DOWNLOAD_LIMIT = 5000
DOWNLOAD_BATCH = 100
#: What a record download joins to each game.
RECORD_RELATIONS = (
    "black",
    "white",
    "tournament_board__round__tournament",
    "match_game__board__round__tournament",
)


def notations_of(game: Game) -> list[str]:
    """The game's moves in ply order, as notation."""
    return list(Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True))


def engine_game_of(game: Game, notations: Iterable[str] | None = None) -> engine.Game:
    """The engine's game: ``game``'s start and rules, its moves replayed (``notations`` in ply
    order when the caller has them, else read), and its end when the server ended it for a
    reason outside the board (resignation, time, agreement, forfeit).

    A named start is passed by name: the record then names it ("belgian"), and the placement
    variant needs it (its empty board alone is a position nobody can move in; by name the
    engine plays the placement phase first). A custom start (``start`` "custom") is passed as
    the position string the game stored."""
    start = game.start_position
    if game.start in engine.START_NAMES and engine.start_position(game.start).to_string() == start:
        start = game.start
    engine_game = engine.Game(
        start,
        marbles_to_win=game.marbles_to_win,
        threefold_repetition=game.threefold_repetition,
        max_plies=game.max_plies,
        max_plies_result=game.max_plies_result,
    )
    for notation in notations_of(game) if notations is None else notations:
        engine_game.play(notation)
    if (
        game.status == Game.Status.FINISHED
        and not engine_game.is_over
        and game.termination in engine.EXTERNAL_TERMINATIONS
    ):
        engine_game.end(game.result, game.termination)
    return engine_game


def tournament_board_of(game: Game):
    """The tournament board ``game`` was played on, or None: the board's game, or one of its
    match's games (``game.match_game``, the reverse side of ``tournaments.MatchGame.game``)."""
    board = getattr(game, "tournament_board", None)  # a missing reverse one-to-one: None
    if board is None:
        match_game = getattr(game, "match_game", None)
        board = match_game.board if match_game is not None else None
    return board


def match_game_number(game: Game) -> int | None:
    """The game's number in its tournament match, or None outside match rounds."""
    match_game = getattr(game, "match_game", None)
    return match_game.number if match_game is not None else None


def tournament_place(game: Game) -> dict | None:
    """Where a tournament's game stands, for its page: the event's name and slug, the round
    and board numbers, in a match round the game's number, the match's length and the next
    game once it exists; None outside tournaments."""
    board = tournament_board_of(game)
    if board is None:
        return None
    tournament = board.round.tournament
    place = {
        "event": tournament.name,
        "slug": tournament.slug,
        "round": board.round.number,
        "board": board.number,
        "game": match_game_number(game),
        "games": tournament.match_games,
        "next": None,
        "tiebreak": False,
    }
    if place["game"] is not None:
        # a cup's tie-break game comes after the match's games
        place["tiebreak"] = tournament.is_knockout and place["game"] > tournament.match_games
        later = board.match_games.filter(number=place["game"] + 1).select_related("game")
        following = later.first()
        place["next"] = following.game if following is not None else None
    return place


def record_headers(game: Game) -> dict[str, str]:
    board = tournament_board_of(game)
    if board is not None:
        event = board.round.tournament.name
        round_label = f"{board.round.number}.{board.number}"
        number = match_game_number(game)
        if number is not None:  # a match's game: round, board, game
            round_label += f".{number}"
    else:
        event = "Rated game" if game.rated else "Casual game"
        round_label = "-"
    played = game.ended_at or game.created_at
    if game.base_seconds is None:
        time_control = "-"
    elif game.days_per_move:  # PGN's "moves/seconds" period: one move in the days' seconds
        time_control = f"1/{game.base_seconds}"
    elif game.increment_seconds:
        time_control = f"{game.base_seconds}+{game.increment_seconds}"
    else:
        time_control = str(game.base_seconds)
    headers = {
        "Event": event,
        "Round": round_label,
        "Date": played.strftime("%Y.%m.%d"),
        "Black": game.black.username,
        "White": game.white.username,
        "TimeControl": time_control,
        "Site": "Sumito",
        "GameId": str(game.pk),
    }
    if game.status == Game.Status.ABORTED:
        headers["Status"] = "aborted"
    return headers


def game_record(game: Game, notations: Iterable[str] | None = None) -> str:
    """The record of one game (any status; a game in progress or aborted ends with ``*``)."""
    return engine.write_record(engine_game_of(game, notations), record_headers(game))


def records_stream(games: QuerySet[Game], *, limit: int | None = DOWNLOAD_LIMIT) -> Iterator[str]:
    """The records of ``games`` in their order (at most ``limit``; None: all), separated by
    blank lines.

    Games and their moves are read a batch at a time (a few queries per batch, not per game),
    so memory stays flat however long the download.
    """
    ids = list(games.values_list("pk", flat=True)[:limit])
    first = True
    moves = Prefetch(
        "moves", queryset=Move.objects.only("game_id", "ply", "notation").order_by("ply")
    )
    for offset in range(0, len(ids), DOWNLOAD_BATCH):
        batch_ids = ids[offset : offset + DOWNLOAD_BATCH]
        batch = (
            Game.objects.filter(pk__in=batch_ids)
            .select_related(*RECORD_RELATIONS)
            .prefetch_related(moves)
        )
        by_id = {game.pk: game for game in batch}
        for game_id in batch_ids:
            game = by_id.get(game_id)
            if game is None:  # deleted meanwhile
                continue
            text = game_record(game, [move.notation for move in game.moves.all()])
            yield text if first else "\n" + text
            first = False
