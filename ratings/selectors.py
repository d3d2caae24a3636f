"""Reads of ratings: current ratings, leaderboards, and the player page's history and record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import against_the_computer
from clubs.models import Club, Membership
from core.errors import InvalidInput, NotFound
from games.computer_players import level_named
from games.models import Game
from games.selectors import ABORTED_UNPLAYED
from multiplayer.models import TableRatingChange
from ratings import elo
from ratings.elo import speed_category
from ratings.models import PlayerRating, RatingChange, RecomputeRequest
from tournaments import selectors as tournament_selectors
from tournaments.models import Board, Entrant, Tournament


def current_rating(user: User, category: str) -> int:
    rating = (
        PlayerRating.objects.filter(user=user, category=category)
        .values_list("rating", flat=True)
        .first()
    )
    return rating if rating is not None else settings.RATING_DEFAULT


def ratings_being_updated() -> bool:
    """Whether a corrected result's replay of the ratings is still waiting or running."""
    return RecomputeRequest.objects.filter(done_at__isnull=True).exists()


def rating_for_tournament(user: User, tournament) -> int:
    return current_rating(
        user, speed_category(tournament.base_seconds, tournament.increment_seconds)
    )


# --- Profiles and leaderboards ----------------------------------------------------------------
# Reads for the public player page, the leaderboards and the rating API. Each function costs a
# fixed, small number of queries, whatever the size of the player's history (standings excepted:
# one computation per tournament the player played in).

RECENT_GAMES = 20
PROFILE_TOURNAMENTS = 20
LEADERBOARD_DEFAULT_CATEGORY = "rapid"
LEADERBOARD_DEFAULT_DAYS = 90
LEADERBOARD_MAX_DAYS = 3650
RESULTS = ("1-0", "0-1", "1/2-1/2")
# Positions are not shown in game lists; leaving them out keeps long histories light.
GAME_TEXT_FIELDS = ("start_position", "position")


@dataclass(frozen=True)
class LeaderboardFilter:
    category: str
    days: int
    club: Club | None


def leaderboard_filter(
    *, category: str | None = None, club: str | None = None, days: str | None = None
) -> LeaderboardFilter:
    """Validate the leaderboard's query parameters; raises InvalidInput with a message."""
    category = (category or LEADERBOARD_DEFAULT_CATEGORY).strip().lower()
    if category not in elo.ALL_CATEGORIES:
        raise InvalidInput(
            _("Unknown category '%(category)s': choose one of %(all_categories)s.")
            % {"category": category, "all_categories": ", ".join(elo.ALL_CATEGORIES)},
            code="bad_category",
        )
    if days is None or str(days).strip() == "":
        window = LEADERBOARD_DEFAULT_DAYS
    else:
        try:
            window = int(str(days).strip())
        except ValueError:
            raise InvalidInput(
                _("days must be a whole number of days, not '%(days)s'.") % {"days": days},
                code="bad_days",
            ) from None
        if not 1 <= window <= LEADERBOARD_MAX_DAYS:
            raise InvalidInput(
                _("days must be between 1 and %(leaderboard_max_days)s.")
                % {"leaderboard_max_days": LEADERBOARD_MAX_DAYS},
                code="bad_days",
            )
    found = None
    if club:
        found = Club.objects.filter(slug=club.strip()).first()
        if found is None:
            raise NotFound(_("There is no club '%(club)s'.") % {"club": club}, code="bad_club")
    return LeaderboardFilter(category, window, found)


def leaderboard(selection: LeaderboardFilter, *, now: datetime) -> QuerySet[PlayerRating]:
    """Active players (a rated game in the window) of one category, best first.

    Ties are broken by fewer games (the rating was reached faster), then by username, so the order
    is stable across pages.
    """
    rows = PlayerRating.objects.filter(
        category=selection.category,
        games__gt=0,
        last_game_at__gte=now - timedelta(days=selection.days),
        user__is_active=True,
    )
    if selection.club is not None:
        rows = rows.filter(
            user_id__in=Membership.objects.filter(club=selection.club).values("user_id")
        )
    return rows.select_related("user").order_by("-rating", "games", "user__username")


def player_ratings(user: User) -> list[PlayerRating]:
    """The player's rating rows that have games, in the order of ``elo.ALL_CATEGORIES``."""
    rows = {r.category: r for r in PlayerRating.objects.filter(user=user, games__gt=0)}
    return [rows[category] for category in elo.ALL_CATEGORIES if category in rows]


@dataclass(frozen=True)
class HistoryPoint:
    played_at: datetime
    rating: int
    delta: int
    game_id: int | None
    board_id: int | None


def rating_history(user: User, *, tables: bool = True) -> dict[str, list[HistoryPoint]]:
    """One point per rated game, per category, oldest first (only categories with games): the
    two-player categories, the bots' pool and, unless ``tables`` is false (the caller knows the
    player has no ``multi`` rating: a query saved), the tables' ``multi`` category."""

    history: dict[str, list[HistoryPoint]] = {}
    changes = (
        RatingChange.objects.filter(user=user)
        .order_by("played_at", "pk")
        .values_list(
            "category", "played_at", "rating_before", "rating_after", "game_id", "board_id"
        )
    )
    for category, played_at, before, after, game_id, board_id in changes:
        history.setdefault(category, []).append(
            HistoryPoint(played_at, after, after - before, game_id, board_id)
        )
    table_changes = (
        TableRatingChange.objects.filter(user=user)
        .order_by("played_at", "pk")
        .values_list("played_at", "rating_before", "rating_after")
    )
    for played_at, before, after in table_changes if tables else ():
        history.setdefault(elo.MULTI_CATEGORY, []).append(
            HistoryPoint(played_at, after, after - before, None, None)
        )
    return {c: history[c] for c in elo.ALL_CATEGORIES if c in history}


def _finished_games_of(user: User) -> QuerySet[Game]:
    """The player's finished games with a result against people, those over before any move
    included (the game lists show them as aborted; the record leaves them out). The games
    against the computer are kept apart (:func:`computer_games`)."""
    return Game.objects.filter(
        Q(black=user) | Q(white=user), status=Game.Status.FINISHED, result__in=RESULTS
    ).exclude(against_the_computer(user))


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


def player_record(user: User) -> dict[str, Record]:
    """Games won, drawn and lost: overall, as Black (first mover), as White.

    Finished server games against people (not the computer), and the boards of over-the-board
    tournaments played to a result (forfeits and byes are not games played, as for ratings and
    FIDE's tie-breaks). A game over before any move (``Game.aborted_unplayed``) is not
    counted, whatever its result.
    """
    server = _record_counts(
        _finished_games_of(user).exclude(ABORTED_UNPLAYED), Q(black=user), Q(white=user)
    )
    over_the_board = _record_counts(
        Board.objects.filter(game__isnull=True, result__in=RESULTS).filter(
            Q(black__user=user) | Q(white__user=user)
        ),
        Q(black__user=user),
        Q(white__user=user),
    )
    counts = {key: server[key] + over_the_board[key] for key in server}
    black = Record(counts["black_wins"], counts["black_draws"], counts["black_losses"])
    white = Record(counts["white_wins"], counts["white_draws"], counts["white_losses"])
    overall = Record(
        black.wins + white.wins, black.draws + white.draws, black.losses + white.losses
    )
    return {"overall": overall, "black": black, "white": white}


@dataclass(frozen=True)
class GameLine:
    """A finished game as one player saw it."""

    game: Game
    colour: str  # "black" or "white"
    opponent: User
    outcome: str  # "win", "draw", "loss", or "aborted" (over before any move: no result)
    rating_change: RatingChange | None

    @property
    def delta(self) -> int | None:
        return self.rating_change.delta if self.rating_change else None


def outcome_for(result: str, colour: str) -> str:
    if result == "1/2-1/2":
        return "draw"
    black_won = result == "1-0"
    return "win" if black_won == (colour == "black") else "loss"


def outcome_told(result: str, colour: str) -> str:
    """:func:`outcome_for` as a sentence says it: "won", "drew" or "lost"."""
    return {"win": "won", "draw": "drew", "loss": "lost"}[outcome_for(result, colour)]


def _seen_by(user: User, game: Game) -> tuple[str, User, str]:
    """(``user``'s colour, their opponent, the outcome for them) of a finished game."""
    colour = "black" if game.black_id == user.pk else "white"
    opponent = game.white if colour == "black" else game.black
    outcome = "aborted" if game.aborted_unplayed else outcome_for(game.result, colour)
    return colour, opponent, outcome


def _game_lines(user: User, games: list[Game]) -> list[GameLine]:
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(user=user, game_id__in=[g.pk for g in games])
    }
    return [GameLine(game, *_seen_by(user, game), changes.get(game.pk)) for game in games]


def recent_games(user: User, *, limit: int = RECENT_GAMES) -> list[GameLine]:
    """The player's last finished games against people, newest first, with their rating change
    if rated."""
    games = list(
        _finished_games_of(user)
        .select_related("black", "white")
        .defer(*GAME_TEXT_FIELDS)
        .order_by(F("ended_at").desc(nulls_last=True), "-pk")[:limit]
    )
    return _game_lines(user, games)


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
        .select_related("black", "white")
        .defer(*GAME_TEXT_FIELDS)
        .order_by(F("ended_at").desc(nulls_last=True), "-pk")
    )
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
    total = entries.count()
    lines = []
    for entry in entries[:limit]:
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
        finished.select_related("black", "white")
        .defer("start_position", "position")
        .order_by(F("ended_at").desc(nulls_last=True), "-pk")[:limit]
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
