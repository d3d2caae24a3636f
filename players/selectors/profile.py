"""Reads of a player's page: their record, games, head-to-head, tournaments and games against
the computer. Each costs a fixed, small number of queries, whatever the size of the player's
history (standings excepted: one computation per tournament the player played in)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Count, F, Q, QuerySet, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.urls import reverse

from accounts.computer_names import level_named
from accounts.models import User
from accounts.selectors import against_the_computer
from games.clock import TimeControl
from games.models import Game, time_control_label
from games.selectors import ABORTED_UNPLAYED, first_of, outcome_for
from multiplayer.models import Seat
from ratings.models import PlayerRating, RatingChange, TableRatingChange
from tournaments import selectors as tournament_selectors
from tournaments.models import Board, Entrant, MatchGame, Tournament
from tournaments.pairing.matches import game_sides

RECENT_GAMES = 20
#: Game lists' order: the newest first (a game without an end, last).
NEWEST_FIRST = (F("ended_at").desc(nulls_last=True), "-pk")
PROFILE_TOURNAMENTS = 20
RESULTS = ("1-0", "0-1", "1/2-1/2")
# Positions are not shown in game lists; leaving them out keeps long histories light.
GAME_TEXT_FIELDS = ("start_position", "position")
#: Where a game without a date stands among dated ones: last.
_LONG_AGO = datetime.min.replace(tzinfo=UTC)


def _finished_games_of(user: User) -> QuerySet[Game]:
    """The player's finished games with a result against people, those over before any move
    included (the game lists show them as aborted; the record leaves them out). The games
    against the computer are kept apart (:func:`computer_games`)."""
    return Game.objects.filter(
        Q(black=user) | Q(white=user), status=Game.Status.FINISHED, result__in=RESULTS
    ).exclude(against_the_computer(user))


def _result_code(column: str) -> str:
    """SQL: a result as a number (0 while there is none), for a sum that sees a result change."""
    return (
        f"CASE {column} WHEN '1-0' THEN 1 WHEN '0-1' THEN 2 WHEN '1/2-1/2' THEN 3 "
        f"WHEN '' THEN 0 ELSE 4 END"
    )


#: SQL: the ids of a player's entries in tournaments (the player's id its one parameter).
_ENTRANTS = f"SELECT id FROM {Entrant._meta.db_table} WHERE user_id = %s"


def history_stamp(user: User) -> str:
    """What the history sections of ``user``'s page are drawn from, in one short string that
    changes whenever any of it does: their rating rows and rating changes (two-player and
    tables), their finished server games and results, their over-the-board boards and match
    games with results, their seats at finished tables with places. One query, plain SQL (the
    same on PostgreSQL and SQLite), each part read through the player's own rows' indexes.

    Each part is (how many, the highest id, a sum weighting each row's id by what may change
    in it): a new row, a deleted one, a rating recomputed or a result corrected each change it.
    """
    code = _result_code("result")
    rows_of = {
        PlayerRating: ("user_id = %s", "rating + 7 * games + 13 * peak", 1),
        RatingChange: ("user_id = %s", "id * rating_after", 1),
        TableRatingChange: ("user_id = %s", "id * rating_after", 1),
        Game: ("(black_id = %s OR white_id = %s) AND status = 'finished'", f"id * {code}", 2),
        Board: (
            f"(black_id IN ({_ENTRANTS}) OR white_id IN ({_ENTRANTS}))",
            f"id * {code}",
            2,
        ),
        MatchGame: (
            f"board_id IN (SELECT id FROM {Board._meta.db_table} WHERE black_id IN ({_ENTRANTS})"
            f" OR white_id IN ({_ENTRANTS}))",
            f"id * {code}",
            2,
        ),
        Seat: ("user_id = %s", "table_id * (1 + coalesce(place, 0))", 1),
    }
    columns = [
        f"(SELECT count(*) || '.' || coalesce(max(id), 0) || '.' || coalesce(sum({weight}), 0)"
        f" FROM {model._meta.db_table} WHERE {where})"
        for model, (where, weight, _) in rows_of.items()
    ]
    params = [user.pk for _, _, count in rows_of.values() for _ in range(count)]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)
        return ";".join(str(part) for part in cursor.fetchone())


@dataclass(frozen=True)
class Record:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2


def _record_counts(rows: QuerySet, black: Q, white: Q) -> dict[str, int]:
    return rows.aggregate(
        black_wins=Count("pk", filter=black & Q(result="1-0")),
        black_draws=Count("pk", filter=black & Q(result="1/2-1/2")),
        black_losses=Count("pk", filter=black & Q(result="0-1")),
        white_wins=Count("pk", filter=white & Q(result="0-1")),
        white_draws=Count("pk", filter=white & Q(result="1/2-1/2")),
        white_losses=Count("pk", filter=white & Q(result="1-0")),
    )


def played_boards(user: User) -> list[Board]:
    """The over-the-board tournament boards ``user`` played to a result (boards without a
    server game; forfeits and byes are no games played, as for ratings and FIDE's tie-breaks),
    newest first, with their tournament, round and players: the query the record and the
    recent games share (:func:`player_record`, :func:`recent_games`). A match over the board
    counts game by game: each game played is a board of its own here, in that game's colours
    (``match_game`` set), the last game first."""
    boards = list(
        Board.objects.filter(game__isnull=True, white__isnull=False)
        .filter(
            Q(round__tournament__match_games=1, result__in=RESULTS)
            | Q(round__tournament__match_games__gt=1)
            | Q(round__tournament__format="knockout")  # a cup's games count one by one
        )
        .filter(Q(black__user=user) | Q(white__user=user))
        .select_related("round__tournament", "black__user", "white__user")
        .annotate(played_at=Coalesce("round__finished_at", "round__started_at", "round__paired_at"))
        .order_by(F("played_at").desc(nulls_last=True), "-round__number", "-pk")
    )
    matches = [board for board in boards if board.round.tournament.has_matches]
    prefetch_related_objects(matches, "match_games")
    played: list[Board] = []
    for board in boards:
        if not board.round.tournament.has_matches:
            played.append(board)
            continue
        for match_game in reversed(board.match_games.all()):
            if match_game.result in RESULTS:
                played.append(_as_board(board, match_game))
    return played


def _as_board(board: Board, match_game) -> Board:
    """A game of ``board``'s match over the board seen as a board: its own colours and result."""
    view = copy.copy(board)  # a model's copy has its own field cache
    view.black, view.white = game_sides(board.black, board.white, match_game.number)
    view.result = match_game.result
    view.match_game = match_game
    return view


def player_record(user: User, *, boards: list[Board] | None = None) -> dict[str, Record]:
    """Games won, drawn and lost: overall, as Black (first mover), as White.

    Finished server games against people (not the computer), and the boards of over-the-board
    tournaments played to a result (:func:`played_boards`, or ``boards`` as it gave them). A
    game over before any move (``Game.aborted_unplayed``) is not counted, whatever its result.
    """
    counts = _record_counts(
        _finished_games_of(user).exclude(ABORTED_UNPLAYED), Q(black=user), Q(white=user)
    )
    for board in played_boards(user) if boards is None else boards:
        colour = "black" if board.black.user_id == user.pk else "white"
        outcome = {"win": "wins", "draw": "draws", "loss": "losses"}[
            outcome_for(board.result, colour)
        ]
        counts[f"{colour}_{outcome}"] += 1
    black = Record(counts["black_wins"], counts["black_draws"], counts["black_losses"])
    white = Record(counts["white_wins"], counts["white_draws"], counts["white_losses"])
    overall = Record(
        black.wins + white.wins, black.draws + white.draws, black.losses + white.losses
    )
    return {"overall": overall, "black": black, "white": white}


@dataclass(frozen=True)
class GameLine:
    """A finished game as one player saw it: a server game (``game``), or an over-the-board
    tournament board played to a result (``board``, and no game)."""

    game: Game | None
    colour: str  # "black" or "white"
    opponent: User
    outcome: str  # "win", "draw", "loss", or "aborted" (over before any move: no result)
    rating_change: RatingChange | None
    board: Board | None = None

    @property
    def delta(self) -> int | None:
        return self.rating_change.delta if self.rating_change else None

    @property
    def played_at(self) -> datetime | None:
        return self.game.ended_at if self.game is not None else self.board.played_at

    @property
    def url(self) -> str:
        if self.game is not None:
            return self.game.get_absolute_url()
        tournament = self.board.round.tournament
        return reverse(
            "tournament-round", kwargs={"slug": tournament.slug, "number": self.board.round.number}
        )

    @property
    def result(self) -> str:
        return self.game.result if self.game is not None else self.board.result

    @property
    def rated(self) -> bool:
        return self.game.rated if self.game is not None else self.board.round.tournament.rated

    @property
    def time_control_label(self) -> str:
        if self.game is not None:
            return self.game.time_control_label
        tournament = self.board.round.tournament
        return time_control_label(
            TimeControl(tournament.base_seconds, tournament.increment_seconds)
        )


def _seen_by(user: User, game: Game) -> tuple[str, User, str]:
    """(``user``'s colour, their opponent, the outcome for them) of a finished game."""
    colour = "black" if game.black_id == user.pk else "white"
    opponent = game.white if colour == "black" else game.black
    outcome = "aborted" if game.aborted_unplayed else outcome_for(game.result, colour)
    return colour, opponent, outcome


def _game_lines(user: User, games: list[Game], boards: list[Board] = ()) -> list[GameLine]:
    """The lines of ``games`` and ``boards`` (over the board), with ``user``'s rating change of
    each (one query)."""
    in_matches = [b.match_game.pk for b in boards if getattr(b, "match_game", None)]
    changes = RatingChange.objects.filter(user=user).filter(
        Q(game_id__in=[g.pk for g in games])
        | Q(board_id__in=[b.pk for b in boards])
        | Q(match_game_id__in=in_matches)
    )
    by_game = {c.game_id: c for c in changes if c.game_id}
    by_board = {c.board_id: c for c in changes if c.board_id}
    by_match_game = {c.match_game_id: c for c in changes if c.match_game_id}
    lines = [GameLine(game, *_seen_by(user, game), by_game.get(game.pk)) for game in games]
    for board in boards:
        colour = "black" if board.black.user_id == user.pk else "white"
        opponent = (board.white if colour == "black" else board.black).user
        outcome = outcome_for(board.result, colour)
        match_game = getattr(board, "match_game", None)
        change = (
            by_match_game.get(match_game.pk) if match_game is not None else by_board.get(board.pk)
        )
        lines.append(GameLine(None, colour, opponent, outcome, change, board))
    return lines


def recent_games(
    user: User, *, limit: int = RECENT_GAMES, boards: list[Board] | None = None
) -> list[GameLine]:
    """The player's last finished games against people, newest first, with their rating change
    if rated: server games and over-the-board tournament boards (:func:`played_boards`, or
    ``boards`` as it gave them), as the record counts them."""
    games = list(
        first_of(_finished_games_of(user), NEWEST_FIRST, limit)
        .select_related("black", "white")
        .defer(*GAME_TEXT_FIELDS)
    )
    boards = (played_boards(user) if boards is None else boards)[:limit]
    lines = _game_lines(user, games, boards)
    lines.sort(key=lambda line: line.played_at or _LONG_AGO, reverse=True)
    return lines[:limit]


@dataclass(frozen=True)
class HeadToHead:
    opponent: User
    record: Record
    games: list[GameLine]


def head_to_head(user: User, opponent: User) -> HeadToHead:
    """Every finished server game between the two, newest first, and the record from ``user``
    (games over before any move are listed as aborted, not counted)."""
    games = list(
        Game.objects.filter(
            Q(black=user, white=opponent) | Q(black=opponent, white=user),
            status=Game.Status.FINISHED,
            result__in=RESULTS,
        )
        .defer(*GAME_TEXT_FIELDS)
        .order_by(*NEWEST_FIRST)
    )
    players = {user.pk: user, opponent.pk: opponent}
    for game in games:  # both players are known: nothing to join
        game.black, game.white = players[game.black_id], players[game.white_id]
    lines = _game_lines(user, games)
    outcomes = [line.outcome for line in lines]
    record = Record(outcomes.count("win"), outcomes.count("draw"), outcomes.count("loss"))
    return HeadToHead(opponent, record, lines)


@dataclass(frozen=True)
class TournamentLine:
    tournament: Tournament
    rank: int | None
    players: int
    points: str
    withdrawn: bool


def player_tournaments(user: User, *, limit: int = PROFILE_TOURNAMENTS) -> tuple[list, int]:
    """The tournaments the player entered that have begun, newest first, with place and score.

    Standings are computed only for those tournaments (at most ``limit`` of them); returns the
    lines and how many such tournaments there are in all.
    """
    entries = (
        Entrant.objects.filter(user=user, tournament__current_round__gt=0)
        .select_related("tournament")
        .order_by(F("tournament__started_at").desc(nulls_last=True), "-tournament_id")
    )
    shown = list(entries[:limit])
    total = len(shown) if len(shown) < limit else entries.count()  # counted only when more
    lines = []
    for entry in shown:
        rows = tournament_selectors.standings(entry.tournament)
        mine = next((row for row in rows if row["username"] == user.username), None)
        lines.append(
            TournamentLine(
                entry.tournament,
                mine["rank"] if mine else None,
                len(rows),
                mine["points"] if mine else "0",
                entry.status == Entrant.Status.WITHDRAWN,
            )
        )
    return lines, total


# --- games against the computer -------------------------------------------------------------------

#: The games against the computer a player's page lists (the newest).
COMPUTER_GAMES_SHOWN = 20


@dataclass(frozen=True)
class ComputerGameLine:
    """A finished game against the computer, as the player saw it."""

    game: Game
    level: int
    colour: str  # the player's: "black" or "white"
    outcome: str  # "win", "draw", "loss", or "aborted" (over before any move: no result)


@dataclass(frozen=True)
class ComputerGames:
    """A player's finished games against the computer: the newest, and the counts of all."""

    lines: list[ComputerGameLine]
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def computer_games(user: User, *, limit: int = COMPUTER_GAMES_SHOWN) -> ComputerGames:
    """``user``'s finished games against the computer, newest first (at most ``limit``), and
    the wins, draws and losses of all of them. A game over before any move would be listed as
    aborted and not counted, as in the record of games against people (an unrated game nobody
    moved in ends aborted, so it is not even listed). One query, and a second one to count
    when there are more games than ``limit``."""
    finished = Game.objects.filter(
        against_the_computer(user), status=Game.Status.FINISHED, result__in=RESULTS
    )
    games = list(
        first_of(finished, NEWEST_FIRST, limit)
        .select_related("black", "white")
        .defer(*GAME_TEXT_FIELDS)
    )
    lines = []
    for game in games:
        colour, computer, outcome = _seen_by(user, game)
        lines.append(ComputerGameLine(game, level_named(computer.username), colour, outcome))
    if len(games) < limit:  # all of them are here
        outcomes = [line.outcome for line in lines]
        return ComputerGames(
            lines, outcomes.count("win"), outcomes.count("draw"), outcomes.count("loss")
        )
    black, white = Q(black=user), Q(white=user)
    counts = finished.exclude(ABORTED_UNPLAYED).aggregate(
        wins=Count("pk", filter=(black & Q(result="1-0")) | (white & Q(result="0-1"))),
        draws=Count("pk", filter=Q(result="1/2-1/2")),
        losses=Count("pk", filter=(black & Q(result="0-1")) | (white & Q(result="1-0"))),
    )
    return ComputerGames(lines, counts["wins"], counts["draws"], counts["losses"])
