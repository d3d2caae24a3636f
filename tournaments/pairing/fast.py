"""Faster edge weights for py4swiss's Dutch engine: same pairings, a fraction of the time.

Why: py4swiss 0.3.x builds one edge weight per pair of players in a bracket (hundreds of
thousands for a 1000-player Swiss) in pure Python, each one out of ~50 operations on
``DynamicUint`` (its compiled arbitrary-width unsigned integer): per quality criterion C.5-C.19
a fresh ``DynamicUint``, a shift and an addition.  That was two thirds of a big round's pairing
time, and the Python bookkeeping around the compiled maximum-weight matching (one method call
per edge touched) most of the rest; the matching itself (C++) took less than a fifth.

What :func:`install` replaces (class attributes of py4swiss, restored by :func:`uninstall`):

- ``BracketMatcher._get_weight`` and ``BracketMatcher._set_up_computer``
  (``py4swiss/engines/dutch/bracket/bracket_matcher.py``): the weight of a pair is computed
  with plain Python ints by :func:`_criteria_weight`, a line-by-line transcription of
  ``C5.get_weight`` ... ``C19.get_weight`` (``py4swiss/engines/dutch/criteria/quality``).  It
  only reads a small tuple of player attributes (:func:`_features`), so it is memoised per
  bracket on pairs of those tuples: a bracket of 500 players has a few hundred distinct tuples,
  not 125,000 distinct pairs.  The int is converted once into a ``DynamicUint`` of the stock
  width; each pair then gets its own copy (``BracketPairer`` mutates weights in place).
- ``BracketMatcher.add_to_weights``, ``remove_weights``, ``finalize_match`` and
  ``update_matching`` (the bracket pairer's incremental updates for D.1-D.3): the same
  statements with the per-edge method calls (``add_to_weight``, ``_remove_weight``,
  ``_set_weight``, ``_get_index``) inlined.
- ``ValidityMatcher.is_allowed_pair``, ``_set_up_computer`` and ``finalize_match``
  (``validity_matcher.py``): the same test of C.1, C.3 and the forbidden pairs without building
  a set per call, with each player's C.3 class computed once.

Why it is exact: ``DynamicUint`` arithmetic is arithmetic modulo ``2**width`` (shifts drop the
bits above the width, subtraction borrows), and every operation the criteria use on it (``+``,
``-``, ``<<``, ``|`` of a small int into a zero value) is the same operation on ints followed by
a final ``& (2**width - 1)``.  The C++ matching computers receive exactly the same calls, in the
same order, with equal arguments, so their results (ties included) cannot differ.  This is
checked by ``tests/tournaments/test_pairing_fast.py`` (weights compared pair by pair against
the stock code, and whole simulated tournaments paired both ways).

The transcription is exact only for the py4swiss it was written from: that code is pinned and
fingerprinted in :mod:`tournaments.pairing.py4swiss_pin`.  :func:`install` runs at start-up
(``tournaments.apps.TournamentsConfig.ready()``, the command line, the bench) and raises
:class:`~tournaments.pairing.py4swiss_pin.UnsupportedPy4Swiss`, naming the first difference,
if the installed py4swiss is not that code.  Why not fall back to the stock code: a silent
fallback would make big rounds about four times slower without anyone noticing, and the
transcription laid over a different py4swiss could pair differently from py4swiss itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.common import ColorPreferenceSide, ColorPreferenceStrength, Float
from py4swiss.engines.dutch.bracket.bracket import Bracket
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.criteria import QUALITY_CRITERIA
from py4swiss.engines.dutch.criteria.absolute import C2
from py4swiss.engines.dutch.player import Player, PlayerRole
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

from tournaments.pairing.py4swiss_pin import (
    CHECKED_VERSION,
    TARGETS,
    UnsupportedPy4Swiss,
    supported,
)
from tournaments.pairing.py4swiss_pin import STOCK as _STOCK

# Memo key of a pair of feature ids: first * _KEY_STRIDE + second (ids are < players in a bracket).
_KEY_STRIDE = 1 << 32

_LOWER = PlayerRole.LOWER
_NO_SIDE = ColorPreferenceSide.NONE
_STRONG = ColorPreferenceStrength.STRONG
_ABSOLUTE = ColorPreferenceStrength.ABSOLUTE
_DOWN = Float.DOWN
_UP = Float.UP

# -- weights as ints ---------------------------------------------------------------------------

# What the quality criteria read of a player (see _criteria_weight), in this order.
Features = tuple[
    PlayerRole,  # role in the bracket
    int,  # points_with_acceleration
    ColorPreferenceSide,  # colour preference side
    ColorPreferenceStrength,  # colour preference strength
    bool,  # abs(color_difference) > 1
    bool,  # color_double
    bool,  # top_scorer
    Float,  # float_1
    Float,  # float_2
    bool,  # bye_received
]


def _features(player: Player) -> Features:
    """Everything about ``player`` that its edge weights (and C.3) depend on."""
    preference = player.color_preference
    return (
        player.role,
        player.points_with_acceleration,
        preference.side,
        preference.strength,
        abs(player.color_difference) > 1,
        player.color_double,
        player.top_scorer,
        player.float_1,
        player.float_2,
        player.bye_received,
    )


def _c3_allows(first: Features, second: Features) -> bool:
    """``C3.evaluate`` on two players' features: non-topscorers with the same absolute colour
    preference must not meet."""
    topscorer = first[6] or second[6]
    same_preference = first[2] == second[2]
    return topscorer or not same_preference or first[3] != _ABSOLUTE or second[3] != _ABSOLUTE


def _criteria_weight(first: Features, second: Features, bracket: Bracket) -> list[int]:
    """The values of ``C5.get_weight`` ... ``C19.get_weight`` for the pair as (possibly
    negative) ints, i.e. before reduction modulo the weight width.

    ``first`` is the higher-placed player of the pair in the matcher's player list.  Each block
    transcribes the criterion of the same name in py4swiss 0.3.x; dictionary lookups are kept
    as they are (``[...]`` vs ``.get``) so that a missing key fails the same way.
    """
    role_1, points_1, side_1, strength_1, wide_1, double_1, top_1, float1_1, float2_1, _ = first
    role_2, points_2, side_2, strength_2, wide_2, double_2, top_2, float1_2, float2_2, _ = second
    lower_2 = role_2 == _LOWER
    one_round = bracket.one_round_played
    two_rounds = bracket.two_rounds_played
    minimum = bracket.min_bracket_score
    bits = bracket.score_difference_bit_dict
    values = [0] * 15

    # C5: maximise the number of pairs.
    values[0] = int(not lower_2)
    if not lower_2:
        difference_1 = points_1 - minimum + 10
        difference_2 = points_2 - minimum + 10
        difference_3 = points_1 - points_2
        more_points_1 = points_1 > points_2
        topscorer = top_1 or top_2
        same_side = side_1 == side_2
        conflict = same_side and side_1 is not _NO_SIDE
        # C6: minimise the PSD.
        values[1] = (
            (1 << bits[difference_1]) + (1 << bits[difference_2]) - (1 << bits.get(difference_3, 0))
        )
    # C7: pairs and PSD in the following bracket (not in the PPB or last bracket).
    if not (bracket.penultimate_pairing_bracket or bracket.last_pairing_bracket):
        weight = int(lower_2) << bracket.score_difference_total_bits
        if role_1 != _LOWER:
            weight += 1 << bits[points_1 - minimum + 10]
        if not lower_2:
            weight += 1 << bits[points_2 - minimum + 10]
        values[2] = weight
    if lower_2:
        return values
    # C8: topscorers' colour differences beyond +-2.
    values[3] = int(not (topscorer and wide_1 and wide_2 and same_side))
    # C9: topscorers' same colour three times in a row.
    values[4] = int(not (topscorer and double_1 and double_2 and same_side))
    # C10: colour preferences not granted.
    values[5] = int(not conflict)
    # C11: strong colour preferences not granted.
    values[6] = int(not (strength_1 >= _STRONG and strength_2 >= _STRONG and conflict))
    if one_round:
        # C12: same downfloat as the previous round.
        values[7] = int(float1_1 == _DOWN and points_1 <= points_2) + int(float1_2 == _DOWN)
        # C14: same downfloat as two rounds before (py4swiss gates it on one round played).
        values[9] = int(float2_1 == _DOWN and points_1 <= points_2) + int(float2_2 == _DOWN)
        # C16: score differences of repeated downfloats (previous round).
        prev_1 = float1_1 == _DOWN
        weight = (int(prev_1) << bits[difference_1]) + (
            int(float1_2 == _DOWN) << bits[difference_2]
        )
        if prev_1 and more_points_1:
            weight -= 1 << bits.get(difference_3, 0)
        values[11] = weight
        # C17: score differences of repeated upfloats (previous round).
        values[12] = -(int(float1_2 == _UP and more_points_1) << bits[difference_1])
    if two_rounds:
        # C13: same upfloat as the previous round.
        values[8] = int(not (float1_2 == _UP and more_points_1))
        # C15: same upfloat as two rounds before.
        values[10] = int(not (float2_2 == _UP and more_points_1))
        # C18: score differences of repeated downfloats (two rounds before).
        prev_1 = float2_1 == _DOWN
        weight = (int(prev_1) << bits[difference_1]) + (
            int(float2_2 == _DOWN) << bits[difference_2]
        )
        if prev_1 and more_points_1:
            weight -= 1 << bits.get(difference_3, 0)
        values[13] = weight
        # C19: score differences of repeated upfloats (two rounds before).
        values[14] = -(int(float2_2 == _UP and more_points_1) << bits[difference_1])
    return values


def _width(zero: DynamicUint) -> int:
    """The number of bits of ``zero``'s type: ``0 - 1`` wraps around to all ones."""
    return len((zero - (zero | 1)).to_binary())


def to_dynamic_uint(value: int, zero: DynamicUint) -> DynamicUint:
    """A new ``DynamicUint`` as wide as ``zero`` holding ``value`` (0 <= value < 2**width)."""
    result = DynamicUint(zero)
    for shift in range(_width(zero) - 32, -32, -32):
        result <<= 32
        result |= (value >> shift) & 0xFFFFFFFF
    return result


def from_dynamic_uint(value: DynamicUint) -> int:
    """``value`` as a Python int."""
    return int(value.to_binary(), 2)


class _BracketWeights:
    """Per-bracket constants and the memo of weights by pair of :func:`_features` tuples."""

    def __init__(self, matcher: BracketMatcher) -> None:
        bracket = matcher._bracket
        self.bracket = bracket
        self.zero = matcher._zero_weight
        self.mask = (1 << _width(self.zero)) - 1
        self.shifts = [criterion.get_shift(bracket) for criterion in QUALITY_CRITERIA]
        self.tail_shift = 3 * bracket.bracket_bits + 1
        self.bye_bits = bracket.penultimate_pairing_bracket or bracket.last_pairing_bracket
        # Feature tuple -> small int, so the memo is keyed by one int per pair.
        self.feature_ids: dict[Features, int] = {}
        self.feature_list: list[Features] = []
        self.memo: dict[int, DynamicUint] = {}

    def feature_id(self, player: Player) -> int:
        features = _features(player)
        found = self.feature_ids.get(features)
        if found is None:
            found = self.feature_ids[features] = len(self.feature_list)
            self.feature_list.append(features)
        return found

    def int_weight(self, first: Features, second: Features) -> int:
        """The stock ``_get_weight`` of an allowed pair, as an int."""
        weight = 1 + first[9] + second[9] if self.bye_bits else 0
        for shift, value in zip(
            self.shifts, _criteria_weight(first, second, self.bracket), strict=True
        ):
            weight = (weight << shift) + value
        return (weight << self.tail_shift) & self.mask

    def template(self, first_id: int, second_id: int) -> DynamicUint:
        """The weight for two feature ids (zero if C.3 forbids the pair); never hand it out
        without copying it."""
        key = first_id * _KEY_STRIDE + second_id
        found = self.memo.get(key)
        if found is None:
            first, second = self.feature_list[first_id], self.feature_list[second_id]
            if _c3_allows(first, second):
                found = to_dynamic_uint(self.int_weight(first, second), self.zero)
            else:
                found = DynamicUint(self.zero)
            self.memo[key] = found
        return found


def _weights_of(matcher: BracketMatcher) -> _BracketWeights:
    """The matcher's :class:`_BracketWeights`, made on first use (after ``__init__`` has set
    ``_bracket`` and ``_zero_weight``, before it calls ``_set_up_computer``)."""
    weights = matcher.__dict__.get("_sumito_weights")
    if weights is None:
        weights = matcher.__dict__["_sumito_weights"] = _BracketWeights(matcher)
    return weights


def _forbidden(validity_matcher: ValidityMatcher, id_1: int, id_2: int) -> bool:
    """Whether the pair is an ``XXP`` forbidden pair, in either order (as the stock code)."""
    forbidden_pairs = validity_matcher._forbidden_pairs
    return bool(forbidden_pairs) and (
        (id_1, id_2) in forbidden_pairs or (id_2, id_1) in forbidden_pairs
    )


# -- the replacements --------------------------------------------------------------------------


def fast_get_weight(self: BracketMatcher, player_1: Player, player_2: Player) -> DynamicUint:
    """Replacement for ``BracketMatcher._get_weight``: equal value, new object."""
    if _forbidden(self._validity_matcher, player_1.id, player_2.id) or (
        player_1.id in player_2.opponents
    ):
        return DynamicUint(self._zero_weight)
    weights = _weights_of(self)
    return DynamicUint(weights.template(weights.feature_id(player_1), weights.feature_id(player_2)))


def fast_bracket_set_up_computer(self: BracketMatcher) -> None:
    """Replacement for ``BracketMatcher._set_up_computer``: the same calls to the matching
    computer, with weights from :func:`fast_get_weight`'s memo, inlined for speed."""
    computer = self._computer
    for _ in range(self._len):
        computer.add_vertex()

    weights = _weights_of(self)
    players = self._player_list
    ids = [player.id for player in players]
    opponents = [player.opponents for player in players]
    feature_ids = [weights.feature_id(player) for player in players]
    template = weights.template
    memo = weights.memo
    forbidden_pairs = self._validity_matcher._forbidden_pairs
    zero = self._zero_weight
    rows = self._weights
    set_edge_weight = computer.set_edge_weight
    count = len(players)
    for i in range(count):
        id_1 = ids[i]
        row = rows[i]
        key_base = feature_ids[i] * _KEY_STRIDE
        for j in range(i + 1, count):
            id_2 = ids[j]
            if id_1 in opponents[j] or (
                forbidden_pairs
                and ((id_1, id_2) in forbidden_pairs or (id_2, id_1) in forbidden_pairs)
            ):
                weight = DynamicUint(zero)
            else:
                found = memo.get(key_base + feature_ids[j])
                if found is None:
                    found = template(feature_ids[i], feature_ids[j])
                weight = DynamicUint(found)
            # BracketMatcher._set_weight, inlined.
            row[j] = weight
            rows[j][i] = weight
            set_edge_weight(i, j, weight)


# The bracket pairer's incremental updates (B.8, D.1-D.3): the same statements as py4swiss's,
# with the per-pair method calls inlined and players indexed by id (``Player.__hash__`` and
# ``__eq__`` are the id's, so ``_index_dict[player]`` is ``_index_by_id[player.id]``).  Weight
# objects are stored, shared between ``[i][j]`` and ``[j][i]`` and mutated in place
# (``weight &= 0``) exactly as the stock code does.


def _index_by_id(matcher: BracketMatcher) -> dict[int, int]:
    """``matcher._index_dict`` keyed by player id (no Python-level ``Player.__hash__`` call)."""
    index = matcher.__dict__.get("_sumito_index")
    if index is None:
        index = matcher.__dict__["_sumito_index"] = {
            player.id: i for player, i in matcher._index_dict.items()
        }
    return index


def fast_add_to_weights(
    self: BracketMatcher,
    player: Player,
    player_list: list[Player],
    value: int,
    increment: bool = False,
) -> None:
    """Replacement for ``BracketMatcher.add_to_weights`` (with ``add_to_weight`` inlined)."""
    index = _index_by_id(self)
    rows = self._weights
    zero = self._zero_weight
    set_edge_weight = self._computer.set_edge_weight
    i = index[player.id]
    row = rows[i]
    step = int(increment)
    # The operand ``zero | abs(value)`` is only read by ``+`` and ``-``, so while ``value``
    # does not change one object serves every pair.
    operand = None if increment else zero | abs(value)
    for other in player_list:
        j = index[other.id]
        current = row[j]
        # An edge weight of zero counts as no edge.
        if current:
            weight = operand if operand is not None else zero | abs(value)
            weight = current + weight if value > 0 else current - weight
            row[j] = weight
            rows[j][i] = weight
            set_edge_weight(i, j, weight)
        value += step


def fast_remove_weights(self: BracketMatcher, player: Player, player_list: list[Player]) -> None:
    """Replacement for ``BracketMatcher.remove_weights`` (``_remove_weight`` inlined)."""
    index = _index_by_id(self)
    set_edge_weight = self._computer.set_edge_weight
    i = index[player.id]
    row = self._weights[i]
    for other in player_list:
        j = index[other.id]
        weight = row[j]
        if weight:
            weight &= 0
            set_edge_weight(i, j, weight)


def fast_bracket_finalize_match(self: BracketMatcher, player_1: Player, player_2: Player) -> None:
    """Replacement for ``BracketMatcher.finalize_match`` (``_remove_weight`` inlined)."""
    index = _index_by_id(self)
    i, j = index[player_1.id], index[player_2.id]
    rows = self._weights
    row_i, row_j = rows[i], rows[j]
    set_edge_weight = self._computer.set_edge_weight
    for k in range(self._len):
        weight = row_i[k]
        if weight:
            weight &= 0
            set_edge_weight(i, k, weight)
        weight = row_j[k]
        if weight:
            weight &= 0
            set_edge_weight(j, k, weight)
    # BracketMatcher._set_weight, inlined.
    weight = self._max_weight
    row_i[j] = weight
    row_j[i] = weight
    set_edge_weight(i, j, weight)


def fast_update_matching(self: BracketMatcher) -> None:
    """Replacement for ``BracketMatcher.update_matching``: ``_get_player(i)`` is
    ``_player_list[i]``."""
    computer = self._computer
    computer.compute_matching()
    players = self._player_list
    self.matching = {players[i]: players[j] for i, j in enumerate(computer.get_matching())}


def fast_is_allowed_pair(self: ValidityMatcher, player_1: Player, player_2: Player) -> bool:
    """Replacement for ``ValidityMatcher.is_allowed_pair``: forbidden pairs, C.1 and C.3
    without building a set per call."""
    if _forbidden(self, player_1.id, player_2.id):
        return False
    return player_1.id not in player_2.opponents and _c3_allows(
        _features(player_1), _features(player_2)
    )


def _c3_class(player: Player) -> ColorPreferenceSide | None:
    """Players of the same non-None class may not meet by C.3: non-topscorers with an absolute
    preference, classed by its side."""
    preference = player.color_preference
    if player.top_scorer or preference.strength != _ABSOLUTE:
        return None
    return preference.side


def fast_validity_set_up_computer(self: ValidityMatcher) -> None:
    """Replacement for ``ValidityMatcher._set_up_computer``: the same calls, cheaper tests."""
    computer = self._computer
    for _ in range(self._len):
        computer.add_vertex()

    players = self._players
    ids = [player.id for player in players]
    opponents = [player.opponents for player in players]
    classes = [_c3_class(player) for player in players]
    forbidden_pairs = self._forbidden_pairs
    set_edge_weight = computer.set_edge_weight
    count = len(players)
    for i in range(count):
        id_1 = ids[i]
        class_1 = classes[i]
        for j in range(i + 1, count):
            id_2 = ids[j]
            allowed = not (
                id_1 in opponents[j]
                or (class_1 is not None and class_1 == classes[j])
                or (
                    forbidden_pairs
                    and ((id_1, id_2) in forbidden_pairs or (id_2, id_1) in forbidden_pairs)
                )
            )
            set_edge_weight(i, j, 1 if allowed else 0)

    if count % 2 == 1:
        for i, player in enumerate(players):
            set_edge_weight(i, count, int(C2.evaluate(player, player)))


def fast_validity_finalize_match(self: ValidityMatcher, player_1: Player, player_2: Player) -> None:
    """Replacement for ``ValidityMatcher.finalize_match``: the same calls, fewer lookups."""
    i = self._index_dict[player_1]
    j = self._index_dict[player_2]
    set_edge_weight = self._computer.set_edge_weight
    for k in range(self._len):
        set_edge_weight(i, k, 0)
        set_edge_weight(j, k, 0)
    set_edge_weight(i, j, 1)


_FAST: dict[tuple[type, str], Callable[..., Any]] = {
    (BracketMatcher, "_get_weight"): fast_get_weight,
    (BracketMatcher, "_set_up_computer"): fast_bracket_set_up_computer,
    (BracketMatcher, "add_to_weights"): fast_add_to_weights,
    (BracketMatcher, "remove_weights"): fast_remove_weights,
    (BracketMatcher, "finalize_match"): fast_bracket_finalize_match,
    (BracketMatcher, "update_matching"): fast_update_matching,
    (ValidityMatcher, "is_allowed_pair"): fast_is_allowed_pair,
    (ValidityMatcher, "_set_up_computer"): fast_validity_set_up_computer,
    (ValidityMatcher, "finalize_match"): fast_validity_finalize_match,
}


# -- switching -------------------------------------------------------------------------------


def is_installed() -> bool:
    """Whether the fast methods are in place."""
    return all(owner.__dict__[name] is _FAST[owner, name] for owner, name in TARGETS)


def install() -> None:
    """Put the fast methods in place (idempotent: once they are, nothing is checked again).

    Raises :class:`UnsupportedPy4Swiss` if :func:`supported` finds a difference; py4swiss's
    own methods are then left in place, untouched.
    """
    if is_installed():
        return
    reason = supported()
    if reason is not None:
        raise UnsupportedPy4Swiss(
            f"{reason}.  Install py4swiss=={CHECKED_VERSION} (as pyproject.toml pins it), or "
            "check the transcription against the new code and update CHECKED_VERSION and "
            "FINGERPRINTS (see tournaments/pairing/py4swiss_pin.py and docs/pairing.md)"
        )
    _put(_FAST)


def uninstall() -> None:
    """Restore py4swiss's own methods (idempotent)."""
    _put(_STOCK)


def _put(methods: dict[tuple[type, str], Callable[..., Any]]) -> None:
    for owner, name in TARGETS:
        setattr(owner, name, methods[owner, name])


@contextmanager
def stock() -> Iterator[None]:
    """Pair with the stock py4swiss code inside the block (for comparisons), then restore
    whatever was installed before."""
    was_installed = is_installed()
    uninstall()
    try:
        yield
    finally:
        if was_installed:
            _put(_FAST)
