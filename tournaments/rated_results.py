"""The rated over-the-board boards, as the ratings' replay reads its history
(``ratings.recompute.rated_results_from``, registered by ``TournamentsConfig.ready``).

A board without a server game, of a rated tournament, with a result that scores, is a rated
result: it was applied when its result was first entered (``ratings.services.rating_apply_board``)
and is replayed in that order. A board's server game is rated as a game (with the board's result).
In a match round (and in a knockout cup) the board's result is the match's and is not rated: each
game is, a server
game as a game, a game over the board (:class:`MatchGame` without a server game) by its own
result, in its own colours (:func:`rated_match_games`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime

from django.db.models import F, Min

from ratings import elo
from ratings.elo import SCORES
from ratings.recompute import BATCH, Source
from tournaments.models import Board, MatchGame, ResultChange, Tournament
from tournaments.pairing.matches import game_sides


def rated_boards(since: datetime | None, first_change: dict) -> Iterator[Source]:
    """The rated over-the-board results at or after ``since`` (``first_change``: the first rating
    change already applied for each result, keyed ``("b", board_id)``)."""
    entered = dict(ResultChange.objects.values_list("board_id").annotate(at=Min("changed_at")))
    boards = (
        Board.objects.filter(
            round__tournament__rated=True,
            round__tournament__match_games=1,
            game__isnull=True,
            white__isnull=False,
            result__in=list(SCORES),
        )
        .exclude(round__tournament__format=Tournament.Format.KNOCKOUT)  # a cup rates its games
        .values(
            "pk",
            "result",
            black_user=F("black__user_id"),
            white_user=F("white__user_id"),
            base=F("round__tournament__base_seconds"),
            increment=F("round__tournament__increment_seconds"),
        )
    )
    for board in boards.iterator(chunk_size=BATCH):
        source = _source(board, ("b", board["pk"]), entered.get(board["pk"]), since, first_change)
        if source is not None:
            yield replace(source, board_id=board["pk"])


def rated_match_games(since: datetime | None, first_change: dict) -> Iterator[Source]:
    """The rated games of matches played over the board at or after ``since``
    (``first_change`` keyed ``("m", match_game_id)``), each in its own colours."""
    games = MatchGame.objects.filter(
        board__round__tournament__rated=True,
        game__isnull=True,
        board__white__isnull=False,
        result__in=list(SCORES),
    ).values(
        "pk",
        "number",
        "result",
        "entered_at",
        black_user=F("board__black__user_id"),
        white_user=F("board__white__user_id"),
        base=F("board__round__tournament__base_seconds"),
        increment=F("board__round__tournament__increment_seconds"),
    )
    for game in games.iterator(chunk_size=BATCH):
        game["black_user"], game["white_user"] = game_sides(
            game["black_user"], game["white_user"], game["number"]
        )
        source = _source(game, ("m", game["pk"]), game["entered_at"], since, first_change)
        if source is not None:
            yield replace(source, match_game_id=game["pk"])


def _source(
    row: dict, key: tuple, fallback: datetime | None, since: datetime | None, first_change: dict
) -> Source | None:
    """A result as the replay reads it: when it was first rated (``first_change[key]``, else
    ``fallback``, after everything rated), or None before ``since``. The caller names it."""
    at, order = first_change.get(key, (fallback, 1 << 62))
    if at is None or (since is not None and at < since):
        return None
    return Source(
        at,
        order,
        None,
        None,
        row["black_user"],
        row["white_user"],
        row["result"],
        elo.speed_category(row["base"], row["increment"]),
    )
