"""Sumito's tournament pairing engines: pure Python, no Django, no database.

Public API (everything else is internal):

- value types (:mod:`tournaments.pairing.model`): :class:`RoundEntry` ``(round, opponent,
  colour, result)``, :class:`PairingPlayer` ``(number, name, rating, history=(),
  available=True)``, :class:`Scoring` ``(win=1.0, draw=0.5, loss=0.0, pab=1.0)``,
  :class:`RoundPairing` ``(pairs, bye=None, notes={})``, :class:`PairingError` (a
  ``ValueError`` with a user-facing message).  Colours: ``"b"`` = Black = moves first (FIDE's
  White), ``"w"`` = White.  Result codes are TRF codes ``1 = 0 + - H F U Z``.
- Swiss: :func:`pair_swiss` ``(players, *, round_number, total_rounds, scoring=Scoring(),
  first_colour="b", forbidden_pairs=(), rules="dutch-2026") -> RoundPairing`` (FIDE Dutch
  system: the 2026 text by :mod:`tournaments.pairing.dutch2026`, or ``"dutch-until-2026"``
  by py4swiss) and
  :func:`explain_pairing` ``(players, pairing, *, scoring, round_number=None,
  first_colour="b") -> dict[int, Text]`` (English templates the site translates).
- Round-robin: :func:`berger_pairings` ``(n_players, round_number, *, double=False,
  swap_last_two_rounds=False) -> list[tuple[int, int | None]]`` and :func:`berger_rounds`
  ``(n_players, *, double=False) -> int`` (FIDE Berger tables).
- TRF (TRF-2026, TRF-16 and its extensions read): :func:`write_trf` ``(tournament_name, players, *, total_rounds, scoring=Scoring(),
  first_colour="b", rounds_played=None, forbidden_pairs=()) -> str`` and :func:`read_trf`
  ``(text) -> TrfTournament``.

Command line: ``python -m tournaments.pairing FILE.trf`` prints the next round's Dutch pairing
in bbpPairings' format.  Details and the FIDE articles followed: ``docs/pairing.md``.
"""

from tournaments.pairing.berger import berger_pairings, berger_rounds
from tournaments.pairing.dutch import pair_swiss
from tournaments.pairing.explain import explain_pairing
from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingError,
    PairingPlayer,
    RoundEntry,
    RoundPairing,
    Scoring,
)
from tournaments.pairing.trf import TrfTournament, read_trf, write_trf

__all__ = [
    "BLACK",
    "WHITE",
    "PairingError",
    "PairingPlayer",
    "RoundEntry",
    "RoundPairing",
    "Scoring",
    "TrfTournament",
    "berger_pairings",
    "berger_rounds",
    "explain_pairing",
    "pair_swiss",
    "read_trf",
    "write_trf",
]
