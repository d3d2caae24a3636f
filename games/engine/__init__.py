"""Sumito's Abalone rules engine: pure Python, no Django, no I/O.

Public API (everything else is internal):

- positions: :class:`Position` (``from_string``, ``to_string``, ``from_cells``), colours
  ``BLACK = "b"`` / ``WHITE = "w"`` (the one definition of the site's colours), their
  ``COLOUR_NAMES`` and :func:`opponent`, :func:`start_position` (``standard``, ``belgian``,
  ``german``), ``START_NAMES``;
- moves: :class:`Move`, :func:`legal_moves`, :func:`parse_move`, :func:`apply_move` ->
  (Position, :class:`MoveOutcome`), :func:`perft`;
- games: :class:`Game`, :class:`GameSettings`, result and termination constants,
  :func:`win_for` (the result of a win for a colour);
- records: :func:`write_record`, :func:`read_record` (format in ``docs/game-records.md``);
- errors: :class:`EngineError` (a ``ValueError``) and its subclasses :class:`IllegalMove`,
  :class:`PositionError`, :class:`GameOverError`, :class:`SettingsError`, :class:`RecordError`,
  each with a user-facing message and a short ``code``.

Command line: ``python -m games.engine perft <start|position> <depth>`` and
``python -m games.engine moves <start|position>``.
"""

from games.engine.errors import (
    EngineError,
    GameOverError,
    IllegalMove,
    PositionError,
    RecordError,
    SettingsError,
)
from games.engine.game import (
    BLACK_WINS,
    DRAW,
    EXTERNAL_TERMINATIONS,
    MARBLES_TO_WIN_BLITZ,
    MARBLES_TO_WIN_STANDARD,
    RESULTS,
    RULE_TERMINATIONS,
    TERMINATIONS,
    WHITE_WINS,
    Game,
    GameSettings,
    win_for,
)
from games.engine.movegen import BROADSIDE, INLINE, Move
from games.engine.moves import MoveOutcome, apply_move, legal_moves, parse_move, perft
from games.engine.position import (
    BELGIAN_DAISY_START,
    BLACK,
    COLOUR_NAMES,
    GERMAN_DAISY_START,
    MARBLES_PER_SIDE,
    STANDARD_START,
    START_NAMES,
    WHITE,
    Position,
    opponent,
    resolve_start,
    start_position,
)
from games.engine.record import read_record, write_record

__all__ = [
    "BELGIAN_DAISY_START",
    "BLACK",
    "BLACK_WINS",
    "BROADSIDE",
    "COLOUR_NAMES",
    "DRAW",
    "EXTERNAL_TERMINATIONS",
    "GERMAN_DAISY_START",
    "INLINE",
    "MARBLES_PER_SIDE",
    "MARBLES_TO_WIN_BLITZ",
    "MARBLES_TO_WIN_STANDARD",
    "RESULTS",
    "RULE_TERMINATIONS",
    "STANDARD_START",
    "START_NAMES",
    "TERMINATIONS",
    "WHITE",
    "WHITE_WINS",
    "EngineError",
    "Game",
    "GameOverError",
    "GameSettings",
    "IllegalMove",
    "Move",
    "MoveOutcome",
    "Position",
    "PositionError",
    "RecordError",
    "SettingsError",
    "apply_move",
    "legal_moves",
    "opponent",
    "parse_move",
    "perft",
    "read_record",
    "resolve_start",
    "start_position",
    "win_for",
    "write_record",
]
