"""Reads of players: finding one by name, and a player's games against the computer."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext as _

from abalone_site.errors import NotFound
from games.computer import PREFIX as COMPUTER_PREFIX
from games.models import Game
from games.selectors import ABORTED_UNPLAYED

from .models import User

#: The games against the computer a player's page lists (the newest).
COMPUTER_GAMES_SHOWN = 20
#: The results a finished game can have (a game without one is not listed).
RESULTS = ("1-0", "0-1", "1/2-1/2")


def find_player(username: str | None) -> User | None:
    """The active player called ``username`` (any case, surrounding spaces ignored), or None.

    Every lookup of a player by the name someone typed goes through here, so the rules are the
    same everywhere: usernames are unique whatever their case, and a deactivated account is
    nobody's to challenge, add or look up.
    """
    name = (username or "").strip()
    if not name:
        return None
    return User.objects.filter(username__iexact=name, is_active=True).first()


def player_named(username: str | None) -> User:
    """:func:`find_player`, or :class:`NotFound` naming who was asked for."""
    player = find_player(username)
    if player is None:
        raise NotFound(
            _("There is no player called '%(username)s'.") % {"username": (username or "").strip()}
        )
    return player


# --- games against the computer -------------------------------------------------------------------
# The computer's accounts (``games.computer``) are told by their name: "Sumito level N", with
# spaces, which sign-up never gives. A player's page keeps the games against them apart from the
# games against people: out of the record and the recent games, in a section of their own.


def computer_accounts() -> QuerySet[User]:
    """The accounts of the computer's levels (those made so far)."""
    return User.objects.filter(username__startswith=COMPUTER_PREFIX)


def against_the_computer(user: User) -> Q:
    """A filter of games: ``user``'s games whose opponent is the computer (a subquery, no
    query of its own). On a computer's own account it finds nothing."""
    computers = computer_accounts().values("pk")
    return Q(black=user, white__in=computers) | Q(white=user, black__in=computers)


def computer_level_of_account(account: User) -> int:
    """The level of one of the computer's accounts, from its name."""
    return int(account.username.removeprefix(COMPUTER_PREFIX))


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
    from ratings.selectors import outcome_for  # ratings' reads import this module

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
        colour = "black" if game.black_id == user.pk else "white"
        lines.append(
            ComputerGameLine(
                game,
                computer_level_of_account(game.white if colour == "black" else game.black),
                colour,
                "aborted" if game.aborted_unplayed else outcome_for(game.result, colour),
            )
        )
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
