"""The FIDE (Dutch) System as in force from 1 February 2026 (C.04.3, approved by the FIDE
Council on 13 April 2024; its application was moved from 1 July 2025 to 1 February 2026).

Public API: :func:`pair_dutch_2026` ``(players, *, round_number, total_rounds, scoring,
first_colour, forbidden_pairs) -> (pairs, bye)`` with pairs in board order, first mover first.
:func:`tournaments.pairing.dutch.pair_swiss` calls it for the ruleset ``"dutch-2026"``.

What the 2026 text changed, and where it lives here (article numbers are the 2026 text's):

- **1.4.3 floats.** A player who did not play gets a downfloat only if they scored more than a
  loss without playing (:func:`_float`); the old text gave one for any unplayed round.
- **1.5 / 2.2 the pairing-allocated bye.** A player who already scored a win without playing
  (a PAB, a forfeit win, a full-point bye) cannot get it (:func:`_eligible_for_bye`).  The
  completion criterion (C.4) now also chooses the bye: the round pairing must leave one player,
  eligible for the bye, unpaired; among all such pairings the bye goes to the lowest possible
  score (C.5, "minimise the score of the PAB assignee") and, at that score, to the player
  with the most games played (C.9, "minimise the unplayed games of the PAB assignee").
  Both are fixed before the first bracket is paired (:func:`_bye_assignee_score`).
- **The order of the quality criteria.** Within a bracket: maximise pairs (C.6), maximise the
  scores paired (C.7, replacing the old "minimise the pairing score difference"), the same two
  for the next bracket (C.8), then C.9 above, the colour criteria (C.10-C.13) and the float
  criteria (C.14-C.21), where a repeated upfloat now weighs by the opponent's score.

How: a transcription of the pairing procedure of bbpPairings (the FIDE-endorsed engine, whose
author keeps it to the 2026 text; version 6, ``src/swisssystems/dutch.cpp``) onto the same
weighted-matching computer, which py4swiss ships compiled from bbpPairings' own C++
(``py4swiss.matching_computer.ComputerDutchOptimality``).  Every player to be paired is one
vertex; every edge weight is a long binary number whose bit fields, from the most significant,
are the criteria in the order above, so a maximum-weight matching is the pairing that best
satisfies them in that order.  Brackets are then fixed one at a time, top down: which moved-down
players are paired (2.3), who plays them, which residents are exchanged (the fewest exchanges,
then the smallest differences of the exchanged sequence numbers), and the S1 players' opponents,
each step as a change of edge weights followed by a new matching.  Weights are computed as
Python ints and handed to the computer as ``DynamicUint`` of bbpPairings' own width, so the
computer receives the same numbers in the same order as bbpPairings gives its own.

Modules: this one (the entry point, colours 5.2, board order), ``dutch2026_criteria`` (the
players, the absolute criteria, the edge weight's bit fields), ``dutch2026_matching`` (the
procedure on the matching computer) and ``dutch2026_computer`` (the computer, holding only the
bracket being paired when that is proven to decide as the whole field would).  Checked against bbpPairings in
``tests/tournaments/test_dutch2026.py`` and ``docs/pairing.md``.

Scores are kept in tenths of a point (as TRF scores are written).  Colours here are FIDE's:
``_WHITE`` is the side that moves first, i.e. Abalone's Black.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.pairing.dutch2026_criteria import (
    _NONE,
    _WHITE,
    _eligible_for_bye,
    _Field,
    _invert,
    _Player,
)
from tournaments.pairing.dutch2026_matching import Progress, _compute, _no_pairing
from tournaments.pairing.model import BLACK, PairingPlayer, Scoring


def effective_numbers(players: Sequence[PairingPlayer], round_number: int) -> dict[int, int]:
    """Pairing number -> the 1-based number among the players taking part (to be paired now,
    or paired in an earlier round), whose parity decides colours by 5.2.5 in bbpPairings."""
    tf = _Field(players, round_number, round_number, Scoring(), BLACK, ())
    return {p.number: p.rank + 1 for p in tf.players if p.valid}


def pair_dutch_2026(
    players: Sequence[PairingPlayer],
    *,
    round_number: int,
    total_rounds: int,
    scoring: Scoring,
    first_colour: str,
    forbidden_pairs: Iterable[tuple[int, int]] = (),
    progress: Progress | None = None,
) -> tuple[list[tuple[int, int]], int | None]:
    """Pairs (first mover first, in board order) and the PAB's pairing number, or raise
    :class:`PairingError` when no pairing satisfies the absolute criteria.  ``progress(placed,
    total)`` is called as the brackets are fixed (a big field takes a while)."""
    tf = _Field(players, round_number, total_rounds, scoring, first_colour, forbidden_pairs)
    ordered = sorted(tf.available, key=lambda p: (-p.score, p.rank))
    if not ordered:
        return [], None
    if len(ordered) == 1:
        if not _eligible_for_bye(ordered[0], tf):
            raise _no_pairing(round_number, 1)
        return [], ordered[0].number
    matching = _compute(tf, ordered, round_number, progress)
    pairs = []
    bye = None
    for player in ordered:
        partner = matching[player.index]
        if partner is None:
            bye = player.number
        elif player.index < partner.index:
            if _colour(player, partner, tf) == _WHITE:
                pairs.append((player, partner))
            else:
                pairs.append((partner, player))
    pairs.sort(key=lambda pair: _board_key(pair, tf))
    return [(a.number, b.number) for a, b in pairs], bye


def _board_key(pair: tuple[_Player, _Player], tf: _Field) -> tuple:
    """bbpPairings' board order: the higher player's score, the lower player's score, then
    the higher player's rank; real scores, without virtual points."""
    a, b = pair
    higher, lower = (a, b) if (a.unaccelerated, -a.rank) > (b.unaccelerated, -b.rank) else (b, a)
    return (-higher.unaccelerated, -lower.unaccelerated, higher.rank)


def _colour(player: _Player, opponent: _Player, tf: _Field) -> int:
    """The colour of ``player`` against ``opponent`` (5.2, bbpPairings' choosePlayerColor)."""
    result = _neutral_colour(player, opponent)
    if result != _NONE:
        return result
    player_first = (player.score, -player.rank) > (opponent.score, -opponent.rank)
    if player.preference == _NONE:
        if not player_first:
            return tf.initial_colour if opponent.rank & 1 else _invert(tf.initial_colour)
        return _invert(tf.initial_colour) if player.rank & 1 else tf.initial_colour
    if not player_first:
        return _invert(opponent.preference)
    return player.preference


def _neutral_colour(player: _Player, opponent: _Player) -> int:
    pp, op = player.preference, opponent.preference
    if pp != op or pp == _NONE or op == _NONE:
        if pp != _NONE:
            return pp
        if op != _NONE:
            return _invert(op)
        return _NONE
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return pp
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        return _invert(op)
    if player.strong and not opponent.strong:
        return pp
    if opponent.strong and not player.strong:
        return _invert(op)
    mine, theirs = _first_colour_difference(player, opponent)
    if mine != _NONE and theirs != _NONE:
        return theirs
    return _NONE


def _first_colour_difference(a: _Player, b: _Player) -> tuple[int, int]:
    """The two players' colours in the latest round (each counting their played games back)
    in which they differed."""
    first = [m.colour for m in reversed(a.matches) if m.played]
    second = [m.colour for m in reversed(b.matches) if m.played]
    for x, y in zip(first, second, strict=False):
        if x != y:
            return x, y
    n = min(len(first), len(second))
    return (first[n] if n < len(first) else _NONE), (second[n] if n < len(second) else _NONE)
