"""What a tournament action (:mod:`tournaments.actions`) is given and gives back: the checked
input with who asks and when (:class:`Call`), and what happened (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from accounts.models import User
from accounts.selectors import player_named
from tournaments import board_selectors
from tournaments.models import Board, Entrant, Tournament


@dataclass
class Outcome:
    """What an action did: ``message`` for the page, ``data`` and ``status`` for the API,
    ``page`` the tournament page to show next (relative to the tournament's URL)."""

    message: str
    data: dict[str, Any]
    status: int = 200
    page: str = ""
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Call:
    tournament: Tournament
    actor: User
    data: dict[str, Any]
    now: datetime

    def player(self, name: str) -> User:
        """The player the field ``name`` names: one of the event's entrants (guest players
        included, whom no other page finds), else an account of the site."""
        entrant = (
            Entrant.objects.filter(
                tournament=self.tournament, user__username__iexact=(self.data[name] or "").strip()
            )
            .select_related("user")
            .first()
        )
        return entrant.user if entrant is not None else player_named(self.data[name])

    def board(self) -> Board:
        return board_selectors.board_of(self.tournament, self.data["board"])
