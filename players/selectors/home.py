"""Reads for the home page: what is happening for a player, and on the site.

The home page is one of the pages that gather every app, so its reads live here, on the top
floor with the player's page, and each app's own selectors stay about their app.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from clubs.models import Membership
from games.clock import DAY_SECONDS
from games.models import Challenge, Game
from games.selectors import ABORTED_UNPLAYED, outcome_told
from ratings import elo
from ratings.models import PlayerRating, RatingChange
from ratings.selectors import leaderboard, leaderboard_filter
from tournaments.models import Board, Entrant, Tournament

LIVE_GAMES = 8
RECENT_RESULTS = 6


@dataclass(frozen=True)
class GameLine:
    game: Game
    opponent: User
    colour: str  # "Black" / "White"
    my_turn: bool
    my_ms: int | None
    their_ms: int | None

    @property
    def my_clock(self) -> str:
        return _clock(self.my_ms)

    @property
    def their_clock(self) -> str:
        return _clock(self.their_ms)


def _clock(ms: int | None) -> str:
    """m:ss, or from a day up (a correspondence clock) "2 days 23:59" (hours:minutes), as the
    game page's clocks read."""
    if ms is None:
        return ""
    seconds = ms // 1000
    days, rest = divmod(seconds, DAY_SECONDS)
    if days:
        shown_days = ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
        return f"{shown_days} {rest // 3600:02d}:{rest % 3600 // 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class LiveGame:
    game: Game
    black_rating: int
    white_rating: int

    @property
    def top_rating(self) -> int:
        return max(self.black_rating, self.white_rating)


def my_games(user: User, *, now: datetime) -> list[GameLine]:
    """The player's games in progress, the ones where it is their move first, the one whose
    clock runs out soonest first among them (a correspondence player's many games)."""
    games = Game.objects.filter(Q(black=user) | Q(white=user), status=Game.Status.STARTED)
    lines = []
    for game in games.select_related("black", "white").order_by("-created_at")[:20]:
        mine = game.colour_of(user)
        clock = game.clock
        timed = game.time_control.has_clock
        lines.append(
            GameLine(
                game=game,
                opponent=game.white if mine == "b" else game.black,
                colour=_("Black") if mine == "b" else _("White"),
                my_turn=game.side_to_move == mine,
                my_ms=clock.remaining_ms(mine, now) if timed else None,
                their_ms=clock.remaining_ms("w" if mine == "b" else "b", now) if timed else None,
            )
        )
    lines.sort(key=_urgency)
    return lines


def _urgency(line: GameLine) -> tuple[int, float]:
    """Your move before theirs; among yours, the least time left first (no clock last)."""
    if not line.my_turn:
        return (1, 0.0)
    return (0, float("inf") if line.my_ms is None else line.my_ms)


def my_challenges(user: User, *, now: datetime) -> tuple[list[Challenge], list[Challenge]]:
    """Open challenges to the player, and from them."""
    open_ = Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__gt=now)
    received = list(open_.filter(opponent=user).select_related("challenger")[:10])
    made = list(open_.filter(challenger=user).select_related("opponent")[:10])
    return received, made


@dataclass(frozen=True)
class NextRound:
    tournament: Tournament
    board: Board | None
    text: str


def my_next_rounds(user: User) -> list[NextRound]:
    """For each running event the player is in: their board of the current round (or what
    they wait for)."""
    entries = Entrant.objects.filter(
        user=user, status=Entrant.Status.ACTIVE, tournament__status=Tournament.Status.RUNNING
    ).select_related("tournament")
    found = []
    for entry in entries:
        tournament = entry.tournament
        board = (
            Board.objects.filter(
                round__tournament=tournament, round__number=tournament.current_round
            )
            .filter(Q(black=entry) | Q(white=entry))
            .select_related("black__user", "white__user", "game", "round")
            .first()
        )
        if board is None:
            text = _("waiting for round %(round)s to be paired") % {
                "round": tournament.current_round + 1
            }
        elif board.white_id is None:
            text = _("round %(round)s: a bye") % {"round": board.round.number}
        elif board.result:
            text = _("round %(round)s: played (%(result)s); next round to come") % {
                "round": board.round.number,
                "result": board.result,
            }
        else:
            other = board.white if board.black_id == entry.pk else board.black
            colour = _("Black") if board.black_id == entry.pk else _("White")
            name = other.user.username if other.user_id else str(other)
            text = _("round %(round)s, board %(board)s: %(colour)s against %(name)s") % {
                "round": board.round.number,
                "board": board.number,
                "colour": colour,
                "name": name,
            }
        found.append(NextRound(tournament, board, text))
    return found


def club_tournaments_soon(user: User, *, now: datetime) -> list[Tournament]:
    """Tournaments of the player's clubs taking entries or about to start."""
    clubs = Membership.objects.filter(user=user).values("club_id")
    return list(
        Tournament.objects.filter(club_id__in=clubs, status=Tournament.Status.REGISTRATION)
        .select_related("club")
        .order_by("registration_closes_at", "created_at")[:6]
    )


@dataclass(frozen=True)
class Result:
    game: Game
    opponent: User
    outcome: str  # won / lost / drew
    change: int | None


def my_results(user: User) -> list[Result]:
    games = (
        Game.objects.filter(Q(black=user) | Q(white=user), status=Game.Status.FINISHED)
        .exclude(ABORTED_UNPLAYED)
        .select_related("black", "white")
        .order_by("-ended_at")[:RECENT_RESULTS]
    )
    changes = {
        change.game_id: change.rating_after - change.rating_before
        for change in RatingChange.objects.filter(user=user, game__in=[g.pk for g in games])
    }
    results = []
    for game in games:
        mine = game.colour_of(user)
        outcome = outcome_told(game.result, "black" if mine == "b" else "white")
        opponent = game.white if mine == "b" else game.black
        results.append(Result(game, opponent, outcome, changes.get(game.pk)))
    return results


def live_games(*, now: datetime) -> list[LiveGame]:
    """Games being played with at least a move made, highest rated first."""
    recent = now - timedelta(hours=6)
    games = list(
        Game.objects.filter(status=Game.Status.STARTED, ply__gt=0, turn_started_at__gte=recent)
        .select_related("black", "white")
        .order_by("-turn_started_at")[:200]
    )
    wanted = {(p, elo.game_category(g.base_seconds, g.increment_seconds, g.rating_pool))
              for g in games for p in (g.black_id, g.white_id)}  # fmt: skip
    ratings = {
        (row.user_id, row.category): row.rating
        for row in PlayerRating.objects.filter(user_id__in={user for user, _ in wanted})
    }
    default = settings.RATING_DEFAULT
    found = []
    for game in games:
        category = elo.game_category(game.base_seconds, game.increment_seconds, game.rating_pool)
        found.append(
            LiveGame(
                game,
                ratings.get((game.black_id, category), default),
                ratings.get((game.white_id, category), default),
            )
        )
    found.sort(key=lambda live: -live.top_rating)
    return found[:LIVE_GAMES]


def tournaments_upcoming_and_running() -> list[Tournament]:
    return list(
        Tournament.objects.filter(
            status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
        )
        .select_related("club")
        .order_by("-status", "registration_closes_at", "-created_at")[:8]
    )


def leaderboard_top(*, now: datetime, count: int = 5) -> list[PlayerRating]:
    return list(leaderboard(leaderboard_filter(), now=now)[:count])
