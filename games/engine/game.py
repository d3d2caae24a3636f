"""A game: settings, the move sequence, and the result once the rules (or the server) end it.

Results are ``"1-0"`` (Black won), ``"0-1"`` (White won) and ``"1/2-1/2"``; ``None`` while the
game is in progress.  The rules end a game with one of :data:`RULE_TERMINATIONS`, checked after
every move in this order:

1. ``marbles``: the mover has now pushed off ``marbles_to_win`` opponent marbles (counted as 14
   minus the opponent's marbles on the board, so a custom start carries earlier losses over);
2. ``no_legal_moves``: the side to move cannot move and loses (server rule);
3. ``repetition``: the position, with the same side to move, occurs for the third time, the start
   position included (server rule, setting ``threefold_repetition``, default on); a draw;
4. ``move_cap``: ``max_plies`` half-moves have been played (server rule, default 400); a draw, or
   with ``max_plies_result="marbles"`` a win for the side that pushed off more marbles (equal: a
   draw).

The server ends games for other reasons with :meth:`Game.end` and one of
:data:`EXTERNAL_TERMINATIONS`.  Time is not handled here: the caller decides a flag fell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.messages import Term, gettext_noop
from games.engine.errors import GameOverError, IllegalMove, SettingsError
from games.engine.movegen import Move
from games.engine.moves import MoveOutcome, apply_move, parse_move
from games.engine.placement import (
    Placement,
    is_placement_text,
    parse_placement,
    placement_over_error,
    placements,
)
from games.engine.position import (
    BLACK,
    COLOUR_NAMES,
    MARBLES_PER_SIDE,
    WHITE,
    Position,
    normalise_colour,
    opponent,
    resolve_start,
    start_label,
)

BLACK_WINS = "1-0"
WHITE_WINS = "0-1"
DRAW = "1/2-1/2"
RESULTS = (BLACK_WINS, WHITE_WINS, DRAW)

RULE_TERMINATIONS = ("marbles", "no_legal_moves", "repetition", "move_cap")
EXTERNAL_TERMINATIONS = ("resignation", "time", "agreement", "abandoned", "forfeit")
TERMINATIONS = RULE_TERMINATIONS + EXTERNAL_TERMINATIONS

MARBLES_TO_WIN_STANDARD = 6
MARBLES_TO_WIN_BLITZ = 4
MAX_PLIES_RESULTS = ("draw", "marbles")


def win_for(colour: str) -> str:
    """The result string of a win for ``colour``."""
    return BLACK_WINS if normalise_colour(colour) == BLACK else WHITE_WINS


@dataclass(frozen=True)
class GameSettings:
    """Per-game rule settings, validated on creation (raises :class:`SettingsError`).

    ``start`` is a start name (``standard``, ``belgian``, ``german``, ``placement``) or a
    position string; it is normalised to the lower-case name, or the canonical position string.
    ``placement`` starts on the empty board with the placement phase: the first
    :attr:`placements` plies place one marble each (Black, White, ...), 14 each.
    """

    start: str = "standard"
    marbles_to_win: int = MARBLES_TO_WIN_STANDARD
    threefold_repetition: bool = True
    max_plies: int = 400
    max_plies_result: str = "draw"
    start_position: Position = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        position = resolve_start(self.start)
        object.__setattr__(self, "start_position", position)
        object.__setattr__(self, "start", start_label(position))
        if (
            not isinstance(self.marbles_to_win, int)
            or isinstance(self.marbles_to_win, bool)
            or not 1 <= self.marbles_to_win <= 6
        ):
            raise SettingsError(
                gettext_noop("marbles_to_win must be a whole number from 1 to 6, not %(value)r"),
                "bad_marbles_to_win",
                value=self.marbles_to_win,
            )
        if not isinstance(self.threefold_repetition, bool):
            raise SettingsError(
                gettext_noop("threefold_repetition must be True or False"), "bad_repetition"
            )
        if (
            not isinstance(self.max_plies, int)
            or isinstance(self.max_plies, bool)
            or self.max_plies < 1
        ):
            raise SettingsError(
                gettext_noop("max_plies must be a positive whole number, not %(value)r"),
                "bad_max_plies",
                value=self.max_plies,
            )
        if self.max_plies_result not in MAX_PLIES_RESULTS:
            raise SettingsError(
                gettext_noop("max_plies_result must be 'draw' or 'marbles', not %(value)r"),
                "bad_max_plies_result",
                value=self.max_plies_result,
            )
        for colour in () if self.placement else (BLACK, WHITE):
            if position.pushed_off(colour) >= self.marbles_to_win:
                raise SettingsError(
                    gettext_noop(
                        "%(colour)s has already lost %(count)s marbles in the start position; "
                        "marbles_to_win is %(limit)s"
                    ),
                    "start_already_won",
                    colour=Term(COLOUR_NAMES[colour]),
                    count=position.pushed_off(colour),
                    limit=self.marbles_to_win,
                )

    @property
    def placement(self) -> bool:
        """True iff the game starts with the placement phase."""
        return self.start == "placement"

    @property
    def placements(self) -> int:
        """Plies of the placement phase: every marble of both sides (0 without the phase)."""
        return 2 * MARBLES_PER_SIDE if self.placement else 0


class Game:
    """A game in progress or finished; mutable, one move at a time through :meth:`play`.

    With the ``placement`` start the first :attr:`GameSettings.placements` plies are placements
    (:class:`~games.engine.placement.Placement`, written ``@e5``): no game end is checked during
    the phase, nobody has pushed anything off, and ``max_plies`` counts the moves after it.

    ``Game()`` is a standard game with default settings; pass keyword settings, or a
    :class:`GameSettings` as ``settings``.  The game ends itself when the rules say so (see the
    module docstring); :attr:`result` and :attr:`termination` then tell how.
    """

    def __init__(
        self,
        start: str | Position = "standard",
        *,
        marbles_to_win: int = MARBLES_TO_WIN_STANDARD,
        threefold_repetition: bool = True,
        max_plies: int = 400,
        max_plies_result: str = "draw",
        settings: GameSettings | None = None,
    ) -> None:
        if settings is None:
            start_text = start.to_string() if isinstance(start, Position) else start
            settings = GameSettings(
                start=start_text,
                marbles_to_win=marbles_to_win,
                threefold_repetition=threefold_repetition,
                max_plies=max_plies,
                max_plies_result=max_plies_result,
            )
        self.settings: GameSettings = settings
        self.start_position: Position = settings.start_position
        self.position: Position = self.start_position
        self._moves: list[Move] = []
        self._outcomes: list[MoveOutcome] = []
        self._positions: list[Position] = [self.start_position]
        self._seen: dict[Position, int] = {self.start_position: 1}
        self.result: str | None = None
        self.termination: str | None = None
        self._placements = settings.placements
        if not self._placements and not self.position.has_legal_move():
            self._finish(win_for(opponent(self.position.side_to_move)), "no_legal_moves")

    # --- state ----------------------------------------------------------------------------------

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played so far."""
        return tuple(self._moves)

    @property
    def last_move(self) -> Move | Placement | None:
        """The move played last (None before the first)."""
        return self._moves[-1] if self._moves else None

    @property
    def notations(self) -> tuple[str, ...]:
        """The canonical notations of the moves played so far."""
        return tuple(move.notation for move in self._moves)

    @property
    def outcomes(self) -> tuple[MoveOutcome, ...]:
        """What each move did, in order."""
        return tuple(self._outcomes)

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position of the game, the start first and the current one last."""
        return tuple(self._positions)

    @property
    def ply(self) -> int:
        """Number of half-moves played."""
        return len(self._moves)

    @property
    def side_to_move(self) -> str:
        """``"b"`` or ``"w"``."""
        return self.position.side_to_move

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def winner(self) -> str | None:
        """``"b"``, ``"w"``, or None (draw or in progress)."""
        return {BLACK_WINS: BLACK, WHITE_WINS: WHITE}.get(self.result or "")

    @property
    def in_placement(self) -> bool:
        """True during the placement phase (the next ply places a marble)."""
        return len(self._moves) < self._placements

    def pushed_off(self, colour: str) -> int:
        """How many marbles of ``colour`` are off the board (14 minus those on it; none during
        the placement phase)."""
        return 0 if self.in_placement else self.position.pushed_off(colour)

    def pushed_off_by(self, colour: str) -> int:
        """How many opponent marbles ``colour`` has pushed off (the score toward marbles_to_win)."""
        return self.pushed_off(opponent(colour))

    def repetition_count(self, position: Position | None = None) -> int:
        """How often ``position`` (default: the current one) has occurred in this game."""
        return self._seen.get(position if position is not None else self.position, 0)

    def legal_moves(self) -> list[Move] | list[Placement]:
        """Legal moves of the side to move (placements during the placement phase); empty once
        the game is over."""
        if self.is_over:
            return []
        if self.in_placement:
            return placements(self.position.black_bits | self.position.white_bits)
        return self.position.legal_moves()

    # --- changes --------------------------------------------------------------------------------

    def play(self, move: Move | str) -> MoveOutcome:
        """Play a move (notation in any case, or a :class:`Move`) and end the game if due.

        Raises :class:`GameOverError` on a finished game and :class:`IllegalMove` for an illegal
        move; in both cases the game is unchanged. During the placement phase the move is a
        placement (``@e5`` or a :class:`Placement`); after it, a placement is illegal.
        """
        if self.is_over:
            shown = getattr(move, "notation", None) or str(move).strip().lower()
            raise GameOverError(
                gettext_noop("the game is over (%(result)s, %(termination)s)"),
                "game_over",
                subject=shown,
                result=self.result,
                termination=self.termination,
            )
        if self._placements:
            if len(self._moves) < self._placements:
                return self._place(move)
            if isinstance(move, Placement) or is_placement_text(move):
                raise placement_over_error(move)
        if not isinstance(move, Move):
            move = parse_move(self.position, move)
        new_position, outcome = apply_move(self.position, move)
        self.position = new_position
        self._moves.append(move)
        self._outcomes.append(outcome)
        self._positions.append(new_position)
        self._seen[new_position] = self._seen.get(new_position, 0) + 1
        self._check_end(outcome.mover)
        return outcome

    def _place(self, move: Placement | str | Move) -> MoveOutcome:
        position = self.position
        if isinstance(move, Move):
            raise IllegalMove(
                gettext_noop("the placement phase is on; place a marble (e.g. @e5)"),
                "placement_phase",
                subject=move.notation,
            )
        if not isinstance(move, Placement) and not is_placement_text(move):
            raise IllegalMove(
                gettext_noop("the placement phase is on; place a marble (e.g. @e5)"),
                "placement_phase",
                subject=str(move).strip().lower(),
            )
        placement = parse_placement(position.black_bits | position.white_bits, move)
        mover = position.side_to_move
        black, white = position.black_bits, position.white_bits
        if mover == BLACK:
            black |= placement.bit
        else:
            white |= placement.bit
        new_position = Position(opponent(mover), black, white)
        outcome = MoveOutcome(placement, mover, (), (), None)  # type: ignore[arg-type]
        self.position = new_position
        self._moves.append(placement)  # type: ignore[arg-type]
        self._outcomes.append(outcome)
        self._positions.append(new_position)
        self._seen[new_position] = self._seen.get(new_position, 0) + 1
        if not self.in_placement and not new_position.has_legal_move():
            self._finish(win_for(mover), "no_legal_moves")
        return outcome

    def end(self, result: str, termination: str) -> None:
        """End the game for a reason outside the board (resignation, time, agreement, ...).

        ``termination`` is one of :data:`EXTERNAL_TERMINATIONS`; ``agreement`` must be a draw,
        ``resignation``, ``time`` and ``forfeit`` must be wins, ``abandoned`` may be either.
        Raises :class:`GameOverError` if the game is already over, :class:`SettingsError` for a
        bad result or termination.
        """
        if self.is_over:
            raise GameOverError(
                gettext_noop("the game is already over (%(result)s, %(termination)s)"),
                "game_over",
                result=self.result,
                termination=self.termination,
            )
        if result not in RESULTS:
            raise SettingsError(
                gettext_noop("result must be one of %(choices)s"),
                "bad_result",
                choices=", ".join(RESULTS),
            )
        if termination not in EXTERNAL_TERMINATIONS:
            raise SettingsError(
                gettext_noop("termination must be one of %(choices)s"),
                "bad_termination",
                choices=", ".join(EXTERNAL_TERMINATIONS),
            )
        if termination == "agreement" and result != DRAW:
            raise SettingsError(gettext_noop("an agreed result is a draw"), "bad_result")
        if termination in ("resignation", "time", "forfeit") and result == DRAW:
            raise SettingsError(
                gettext_noop("a game ended by %(termination)s has a winner"),
                "bad_result",
                termination=termination,
            )
        self._finish(result, termination)

    def _finish(self, result: str, termination: str) -> None:
        self.result = result
        self.termination = termination

    def _check_end(self, mover: str) -> None:
        settings = self.settings
        if self.pushed_off_by(mover) >= settings.marbles_to_win:
            self._finish(win_for(mover), "marbles")
        elif not self.position.has_legal_move():
            self._finish(win_for(mover), "no_legal_moves")
        elif settings.threefold_repetition and self._seen[self.position] >= 3:
            self._finish(DRAW, "repetition")
        elif self.ply - self._placements >= settings.max_plies:
            self._finish(self.adjudicated_result(), "move_cap")

    def adjudicated_result(self) -> str:
        """The result of this game ended unfinished by the settings' rule (``max_plies_result``):
        a draw, or a win for the side that pushed off more marbles (equal: a draw). The move
        limit ends a game so; a correspondence round's deadline too (``tournaments``)."""
        if self.settings.max_plies_result == "draw":
            return DRAW
        black_score, white_score = self.pushed_off_by(BLACK), self.pushed_off_by(WHITE)
        if black_score > white_score:
            return BLACK_WINS
        if white_score > black_score:
            return WHITE_WINS
        return DRAW
