"""The rated over-the-board boards, as the ratings' replay reads its history
(``ratings.recompute.rated_results_from``, registered by ``TournamentsConfig.ready``).

A board without a server game, of a rated tournament, with a result that scores, is a rated
result: it was applied when its result was first entered (``ratings.services.rating_apply_board``)
and is replayed in that order. A board's server game is rated as a game (with the board's result).
In a match round the board's result is the match's and is not rated: each game is, a server
game as a game, a game over the board (:class:`MatchGame` without a server game) by its own
result, in its own colours (:func:`rated_match_games`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from django.db.models import Min

from ratings import elo
from ratings.elo import SCORES
from ratings.recompute import BATCH, Source
from tournaments.models import Board, MatchGame, ResultChange
from tournaments.pairing.matches import game_sides


def rated_boards(since: datetime | None, first_change: dict) -> Iterator[Source]:
    """The rated over-the-board results at or after ``since`` (``first_change``: the first rating
    change already applied for each result, keyed ``("b", board_id)``)."""
    entered = dict(ResultChange.objects.values_list("board_id").annotate(at=Min("changed_at")))
    boards = Board.objects.filter(
        round__tournament__rated=True,
        round__tournament__match_games=1,
        game__isnull=True,
        white__isnull=False,
        result__in=list(SCORES),
    ).values(
        "pk",
        "black__user_id",
        "white__user_id",
        "result",
        "round__tournament__base_seconds",
        "round__tournament__increment_seconds",
    )
    for board in boards.iterator(chunk_size=BATCH):
        fallback = entered.get(board["pk"])
        at, order = first_change.get(("b", board["pk"]), (fallback, 1 << 62))
        if at is None or (since is not None and at < since):
            continue
        yield Source(
            at,
            order,
            None,
            board["pk"],
            board["black__user_id"],
            board["white__user_id"],
            board["result"],
            elo.speed_category(
                board["round__tournament__base_seconds"],
                board["round__tournament__increment_seconds"],
            ),
        )


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
        "board__black__user_id",
        "board__white__user_id",
        "board__round__tournament__base_seconds",
        "board__round__tournament__increment_seconds",
    )
    for game in games.iterator(chunk_size=BATCH):
        at, order = first_change.get(("m", game["pk"]), (game["entered_at"], 1 << 62))
        if at is None or (since is not None and at < since):
            continue
        first, second = game_sides(
            game["board__black__user_id"], game["board__white__user_id"], game["number"]
        )
        yield Source(
            at,
            order,
            None,
            None,
            first,
            second,
            game["result"],
            elo.speed_category(
                game["board__round__tournament__base_seconds"],
                game["board__round__tournament__increment_seconds"],
            ),
            match_game_id=game["pk"],
        )
