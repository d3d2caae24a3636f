"""The FIDE (Dutch) System 2026, part 3: the matching computer that the procedure of
:mod:`tournaments.pairing.dutch2026_matching` drives, solving only the open bracket.

bbpPairings keeps one matching computer over the whole field for the whole round.  Each vertex
whose weights change is re-matched at a cost that grows with the square of the open part of the
field, so the lower score groups, untouched until their turn, weigh on every step above them.
Here, while a bracket ``B`` is paired, the computer holds only ``B``'s players not yet paired;
the next score group ``G'`` and the groups below, ``L``, are accounted for exactly as follows.

At that point an edge touching ``G'`` or ``L`` carries, below the completion field (the top
bits: C.4, and the bye's score), nothing but C.8 (pairs in the next bracket, and their scores)
when it ends in ``G'``, and nothing at all when it ends in ``L``: colour and float fields are
masked outside the bracket, C.9 is off (``enter`` is told so), and the procedure changes such
an edge only by removing it.  Every optimal matching is complete (the round was found
completable before the first bracket, and each decision keeps it so), and over complete
matchings the completion fields add up to the same total.  For the pairs ``P`` inside ``B`` and
the set ``U`` of ``B`` players they leave, the best C.8 value is at most that of every ``U``
player with an edge into ``G'`` paired there and the rest of ``G'`` paired within ``G'``: linear in
``U``, i.e. a *reward* per player left unpaired.  So the computer maximises, over all matchings of
``B``, twice the lower fields of ``P`` plus the rewards of ``U`` (as edge weights: twice the
weight, less both players' rewards).  That is an upper bound of the real weight of every complete
matching extending ``P``; when the matching found reaches it (:meth:`_Computer._completes` finds
the pairing of ``U`` into ``G'``, of the rest of ``G'``, and of what is left with ``L``), it is
optimal for the whole field, and the procedure reads from it exactly what it reads from
bbpPairings' matching: whether a player is paired in the bracket, with whom, how many pairs and
exchanges, quantities the procedure's weights make the same in every optimal matching.  When
no such pairing is found (the check only looks for one, greedily) or the bound's parity could be
off, the computer is rebuilt over the whole open field with the current weights (bbpPairings'
own problem) and stays so for the round; the last bracket and a bracket whose next group could
hold the bye are also paired that way.

A finalized pair keeps only its own edge, so it is left out of every new computer.  Setting an
edge to the weight it already has is skipped (it would only make the computer re-match it).
"""

from __future__ import annotations

from collections.abc import Callable

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

#: ``compatible(position, position)``: C.1 and C.3 allow the pair.
Compatible = Callable[[int, int], bool]


class _Physical:
    """The compiled computer over some of the positions, fed Python ints."""

    def __init__(self, capacity: int, max_weight: int) -> None:
        # bbpPairings' width: the max weight is built by growing a one-part number.
        self.parts = max(1, -(-(max_weight.bit_length() + 2) // 32))
        self.mask = (1 << (32 * self.parts)) - 1
        zero = DynamicUint(1)
        if self.parts > 1:
            zero = zero.shift_grow(32 * (self.parts - 1))
        zero &= 0
        self.zero = zero
        self.cache: dict[int, DynamicUint] = {0: zero}
        self.computer = ComputerDutchOptimality(capacity, self.convert(max_weight))
        self.index: dict[int, int] = {}  # position -> vertex
        self.position: list[int] = []  # vertex -> position
        self.current: dict[tuple[int, int], int] = {}

    def add(self, position: int) -> None:
        self.index[position] = len(self.position)
        self.position.append(position)
        self.computer.add_vertex()

    def convert(self, value: int) -> DynamicUint:
        value &= self.mask
        found = self.cache.get(value)
        if found is None:
            found = DynamicUint(self.zero)
            for shift in range(32 * (self.parts - 1), -32, -32):
                found <<= 32
                found |= (value >> shift) & 0xFFFFFFFF
            if len(self.cache) < 200_000:
                self.cache[value] = found
        return found

    def set(self, u: int, v: int, weight: int) -> None:
        key = (u, v) if u < v else (v, u)
        if self.current.get(key, 0) == weight:
            return
        self.current[key] = weight
        self.computer.set_edge_weight(self.index[u], self.index[v], self.convert(weight))

    def match(self) -> dict[int, int]:
        self.computer.compute_matching()
        position = self.position
        return {position[v]: position[m] for v, m in enumerate(self.computer.get_matching())}


class _Completion:
    """Whether some players, with the lower groups ``L``, can be paired completely: everyone
    paired but, with an odd number, one player who may receive the bye.  A greedy pairing of
    ``L`` once per bracket, then the few extra players fitted in by exchanges of one pair.  It
    proves completability when it says so; ``False`` only means none was found."""

    def __init__(self, lower: list[int], compatible: Compatible, bye_ok: Callable[[int], bool]):
        self.compatible = compatible
        self.bye_ok = bye_ok
        self.pairs, self.waiting = self._greedy(lower)
        self.known: dict[frozenset[int], bool] = {}

    def _greedy(self, players: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
        pairs: list[tuple[int, int]] = []
        waiting: list[int] = []
        compatible = self.compatible
        for x in players:
            for at, y in enumerate(waiting):
                if compatible(x, y):
                    pairs.append((y, x))
                    del waiting[at]
                    break
            else:
                waiting.append(x)
        return pairs, waiting

    def leftover(self) -> list[int] | None:
        """With no extra player: who is left unpaired (at most one, by parity), or ``None``."""
        return list(self.waiting) if len(self.waiting) <= 1 else None

    def check(self, extra: frozenset[int]) -> bool:
        found = self.known.get(extra)
        if found is None:
            found = self.known[extra] = self._check(sorted(extra))
        return found

    def _check(self, extra: list[int]) -> bool:
        new_pairs, waiting = self._greedy(extra + self.waiting)
        pairs = self.pairs + new_pairs
        compatible, bye_ok = self.compatible, self.bye_ok
        for _ in range(len(waiting) + 2):
            if not waiting or (len(waiting) == 1 and bye_ok(waiting[0])):
                return True
            x = next((w for w in waiting if not bye_ok(w)), waiting[0])
            others = [w for w in waiting if w != x]
            done = False
            for at, (a, b) in enumerate(pairs):
                for p, q in ((a, b), (b, a)):
                    if not compatible(x, p):
                        continue
                    # x takes p; q pairs another waiting player, or waits for the bye.
                    partner = next((y for y in others if compatible(q, y)), None)
                    if partner is not None:
                        pairs[at] = (x, p)
                        pairs.append((q, partner))
                        waiting = [w for w in others if w != partner]
                        done = True
                    elif len(waiting) == 1 and bye_ok(q):
                        pairs[at] = (x, p)
                        waiting = [q]
                        done = True
                    if done:
                        break
                if done:
                    break
            if not done:
                return False
        return False


class _Computer:
    """What the procedure sees: ``set``, ``match``, ``finalize`` over positions in the field
    sorted by score, with the whole field's semantics, solved on the open bracket alone when
    that is proven to decide the same (see the module's docstring).  ``flat(i, j)``: the weight
    of an edge the procedure has not set (what every edge got before the first bracket);
    ``relaxed=False`` is bbpPairings' computer over the whole field from the start."""

    def __init__(
        self,
        n: int,
        max_weight: int,
        flat: Callable[[int, int], int] | None,
        compatible: Compatible,
        bye_ok: Callable[[int], bool] | None,
        relaxed: bool,
        fields: tuple[int, int, dict[int, int], list[int]] = (0, 0, {}, []),
    ) -> None:
        self.n = n
        self.max_weight = max_weight
        self.total = max_weight.bit_length() - 2  # the completion field's first bit
        self.low_mask = (1 << self.total) - 1
        self.flat = flat
        self.compatible = compatible
        self.bye_ok = bye_ok
        self.size_bits, self.groups_bits, self.group_shift, self.scores = fields
        self.weights: list[dict[int, int]] = [{} for _ in range(n)]
        self.finalized = [False] * n
        self.partner = list(range(n))
        self.relaxed = relaxed
        self.rebuilds = 0  # how many times the whole open field was loaded (for tests)
        # Relaxed: positions [0, entered) are the bracket B, [entered, lower) the next score
        # group G', [lower, n) the groups below, L.
        self.entered = self.lower = 0
        self.reward = [0] * n  # relaxed: what a B player left unpaired is worth (doubled)
        self.full_reward: dict[int, int] = {}  # ... while it has an edge into G'
        self.dirty: set[int] = set()
        self.version = 0
        self.known: dict[tuple, bool] = {}
        self.completion: _Completion | None = None
        self.physical = _Physical(0 if relaxed else n, max_weight)  # relaxed: one per bracket
        if not relaxed:
            for position in range(n):
                self.physical.add(position)

    # -- what the procedure calls --------------------------------------------------------

    def set(self, u: int, v: int, weight: int) -> None:
        self.weights[u][v] = self.weights[v][u] = weight
        if not self.relaxed:
            self.physical.set(u, v, weight)
        elif u < self.entered and v < self.entered:
            self.physical.set(u, v, self._relaxed_weight(u, v, weight))
        elif u < self.entered <= v < self.lower:
            self.dirty.add(u)
            self.version += 1
        elif v < self.entered <= u < self.lower:
            self.dirty.add(v)
            self.version += 1

    def finalize(self, u: int, v: int, max_weight: int) -> None:
        """bbpPairings' ``finalizePair``: only the u-v edge is left to u and v."""
        self.finalized[u] = self.finalized[v] = True
        self.partner[u], self.partner[v] = v, u
        top = 2 * self.low_mask if self.relaxed else max_weight
        for other in self.physical.position:
            if other != u:
                self.physical.set(u, other, top if other == v else 0)
            if other != v:
                self.physical.set(v, other, top if other == u else 0)

    def enter(self, group_at: int, next_at: int, relaxed_ok: bool) -> None:
        """A bracket starts: positions below ``group_at`` are the bracket, up to ``next_at``
        the next score group.  ``relaxed_ok``: the edges below the bracket have no C.9
        field and the bye, if any, goes below the next score group."""
        if not self.relaxed:
            return
        if group_at >= self.n or not relaxed_ok:
            self._rebuild()
            return
        self.entered, self.lower = group_at, next_at
        # A new computer for each bracket: finalized pairs left out.
        open_ = self._open_bracket()
        self.physical = _Physical(len(open_), 2 * self.low_mask)
        for position in open_:
            self.physical.add(position)
        # The C.8 fields (pairs in the next bracket, their scores) of an edge into G'.
        s, g, at = self.size_bits, self.groups_bits, self.group_shift
        pair_next = 1 << (self.total - 2 * s - g)
        score_base = self.total - 2 * s - 2 * g
        score_of = self.scores
        next_score = 1 << (score_base + at[score_of[group_at]])
        self.full_reward = {}
        for x in self._open_bracket():
            reward = pair_next + (2 << (score_base + at[score_of[x]])) - next_score
            self.full_reward[x] = self.reward[x] = reward
            self.dirty.add(x)
        open_ = self._open_bracket()
        for at_x, x in enumerate(open_):
            row = self.weights[x]
            for y in open_[:at_x]:
                w = row.get(y)
                if w:
                    self.physical.set(x, y, self._relaxed_weight(x, y, w))
        self.completion = _Completion(list(range(next_at, self.n)), self.compatible, self.bye_ok)
        self.known.clear()

    def match(self) -> list[int]:
        if self.relaxed:
            self._update_rewards()
        found = self.physical.match()
        if self.relaxed:
            unpaired = frozenset(p for p, m in found.items() if p == m and not self.finalized[p])
            if not self._check(unpaired):
                self._rebuild()
                found = self.physical.match()
        result = list(self.partner)
        for p, m in found.items():
            result[p] = m
        return result

    # -- the relaxed problem ---------------------------------------------------------------

    def _open_bracket(self) -> list[int]:
        return [p for p in range(self.entered) if not self.finalized[p]]

    def _relaxed_weight(self, u: int, v: int, weight: int) -> int:
        if not weight:
            return 0
        return max(0, 2 * (weight & self.low_mask) - self.reward[u] - self.reward[v])

    def _update_rewards(self) -> None:
        """A B player whose edges into G' were all removed can only float lower: worth 0."""
        for x in self.dirty:
            if self.finalized[x]:
                continue
            row = self.weights[x]
            reward = (
                self.full_reward[x]
                if any(row.get(y) for y in range(self.entered, self.lower))
                else 0
            )
            if reward != self.reward[x]:
                self.reward[x] = reward
                self.version += 1
                for y in self._open_bracket():
                    w = row.get(y)
                    if y != x and w:
                        self.physical.set(x, y, self._relaxed_weight(x, y, w))
        self.dirty.clear()

    def _check(self, unpaired: frozenset[int]) -> bool:
        key = (unpaired, self.version)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._completes(unpaired)
        return found

    def _completes(self, unpaired: frozenset[int]) -> bool:
        """The bound the relaxed computer maximised is reached by a complete pairing: every
        unpaired B player with an edge into G' paired there, the rest of G' paired within G'
        (one left over at most), and that one with the others and L completable."""
        weights = self.weights
        nexts = list(range(self.entered, self.lower))
        floating = sorted(x for x in unpaired if self.reward[x])
        stuck = [x for x in unpaired if not self.reward[x]]
        if len(floating) > len(nexts):
            return False
        odd_rest = (len(nexts) - len(floating)) & 1
        if odd_rest and any(
            not self.reward[x] for x in self._open_bracket()
        ):  # the bound would count half a pair that the parity may deny
            return False
        owner: dict[int, int] = {}

        def assign(x: int, seen: set[int]) -> bool:
            row = weights[x]
            for y in nexts:
                if y in seen or not row.get(y):
                    continue
                seen.add(y)
                if y not in owner or assign(owner[y], seen):
                    owner[y] = x
                    return True
            return False

        for x in floating:
            if not assign(x, set()):
                return False
        rest = [y for y in nexts if y not in owner]
        inner = _Completion(rest, lambda a, b: bool(weights[a].get(b)), lambda p: True)
        left = inner.leftover()
        if left is None or len(left) != odd_rest:
            return False
        return self.completion.check(frozenset(stuck + left))

    # -- the whole open field ------------------------------------------------------------

    def _rebuild(self) -> None:
        """bbpPairings' computer, over every position not yet finalized, current weights."""
        self.relaxed = False
        self.completion = None
        self.rebuilds += 1
        open_ = [p for p in range(self.n) if not self.finalized[p]]
        physical = _Physical(len(open_), self.max_weight)
        for p in open_:
            physical.add(p)
        flat, weights = self.flat, self.weights
        for at, p in enumerate(open_):
            row = weights[p]
            for q in open_[:at]:
                w = row.get(q)
                physical.set(p, q, flat(q, p) if w is None else w)
        self.physical = physical
