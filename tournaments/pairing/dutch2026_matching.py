"""The FIDE (Dutch) System 2026, part 2: the weighted-matching procedure, bracket by bracket
(see :mod:`tournaments.pairing.dutch2026`)."""

from __future__ import annotations

from collections.abc import Callable

from core.messages import gettext_noop
from tournaments.pairing.dutch2026_computer import _Completion, _Computer
from tournaments.pairing.dutch2026_criteria import (
    _bits,
    _compatible,
    _edge_weight,
    _eligible_for_bye,
    _Field,
    _Layout,
    _Player,
)
from tournaments.pairing.model import PairingError

#: ``progress(players placed, players to place)``, called as the brackets are fixed.
Progress = Callable[[int, int], None]


def _no_pairing(round_number: int, count: int) -> PairingError:
    return PairingError(
        gettext_noop(
            "round %(round)s cannot be paired: no pairing of the %(count)s available players "
            "avoids every rematch, a second pairing-allocated bye, an illegal colour sequence "
            "and the forbidden pairs"
        ),
        round=round_number,
        count=count,
    )


def _compute(
    tf: _Field,
    ordered: list[_Player],
    round_number: int,
    progress: Progress | None = None,
    relaxed: bool = True,
) -> dict[int, _Player | None]:
    """bbpPairings' ``computeMatching``: the partner of every player (``None``: the bye).
    ``progress(placed, total)`` is called after each bracket.  ``relaxed``: solve only the
    open brackets when that is proven to decide the same (:mod:`dutch2026_computer`);
    ``False`` is bbpPairings' whole-field computation throughout."""
    n = len(ordered)
    odd = n & 1
    if relaxed:
        folded = _first_round(tf, ordered)
        if folded is not None:
            if progress is not None:
                progress(n, n)
            return folded
    # Field positions of each score group, lowest score first.
    group_shift: dict[int, int] = {}
    groups_shift = 0
    largest = 0
    run = 0
    for position in range(n - 1, -1, -1):
        run += 1
        score = ordered[position].score
        if position == 0 or score < ordered[position - 1].score:
            group_shift[score] = groups_shift
            largest = max(largest, run)
            groups_shift += _bits(run)
            run = 0
    lay = _Layout(size_bits=_bits(largest), groups_shift=groups_shift, group_shift=group_shift)
    total = sum(lay.shifts(tf.played_rounds))
    # The largest weight: 2 shifted by every field, two bits of margin, all ones below.
    max_weight = (1 << (total + 2)) - 1
    s, g = lay.size_bits, lay.groups_shift
    top = ordered[0].score

    def base(higher: _Player, lower: _Player, in_bracket: bool, in_next: bool) -> int:
        return _edge_weight(
            higher, lower, in_bracket, in_next, tf, lay, lay.bye_score,
            lay.single_downfloater_is_bye,
        )  # fmt: skip

    # Completability (C.4), and with an odd number the lowest possible bye score (C.5).
    eligible = [_eligible_for_bye(p, tf) for p in ordered]
    compatible = lambda a, b: _compatible(ordered[a], ordered[b], tf)  # noqa: E731
    bye_score = _greedy_start(ordered, eligible, compatible) if relaxed else None
    if bye_score is not None:
        # Proven completable, with the bye (if any) below the top score group: no need of
        # bbpPairings' whole-field matching to find it.
        if odd:
            lay.bye_score = bye_score
            _rank_unplayed(lay, ordered)
        memo_flat: dict[tuple, int] = {}

        def flat(i: int, j: int) -> int:
            higher, lower = ordered[i], ordered[j]
            if not _compatible(higher, lower, tf):
                return 0
            key = (higher.key, lower.key)
            found = memo_flat.get(key)
            if found is None:
                found = memo_flat[key] = base(higher, lower, False, False)
            return found

        def bye_ok(position: int) -> bool:
            return eligible[position] and ordered[position].score <= lay.bye_score

        fields = (s, g, group_shift, [p.score for p in ordered])
        computer = _Computer(n, max_weight, flat, compatible, bye_ok, True, fields)
        return _brackets(tf, ordered, lay, computer, max_weight, base, progress)

    computer = _Computer(n, max_weight, None, compatible, None, relaxed=False)
    candidate = [e and p.score <= 0 for e, p in zip(eligible, ordered, strict=True)]
    memo: dict[tuple, int] = {}
    for i in range(n):
        player = ordered[i]
        for j in range(i):
            opponent = ordered[j]
            if odd:
                if _compatible(player, opponent, tf):
                    w = 1 + (not eligible[i]) + (not eligible[j])
                    w <<= g
                    w |= group_shift[player.score] + group_shift[opponent.score]
                    w <<= s
                    w |= player.score >= top
                else:
                    w = 0
            else:
                key = (_compatible(player, opponent, tf), candidate[i], candidate[j])
                w = memo.get(key)
                if w is None:
                    w = memo[key] = base(opponent, player, False, False)
            computer.set(i, j, w)

    matching = computer.match()
    if not _complete(matching, eligible):
        raise _no_pairing(round_number, n)
    if odd:
        bye_at = next(i for i in range(n) if matching[i] == i)
        lay.bye_score = ordered[bye_at].score
        if lay.bye_score >= top:
            lay.single_downfloater_is_bye = True
            for i in range(n):
                if ordered[i].score < top:
                    break
                if ordered[matching[i]].score < top:
                    lay.single_downfloater_is_bye = False
                    break
        _rank_unplayed(lay, ordered)
        memo.clear()
        for i in range(n):
            player = ordered[i]
            for j in range(i):
                opponent = ordered[j]
                computer.set(i, j, base(opponent, player, False, False))

    return _brackets(tf, ordered, lay, computer, max_weight, base, progress)


def _first_round(tf: _Field, ordered: list[_Player]) -> dict[int, _Player | None] | None:
    """The first round, with no forbidden pair among the players: the whole field is one
    homogeneous bracket with no colour preference, no float and no one barred from the bye, so
    every quality criterion holds for the procedure's first candidate (3.2-3.3: S1 the upper
    half, S2 the lower, S1[i] against S2[i]; with an odd number the last-ranked player is the
    one left over and receives the PAB, C.5's lowest score being everyone's).  The weighted
    matching of the whole field finds the same pairing at a cost that grows with the square of
    the field (tested against it in ``tests/tournaments/test_dutch2026_open.py``).  ``None``
    when the round is not such a round."""
    if tf.played_rounds != 0 or any(tf.forbidden[p.index] for p in ordered):
        return None
    if any(p.score != ordered[0].score or p.matches for p in ordered):
        return None
    half = len(ordered) // 2
    matching: dict[int, _Player | None] = {}
    for upper, lower in zip(ordered[:half], ordered[half : 2 * half], strict=True):
        matching[upper.index] = lower
        matching[lower.index] = upper
    if len(ordered) & 1:
        matching[ordered[-1].index] = None
    return matching


def _rank_unplayed(lay: _Layout, ordered: list[_Player]) -> None:
    """C.9: among the players at the bye's score, the rank of each number of games played (0
    for the most games: the player the bye should go to weighs least when paired)."""
    counts = sorted((p.played_games for p in ordered if p.score == lay.bye_score), reverse=True)
    for rank, games in enumerate(counts):
        lay.unplayed_rank[games] = rank


def _greedy_start(ordered: list[_Player], eligible: list[bool], compatible) -> int | None:
    """The bye's score (0 with an even number) when a complete pairing is found directly:
    everyone paired, or with an odd number everyone but one player allowed the bye at the
    lowest score any such player has, below the top score group.  ``None`` when none was
    found (bbpPairings' whole-field matching then decides, or finds the round impossible)."""
    n = len(ordered)
    everyone = list(range(n))
    if not n & 1:
        return 0 if _Completion(everyone, compatible, lambda p: False).check(frozenset()) else None
    lowest = min((p.score for p, e in zip(ordered, eligible, strict=True) if e), default=None)
    if lowest is None or lowest >= ordered[0].score:
        return None
    tried = 0
    for position in range(n - 1, -1, -1):
        if not eligible[position] or ordered[position].score != lowest:
            continue
        rest = everyone[:position] + everyone[position + 1 :]
        if _Completion(rest, compatible, lambda p: False).check(frozenset()):
            return lowest
        tried += 1
        if tried == 3:
            break
    return None


def _complete(matching: list[int], eligible: list[bool]) -> bool:
    """All players matched but at most one, who may receive the bye."""
    unmatched = False
    for vertex, partner in enumerate(matching):
        if partner == vertex:
            if unmatched or not eligible[vertex]:
                return False
            unmatched = True
    return True


def _brackets(
    tf, ordered, lay, computer, max_weight, base, progress=None
) -> dict[int, _Player | None]:
    """Fix the pairing bracket by bracket, top down (bbpPairings' main loop)."""
    n = len(ordered)
    odd = n & 1
    for player in ordered:
        player.key = (
            player.score, player.imbalance, player.preference, player.repeated, player.strong,
            player.played_games, _eligible_for_bye(player, tf), player.floats,
        )  # fmt: skip
    memo: dict[tuple, int] = {}

    def weight(higher: _Player, lower: _Player, in_bracket: bool, in_next: bool) -> int:
        if not _compatible(higher, lower, tf):
            return 0
        key = (higher.key, lower.key, in_bracket, in_next, lay.single_downfloater_is_bye)
        found = memo.get(key)
        if found is None:
            found = memo[key] = base(higher, lower, in_bracket, in_next)
        return found

    partner_of: dict[int, _Player | None] = {}
    group: list[_Player] = []  # the bracket's players, then the next score group's
    vertex: list[int] = []
    next_at = 0
    while next_at < n and ordered[next_at].score >= ordered[0].score:
        group.append(ordered[next_at])
        vertex.append(len(vertex))
        next_at += 1
    matched = [False] * n
    mdp_count = 0  # moved-down players at the start of ``group``
    begin_vertex = 0  # the first vertex of the bracket's own score group

    while len(group) > 1 or next_at < n:
        next_begin = len(group)
        next_vertex = begin_vertex + (next_begin - mdp_count)
        group_at = next_at
        while next_at < n and ordered[next_at].score >= ordered[group_at].score:
            group.append(ordered[next_at])
            vertex.append(next_at)  # vertices are positions in ``ordered``
            next_at += 1

        computer.enter(
            group_at,
            next_at,
            not lay.single_downfloater_is_bye
            and (not odd or (group_at < n and lay.bye_score < ordered[group_at].score)),
        )
        base_w: list[list[int]] = [[] for _ in group]
        for larger in range(mdp_count, len(group)):
            lower = group[larger]
            in_bracket = larger < next_begin
            base_w[larger] = [
                weight(group[smaller], lower, in_bracket, not in_bracket)
                for smaller in range(larger)
            ]
        for larger, row in enumerate(base_w):
            other = vertex[larger]
            for smaller, w in enumerate(row):
                computer.set(other, vertex[smaller], w)

        bits = 2 * lay.size_bits

        def exchange_weight(smaller: int, larger: int, index: int, pairs: int, w=base_w, b=bits):
            result = w[larger][smaller]
            if result:  # fewest exchanges, then the smallest exchanged sequence numbers
                result += (((index < pairs) << b) - index) << 1
            return result

        stable = computer.match()

        # 2.3: which moved-down players are paired in this bracket.
        md_score = None
        left = left_matched = 0
        for pi in range(mdp_count):
            if pi == 0 or group[pi].score < md_score:
                md_score = group[pi].score
                left = left_matched = 0
                mi = pi
                while mi < len(group) and group[mi].score >= md_score:
                    left += 1
                    if begin_vertex <= stable[vertex[mi]] < next_vertex:
                        left_matched += 1
                    mi += 1
            if not left_matched:
                continue
            pv = vertex[pi]
            if left <= left_matched:
                matched[pv] = True
                continue
            left -= 1
            if not begin_vertex <= stable[pv] < next_vertex:
                for oi in range(mdp_count, next_begin):
                    w = base_w[oi][pi]
                    if w:
                        computer.set(pv, vertex[oi], w | 1)
                stable = computer.match()
            if begin_vertex <= stable[pv] < next_vertex:
                matched[pv] = True
                left_matched -= 1
                for oi in range(mdp_count, next_begin):
                    w = base_w[oi][pi]
                    if w:
                        computer.set(pv, vertex[oi], (w | (next_begin - mdp_count)) + 1)

        # Their opponents: the highest resident possible.
        for pi in range(mdp_count):
            pv = vertex[pi]
            if not matched[pv]:
                continue
            addend = len(group)
            for oi in range(next_begin - 1, mdp_count - 1, -1):
                ov = vertex[oi]
                if matched[ov]:
                    continue
                w = base_w[oi][pi]
                if w:
                    computer.set(pv, ov, w + addend)
                    addend += 1
            stable = computer.match()
            mv = stable[pv]
            matched[mv] = True
            computer.finalize(pv, mv, max_weight)

        # The remainder: residents not paired with a moved-down player.
        remainder = []
        pairs = 0
        for pi in range(mdp_count, next_begin):
            pv = vertex[pi]
            if stable[pv] < begin_vertex:
                continue
            remainder.append(pi)
            if stable[pv] < pv:
                pairs += 1
        first_end = pairs  # S1 is remainder[:first_end]

        # 4.3/4.4: the fewest exchanges, the smallest differences of exchanged numbers.
        for oi in remainder:
            ov = vertex[oi]
            for index, pi in enumerate(remainder):
                if oi <= pi:
                    break
                computer.set(vertex[pi], ov, exchange_weight(pi, oi, index, pairs))
        stable = computer.match()

        exchanges = 0
        for pi in remainder:
            if first_end >= len(remainder) or pi >= remainder[first_end]:
                break
            pv = vertex[pi]
            exchanges += stable[pv] <= pv or stable[pv] >= next_vertex

        # Exchange the lowest S1 players possible.
        todo = exchanges
        index = pairs
        at = first_end
        while at != 0 and todo:
            opp = at
            index -= 1
            at -= 1
            pi = remainder[at]
            pv = vertex[pi]
            if pv < stable[pv] < next_vertex:
                while opp != len(remainder):
                    w = exchange_weight(pi, remainder[opp], index, pairs)
                    if w:
                        computer.set(pv, vertex[remainder[opp]], w - 1)
                    opp += 1
                stable = computer.match()
            exchange = stable[pv] <= pv or stable[pv] >= next_vertex
            todo -= exchange
            for opp in range(at + 1, len(remainder)):
                if exchange:
                    base_w[remainder[opp]][pi] = 0
                computer.set(
                    pv, vertex[remainder[opp]], exchange_weight(pi, remainder[opp], index, pairs)
                )

        # ... against the highest S2 players possible.
        todo = exchanges
        index = pairs
        for at in range(first_end, len(remainder)):
            if todo <= 1:
                break
            pi = remainder[at]
            pv = vertex[pi]
            already = pv < stable[pv] < next_vertex
            if not already:
                for opp in range(at + 1, len(remainder)):
                    w = exchange_weight(pi, remainder[opp], index, pairs)
                    if w:
                        computer.set(pv, vertex[remainder[opp]], w + 1)
                stable = computer.match()
            if pv < stable[pv] < next_vertex:
                todo -= 1
                for opp in range(at):
                    base_w[pi][remainder[opp]] = 0
                    computer.set(pv, vertex[remainder[opp]], 0)
                for oi in range(next_begin, len(group)):
                    base_w[oi][pi] = 0
                    computer.set(pv, vertex[oi], 0)
            if not already:
                for opp in range(at + 1, len(remainder)):
                    computer.set(
                        pv,
                        vertex[remainder[opp]],
                        exchange_weight(pi, remainder[opp], index, pairs),
                    )
            index += 1

        # Fix the exchanges and clear the bits used to find them.
        for at, pi in enumerate(remainder):
            pv = vertex[pi]
            for oi in remainder[at + 1 :]:
                ov = vertex[oi]
                if stable[pv] <= pv or stable[pv] >= next_vertex or (ov < stable[ov] < next_vertex):
                    base_w[oi][pi] = 0
                computer.set(pv, ov, base_w[oi][pi])

        # 4.2: each S1 player's opponent, the highest possible.
        for pi in remainder:
            pv = vertex[pi]
            if not pv < stable[pv] < next_vertex:
                continue
            addend = 0
            for oi in reversed(remainder):
                ov = vertex[oi]
                if oi <= pi or matched[ov]:
                    continue
                w = base_w[oi][pi]
                if w:
                    computer.set(pv, ov, w + addend)
                addend += 1
            stable = computer.match()
            mv = stable[pv]
            matched[pv] = matched[mv] = True
            computer.finalize(pv, mv, max_weight)

        # The next bracket: the players left over, then the next score group.
        new_group: list[_Player] = []
        new_vertex: list[int] = []
        mdp_count = 0
        single = bool(odd and group_at != n and lay.bye_score >= ordered[group_at].score)
        for pi, player in enumerate(group):
            pv = vertex[pi]
            if pi < next_begin and matched[pv]:
                partner = ordered[stable[pv]]
                partner_of[player.index] = partner
                partner_of[partner.index] = player
            else:
                new_group.append(player)
                new_vertex.append(pv)
                if pi < next_begin:
                    mdp_count += 1
                if single and ordered[stable[pv]].score < ordered[group_at].score:
                    single = False
        lay.single_downfloater_is_bye = single
        group, vertex = new_group, new_vertex
        begin_vertex = next_vertex
        if progress is not None:
            progress(len(partner_of), n)

    if progress is not None:
        progress(n, n)  # everyone placed, the bye included
    return {p.index: partner_of.get(p.index) for p in ordered}
