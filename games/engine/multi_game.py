"""A game of three or four players (``games.engine.multi``): the position, what each player
pushed off, the end and the final ranking. Pure, no Django.

- Three players, each for themself: the first to have pushed off ``marbles_to_win`` marbles in all
  (of either opponent) wins and the game stops; the other two are ranked by the marbles each
  pushed off (equal counts share the place).
- Four players in two teams (seats 0+2 against 1+3): the first team whose players have pushed off
  ``marbles_to_win`` in all wins; both partners share first place, the other team third.
- **(server rule)** A player who resigns, runs out of time or has no legal move finishes last (in
  the team game, their team) and the game ends; the others are ranked by their push-offs.
- **(server rule)** ``max_plies`` moves (placements not counted), or the same position with the
  same player to move for the third time (``threefold_repetition``), end the game with no winner:
  everyone is ranked by push-offs.
- ``placement``: the game starts on the empty board and the first plies place each player's
  marbles one at a time in turn order (``@e5``), as in the two-player engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.messages import gettext_noop
from games.engine.errors import EngineError, GameOverError, IllegalMove
from games.engine.multi import (
    ALL_COLOURS,
    DEFAULT_TEAM_RULES,
    MARBLES_PER_PLAYER,
    TEAMS,
    MultiOutcome,
    MultiPosition,
    TeamRules,
    apply_multi_move,
    empty_board,
    start_of,
)
from games.engine.placement import (
    Placement,
    is_placement_text,
    parse_placement,
    placement_over_error,
    placements,
)

MULTI_TERMINATIONS = ("marbles", "resignation", "time", "no_legal_moves", "move_cap", "repetition")


@dataclass
class MultiGame:
    """A three- or four-player game, played one move at a time through :meth:`play`."""

    position: MultiPosition | None = None
    marbles_to_win: int = 6
    players: int = 3
    placement: bool = False
    rules: TeamRules = DEFAULT_TEAM_RULES
    max_plies: int = 600
    threefold_repetition: bool = True
    pushed_off: dict[str, int] = field(default_factory=dict)
    winner: str | None = None  # the colour whose push-off won
    out: str | None = None  # the colour that resigned, flagged or could not move
    termination: str | None = None
    plies: int = 0
    notations: list[str] = field(default_factory=list)
    positions: list[MultiPosition] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.position is None:
            self.position = empty_board(self.players) if self.placement else start_of(self.players)
        self.players = self.position.players
        if not 1 <= self.marbles_to_win <= 6:
            raise EngineError(gettext_noop("marbles_to_win must be from 1 to 6"))
        for colour in self.colours:
            self.pushed_off.setdefault(colour, 0)
        self.positions = [self.position]
        self._seen = {self.position: 1}

    @property
    def colours(self) -> tuple[str, ...]:
        return ALL_COLOURS[: self.position.players]

    @property
    def teams(self) -> bool:
        return self.players == 4

    @property
    def placements(self) -> int:
        """Plies of the placement phase (0 without it)."""
        return self.players * MARBLES_PER_PLAYER[self.players] if self.placement else 0

    @property
    def in_placement(self) -> bool:
        return self.plies < self.placements

    @property
    def over(self) -> bool:
        return self.termination is not None

    def team_of(self, colour: str) -> tuple[str, ...]:
        """The colours of ``colour``'s team (itself alone with three players)."""
        if not self.teams:
            return (colour,)
        index = self.colours.index(colour)
        return next(tuple(self.colours[i] for i in team) for team in TEAMS if index in team)

    def score(self, colour: str) -> int:
        """Marbles counting toward the win: the player's push-offs, or the team's."""
        return sum(self.pushed_off[c] for c in self.team_of(colour))

    def legal_moves(self) -> list:
        if self.over:
            return []
        if self.in_placement:
            return placements(self.position.occupied)
        return self.position.legal_moves(self.rules)

    def play(self, move) -> MultiOutcome:
        """Play a move or a placement (notation or object) of the colour to move."""
        if self.over:
            raise GameOverError(gettext_noop("the game is over"), "game_over")
        mover = self.position.side_to_move
        if self.in_placement:
            outcome = self._place(move)
        else:
            if isinstance(move, Placement) or is_placement_text(move):
                raise placement_over_error(move)
            self.position, outcome = apply_multi_move(self.position, move, self.rules)
        self.plies += 1
        self.notations.append(outcome.move.notation)
        self.positions.append(self.position)
        self._seen[self.position] = self._seen.get(self.position, 0) + 1
        if outcome.ejected is not None:
            self.pushed_off[mover] += 1
            if self.score(mover) >= self.marbles_to_win:
                self.winner = mover
                self.termination = "marbles"
                return outcome
        if self.in_placement:
            return outcome
        if not self.position.legal_moves(self.rules):
            self.out, self.termination = self.position.side_to_move, "no_legal_moves"
        elif self.threefold_repetition and self._seen[self.position] >= 3:
            self.termination = "repetition"
        elif self.plies - self.placements >= self.max_plies:
            self.termination = "move_cap"
        return outcome

    def _place(self, move) -> MultiOutcome:
        if not isinstance(move, Placement) and not is_placement_text(move):
            shown = getattr(move, "notation", None) or str(move).strip().lower()
            raise IllegalMove(
                gettext_noop("the placement phase is on; place a marble (e.g. @e5)"),
                "placement_phase",
                subject=shown,
            )
        placement = parse_placement(self.position.occupied, move)
        boards = list(self.position.boards)
        boards[self.position.to_move] |= placement.bit
        self.position = MultiPosition(
            (self.position.to_move + 1) % self.players, tuple(boards), self.colours
        )
        return MultiOutcome(None, placement)

    def drop_out(self, colour: str, termination: str = "resignation") -> None:
        """``colour`` resigned or ran out of time (``termination`` "time"): last place (with
        four players, their team), and the game ends."""
        if self.over:
            raise GameOverError(gettext_noop("the game is over"), "game_over")
        if colour not in self.colours:
            raise EngineError(gettext_noop("no player has the colour %(colour)r"), colour=colour)
        if termination not in ("resignation", "time"):
            raise EngineError(gettext_noop("a player drops out by resignation or on time"))
        self.out, self.termination = colour, termination

    def ranking(self) -> list[tuple[int, str]]:
        """(place, colour) from first to last; equal places shared. Empty while in play."""
        if not self.over:
            return []
        if self.teams:
            return team_ranking(self)
        return ranking(self.pushed_off, winner=self.winner, out=self.out)


def team_ranking(game: MultiGame) -> list[tuple[int, str]]:
    """Two teams: the winning team (by push-offs, or the team of whoever did not drop out)
    shares first place, the other third; with no winner, the team that pushed off more."""
    teams = [tuple(game.colours[i] for i in team) for team in TEAMS]
    scores = [sum(game.pushed_off[c] for c in team) for team in teams]
    if game.winner is not None:
        first = 0 if game.winner in teams[0] else 1
    elif game.out is not None:
        first = 1 if game.out in teams[0] else 0
    elif scores[0] != scores[1]:
        first = 0 if scores[0] > scores[1] else 1
    else:
        return sorted((1, c) for team in teams for c in team)
    places = [(1, c) for c in teams[first]] + [(3, c) for c in teams[1 - first]]
    return sorted(places, key=lambda pc: (pc[0], game.colours.index(pc[1])))


def ranking(
    pushed_off: dict[str, int], *, winner: str | None = None, out: str | None = None
) -> list[tuple[int, str]]:
    """The final ranking: the winner first, the one who dropped out last, everyone else by the
    marbles they pushed off (more first; equal counts share the place)."""
    middle = sorted(
        (colour for colour in pushed_off if colour not in (winner, out)),
        key=lambda colour: -pushed_off[colour],
    )
    places: list[tuple[int, str]] = []
    place = 1
    if winner is not None:
        places.append((1, winner))
        place = 2
    previous = None
    shown = place
    for position, colour in enumerate(middle):
        if previous is None or pushed_off[colour] != pushed_off[previous]:
            shown = place + position
        places.append((shown, colour))
        previous = colour
    if out is not None:
        places.append((len(pushed_off), out))
    return places
