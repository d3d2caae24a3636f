"""Recompute ratings from the game history (all of it, or from one moment onward).

The history is every rated result: rated server games (a tournament game counts with its board's
result, which a director may have corrected) and what other apps register
(:func:`rated_results_from`: the rated over-the-board tournament boards). It is
replayed in the order it was applied: by ``played_at``, then by the first RatingChange id. The
players' states before ``since`` come from the changes already stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Min

from games.models import Game
from ratings import elo
from ratings.elo import SCORES
from ratings.models import PlayerRating, RatingChange, RecomputeRequest
from ratings.services import rating_change_rows

BATCH = 5000


@dataclass(frozen=True)
class Source:
    played_at: datetime
    order: int
    game_id: int | None
    board_id: int | None
    black_id: int
    white_id: int
    result: str
    category: str
    #: an over-the-board game of a tournament match (``tournaments.MatchGame``)
    match_game_id: int | None = None

    @property
    def key(self) -> tuple:
        return (self.game_id, self.board_id, self.match_game_id)


@dataclass
class RecomputeReport:
    results: int = 0
    changes_written: int = 0
    changes_that_differed: int = 0
    players: int = 0


#: What else is rated, besides the server games: each a function of (``since``, the first rating
#: change of each result already applied, keyed ``("g", game_id)``, ``("b", board_id)`` or
#: ``("m", match_game_id)``) that
#: gives the rated results at or after ``since``. An app whose results are rated registers one
#: from its ``ready()`` (:func:`rated_results_from`): tournaments do for over-the-board boards.
_more_rated_results: list[Callable[[datetime | None, dict], Iterable[Source]]] = []


def rated_results_from(provider: Callable[[datetime | None, dict], Iterable[Source]]) -> None:
    """Register ``provider`` of rated results for the replay (idempotent)."""
    if provider not in _more_rated_results:
        _more_rated_results.append(provider)


def rated_sources(since: datetime | None = None) -> list[Source]:
    """Every rated result at or after ``since``, in the order to replay them."""
    first_change = {}
    changes = RatingChange.objects.values("game_id", "board_id", "match_game_id").annotate(
        first=Min("pk"), at=Min("played_at")
    )
    if since is not None:
        changes = changes.filter(played_at__gte=since)
    for row in changes:
        if row["game_id"]:
            key = ("g", row["game_id"])
        elif row["match_game_id"]:
            key = ("m", row["match_game_id"])
        else:
            key = ("b", row["board_id"])
        first_change[key] = (row["at"], row["first"])
    sources: list[Source] = []
    games = Game.objects.filter(rated=True, status=Game.Status.FINISHED, ply__gte=2).values(
        "pk",
        "black_id",
        "white_id",
        "result",
        "ended_at",
        "base_seconds",
        "increment_seconds",
        "rating_pool",
        "tournament_board__result",
        "tournament_board__pk",
        "match_game__pk",
    )
    for game in games.iterator(chunk_size=BATCH):
        result = game["result"]
        # a tournament game is rated by its board's result (a director's correction stands),
        # except a game of a match, rated by its own (the board's result is the match's)
        if game["tournament_board__pk"] is not None and game["match_game__pk"] is None:
            result = game["tournament_board__result"]
        if result not in SCORES:
            continue
        at, order = first_change.get(("g", game["pk"]), (game["ended_at"], 1 << 62))
        if since is not None and at < since:
            continue
        sources.append(
            Source(
                at,
                order,
                game["pk"],
                None,
                game["black_id"],
                game["white_id"],
                result,
                elo.game_category(
                    game["base_seconds"], game["increment_seconds"], game["rating_pool"]
                ),
            )
        )
    for provider in _more_rated_results:
        sources.extend(provider(since, first_change))
    sources.sort(
        key=lambda s: (
            s.played_at,
            s.order,
            s.game_id or 0,
            s.board_id or 0,
            s.match_game_id or 0,
        )
    )
    return sources


def _states_before(since: datetime | None) -> tuple[dict, dict]:
    """(user, category) -> PlayerState and peak, from the changes stored before ``since``."""
    if since is None:
        return {}, {}
    before = RatingChange.objects.filter(played_at__lt=since)
    counts = {
        (r["user_id"], r["category"]): r
        for r in before.values("user_id", "category").annotate(
            games=Count("pk"), peak=Max("rating_after"), last=Max("pk")
        )
    }
    last_ratings = dict(
        RatingChange.objects.filter(pk__in=[r["last"] for r in counts.values()]).values_list(
            "pk", "rating_after"
        )
    )
    states, peaks = {}, {}
    for key, row in counts.items():
        rating = last_ratings[row["last"]]
        states[key] = elo.PlayerState(rating, row["games"], row["peak"] >= 2400)
        peaks[key] = row["peak"]
    return states, peaks


def ratings_recompute(
    *, since: datetime | None = None, progress: Callable[[int, int], None] | None = None
) -> RecomputeReport:
    """Replay every rated result from ``since`` (default: the beginning) and store the result.

    Holds the lock on every rating row while it runs, so no game can be rated half-way; the rows
    are locked in (user id, category) order, the order of every rating lock
    (``ratings.services.locked_ratings``), so a game finishing meanwhile waits instead of
    deadlocking.
    """
    report = RecomputeReport()
    default = settings.RATING_DEFAULT
    with transaction.atomic():
        list(
            PlayerRating.objects.select_for_update()
            .order_by("user_id", "category")
            .values_list("pk", flat=True)
        )
        states, peaks = _states_before(since)
        sources = rated_sources(since)
        old = (
            RatingChange.objects.all()
            if since is None
            else RatingChange.objects.filter(played_at__gte=since)
        )
        previous = {
            (c["game_id"], c["board_id"], c["match_game_id"], c["user_id"]): c
            for c in old.values(
                "pk",
                "game_id",
                "board_id",
                "match_game_id",
                "user_id",
                "rating_before",
                "rating_after",
                "opponent_rating",
                "score",
                "played_at",
                "category",
            )
        }
        new_changes: list[RatingChange] = []
        last_at: dict[tuple[int, str], datetime] = {}
        total = len(sources)
        for index, source in enumerate(sources, start=1):
            black_key = (source.black_id, source.category)
            white_key = (source.white_id, source.category)
            black = states.get(black_key, elo.PlayerState(default, 0, False))
            white = states.get(white_key, elo.PlayerState(default, 0, False))
            sides = elo.rate_result(black, white, source.result)
            rows = rating_change_rows(
                black_id=source.black_id,
                white_id=source.white_id,
                sides=sides,
                category=source.category,
                played_at=source.played_at,
                game_id=source.game_id,
                board_id=source.board_id,
                match_game_id=source.match_game_id,
            )
            for key, side, change in zip((black_key, white_key), sides, rows, strict=True):
                states[key] = side.after
                peaks[key] = max(peaks.get(key, default), side.after.rating)
                last_at[key] = source.played_at
                new_changes.append(change)
                stored = previous.get((*source.key, key[0]))
                if stored is None or stored["rating_after"] != side.after.rating:
                    report.changes_that_differed += 1
            if progress and (index % 1000 == 0 or index == total):
                progress(index, total)
        report.changes_that_differed += max(0, len(previous) - len(new_changes))
        # Write only what changed: a replay of an intact history touches no row.
        keep: set[int] = set()
        to_write = []
        for change in new_changes:
            stored = previous.get(
                (change.game_id, change.board_id, change.match_game_id, change.user_id)
            )
            if stored is not None and _same(stored, change):
                keep.add(stored["pk"])
            else:
                to_write.append(change)
        stale = [row["pk"] for row in previous.values() if row["pk"] not in keep]
        for start in range(0, len(stale), BATCH):
            RatingChange.objects.filter(pk__in=stale[start : start + BATCH]).delete()
        RatingChange.objects.bulk_create(to_write, batch_size=BATCH)
        report.results, report.changes_written = total, len(to_write)
        _store_ratings(states, peaks, last_at, since is None)
        report.players = len({key[0] for key in states})
    return report


def _same(stored: dict, change: RatingChange) -> bool:
    return (
        stored["rating_before"],
        stored["rating_after"],
        stored["opponent_rating"],
        float(stored["score"]),
        stored["played_at"],
        stored["category"],
    ) == (
        change.rating_before,
        change.rating_after,
        change.opponent_rating,
        float(change.score),
        change.played_at,
        change.category,
    )


def _store_ratings(states, peaks, last_at, full: bool) -> None:
    existing = {(r.user_id, r.category): r for r in PlayerRating.objects.all()}
    to_update, to_create = [], []
    for key, state in states.items():
        row = existing.get(key)
        values = (state.rating, state.games, state.reached_2400, peaks.get(key, state.rating))
        if row is None:
            row = PlayerRating(user_id=key[0], category=key[1])
            to_create.append(row)
        elif (row.rating, row.games, row.reached_2400, row.peak) == values and (
            key not in last_at or row.last_game_at == last_at[key]
        ):
            continue  # unchanged: no write
        else:
            to_update.append(row)
        row.rating, row.games, row.reached_2400, row.peak = values
        row.last_game_at = last_at.get(key, row.last_game_at)
    if full:  # players with no rated result left go back to the start
        for key, row in existing.items():
            if key[1] == elo.MULTI_CATEGORY:
                continue  # three/four-player ratings are not in this history (multiplayer)
            if key not in states and (row.games or row.rating != settings.RATING_DEFAULT):
                row.rating = row.peak = settings.RATING_DEFAULT
                row.games, row.reached_2400, row.last_game_at = 0, False, None
                to_update.append(row)
    PlayerRating.objects.bulk_create(to_create, batch_size=BATCH)
    PlayerRating.objects.bulk_update(
        to_update, ["rating", "games", "reached_2400", "peak", "last_game_at"], batch_size=BATCH
    )


def ratings_recompute_requested(*, now: datetime) -> RecomputeReport | None:
    """Run the replays that corrections asked for (``ratings.services.ratings_recompute_request``):
    once, from the earliest ``since`` still waiting, then mark those requests done. The
    background job's service; idempotent (a second delivery finds nothing waiting: None).

    Lock order: the waiting requests' rows (only this job locks them), then every rating row.
    """
    with transaction.atomic():
        waiting = list(
            RecomputeRequest.objects.select_for_update().filter(done_at__isnull=True).order_by("pk")
        )
        if not waiting:
            return None
        report = ratings_recompute(since=min(request.since for request in waiting))
        RecomputeRequest.objects.filter(pk__in=[request.pk for request in waiting]).update(
            done_at=now
        )
    return report
