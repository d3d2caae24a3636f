"""Reads of the public game archive: the search, a game's row, its replay and its rating changes.

Decisions:

* **Club filter**: a game belongs to a club's archive when both players are *current* members of
  the club, or when it is a game of one of the club's tournaments (whoever played it; open
  tournaments admit non-members). There is no membership history, so a player who leaves a
  club takes their casual games with them; tournament games stay.
* **Aborted games** are left out unless ``include_aborted`` is set. A record has no "aborted"
  result, so an aborted game is written with the result ``*`` (Termination ``unterminated``) and
  an extra ``[Status "aborted"]`` tag (``games.records``).
* **Games over before any move** (``Game.aborted_unplayed``: Black's first move not made in
  time) are shown as aborted (``aborted`` in a row, the replay's text) though they keep their
  result and termination (a rated abandonment, a tournament board's forfeit), and are found
  as finished games.
* **Imported games** (``tournaments.services.board_record_import``) are finished, *unrated* (the
  board's result is what the tournament rates), played "now" and have no known clock.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from abalone_site.errors import NotFound
from archive.forms import ArchiveFilters
from clubs.models import Membership
from games import engine
from games.models import Game, Move
from games.records import RECORD_RELATIONS, tournament_board_of
from ratings.models import RatingChange

PAGE_SIZE = 50


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def archive_games(filters: ArchiveFilters) -> QuerySet[Game]:
    """Finished games (and aborted ones if asked) matching ``filters``, newest first.

    Ordered by ``-ended_at, -id``; the index this wants is ``Game(status, -ended_at)``.
    Rows come with both players and the tournament board (round, tournament) joined in.
    """
    statuses = [Game.Status.FINISHED]
    if filters.include_aborted:
        statuses.append(Game.Status.ABORTED)
    games = Game.objects.filter(status__in=statuses)
    if filters.player is not None:
        games = games.filter(Q(black=filters.player) | Q(white=filters.player))
        if filters.opponent is not None:
            games = games.filter(Q(black=filters.opponent) | Q(white=filters.opponent))
    if filters.club is not None:
        members = Membership.objects.filter(club=filters.club).values("user_id")
        games = games.filter(
            Q(black__in=members, white__in=members)
            | Q(tournament_board__round__tournament__club=filters.club)
        )
    if filters.tournament is not None:
        games = games.filter(tournament_board__round__tournament=filters.tournament)
    if filters.start:
        games = games.filter(start=filters.start)
    if filters.result:
        games = games.filter(result=filters.result)
    if filters.termination:
        games = games.filter(termination=filters.termination)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.ended_from is not None:
        games = games.filter(ended_at__gte=_day_start(filters.ended_from))
    if filters.ended_to is not None:
        games = games.filter(ended_at__lt=_day_start(filters.ended_to + timedelta(days=1)))
    return games.select_related(*RECORD_RELATIONS).order_by("-ended_at", "-id")


def archive_game(game_id: int) -> Game:
    game = Game.objects.select_related(*RECORD_RELATIONS).filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def game_row(game: Game) -> dict:
    """One search result, as the API sends it."""
    board = tournament_board_of(game)
    return {
        "id": game.pk,
        "black": game.black.username,
        "white": game.white.username,
        "status": game.status,
        "result": game.result or None,
        "termination": game.termination or None,
        "aborted": shown_as_aborted(game),
        "plies": game.ply,
        "start": game.start,
        "time_control": game.time_control_label,
        "marbles_to_win": game.marbles_to_win,
        "rated": game.rated,
        "created_at": game.created_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "tournament": (
            {
                "slug": board.round.tournament.slug,
                "name": board.round.tournament.name,
                "round": board.round.number,
                "board": board.number,
            }
            if board
            else None
        ),
        "replay_url": reverse("archive-replay", args=[game.pk]),
        "record_url": reverse("archive-record", args=[game.pk]),
    }


def rating_changes(game: Game) -> dict[str, RatingChange]:
    """The rating change of each colour (``"b"``/``"w"``) from this game, where there is one.

    A server game is rated per game; an over-the-board board is rated per board (its imported
    game, if any, is unrated), so the board's changes count for the game linked to it.
    """
    board = tournament_board_of(game)
    condition = Q(game=game)
    if board is not None:
        condition |= Q(board=board)
    changes = {}
    for change in RatingChange.objects.filter(condition).order_by("pk"):
        colour = game.colour_of(change.user)
        if colour is not None:
            changes.setdefault(colour, change)
    return changes


def shown_as_aborted(game: Game) -> bool:
    """Aborted, or over before any move whatever result it carries (``Game.aborted_unplayed``)."""
    return game.status == Game.Status.ABORTED or game.aborted_unplayed


def result_text(game: Game) -> str:
    """How the game ended, in words: "White wins by resignation", "Draw agreed", ..."""
    if game.status == Game.Status.STARTED:
        return "In progress"
    winner = {"1-0": "Black", "0-1": "White"}.get(game.result)
    loser = "White" if winner == "Black" else "Black"
    if game.aborted_unplayed and winner:
        board = " (a forfeit on the tournament board)" if game.termination == "forfeit" else ""
        return f"Game aborted: {loser} did not make a first move{board}"
    if game.status == Game.Status.ABORTED:
        return "Game aborted"
    texts = {
        "marbles": f"{winner} wins by marbles pushed off",
        "resignation": f"{winner} wins by resignation",
        "time": f"{winner} wins on time",
        "agreement": "Draw agreed",
        "repetition": "Draw by threefold repetition",
        "move_cap": f"{winner} wins at the move limit" if winner else "Draw at the move limit",
        "no_legal_moves": f"{winner} wins: {loser} has no legal move",
        "abandoned": f"{winner} wins: {loser} did not make a first move",
        "forfeit": f"{winner} wins by forfeit" if winner else "Forfeit",
    }
    return texts.get(game.termination) or (f"{winner} wins" if winner else "Draw")


def clocks_known(game: Game, moves: list[Move]) -> bool:
    """Whether the moves carry the players' clocks.

    Imported games store 0 for every move; a live game never does (a mover left with 0 has lost
    on time before the move is played), so all-zero clocks mean "unknown".
    """
    return game.time_control.has_clock and (not moves or any(m.clock_ms for m in moves))


def replay_data(game: Game, moves: list[Move] | None = None) -> dict:
    """Everything the replay page draws, one entry per ply (ply 0 is the start).

    ``frames[k]`` has the position after ply ``k``, both clocks as they stood then (the mover's
    from its move, the other side's from its own last move; ``None`` when the clocks are not
    known) and the marbles each colour has lost.
    """
    if moves is None:
        moves = list(Move.objects.filter(game=game).order_by("ply"))
    known = clocks_known(game, moves)
    initial_ms = game.base_seconds * 1000 if known else None
    clock = {"b": initial_ms, "w": initial_ms}

    def frame(position_text: str, move: Move | None) -> dict:
        position = engine.Position.from_string(position_text)
        return {
            "ply": move.ply if move else 0,
            "position": position_text,
            "side_to_move": position.side_to_move,
            "black_ms": clock["b"],
            "white_ms": clock["w"],
            "black_lost": position.pushed_off(engine.BLACK),
            "white_lost": position.pushed_off(engine.WHITE),
        }

    frames = [frame(game.start_position, None)]
    side = frames[0]["side_to_move"]
    for move in moves:
        if known:
            clock[side] = move.clock_ms
        frames.append(frame(move.position_after, move))
        side = frames[-1]["side_to_move"]
    return {
        "id": game.pk,
        "status": game.status,
        "result": game.result or None,
        "termination": game.termination or None,
        "marbles_to_win": game.marbles_to_win,
        "clocks_known": known,
        "moves": [
            {
                "ply": move.ply,
                "notation": move.notation,
                "mover": frames[index]["side_to_move"],
                "pushed_off": move.pushed_off,
                "clock_ms": move.clock_ms if known else None,
            }
            for index, move in enumerate(moves)
        ],
        "frames": frames,
    }
