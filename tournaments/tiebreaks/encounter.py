"""Direct encounter (C.07 6): the tied players' results against each other (pure Python,
no Django). For an individual event the extended direct encounter (EDE) is the same
criterion: its secondary score is the primary one."""

from __future__ import annotations

from collections import defaultdict

from tournaments.tiebreaks.table import Table


def direct_encounter(table: Table, group: list[int]) -> tuple[dict[int, int], dict[int, float]]:
    """C.07 6: ranks (1 = best) inside a group tied on every earlier criterion, and each
    player's points against the rest of the group.

    Only games played over the board count (in a round-robin every scheduled game, forfeits
    included).  If every member has met every other member (always
    so in a round-robin) the points decide; otherwise a player is placed above the rest only if
    their points exceed what any of the others could have reached by also winning their missing
    encounters.  Players still level are compared again among themselves, until nothing changes.
    """
    win = table.scoring.win
    ranks: dict[int, int] = {}
    display: dict[int, float] = {}

    def scores(members: list[int]) -> tuple[dict[int, float], dict[int, float]]:
        inside = set(members)
        value, maximum = {}, {}
        for n in members:
            per_opponent: dict[int, list[float]] = defaultdict(list)
            for game, points in zip(table.games[n], table.round_points[n], strict=True):
                if game.opponent in inside and table.counts_as_game(game):
                    per_opponent[game.opponent].append(points)  # type: ignore[index]
            value[n] = sum(sum(v) / len(v) for v in per_opponent.values())
            missing = len(members) - 1 - len(per_opponent)
            maximum[n] = value[n] + (0 if table.rr else missing * win)
        return value, maximum

    def resolve(members: list[int], base: int, first_pass: bool) -> None:
        if len(members) == 1:
            ranks[members[0]] = base
            return
        value, maximum = scores(members)
        if first_pass:
            display.update(value)
        everyone_met = all(maximum[n] == value[n] for n in members)
        ordered = sorted(members, key=lambda n: (-value[n], -maximum[n], n))
        subgroups: list[list[int]] = [[ordered[0]]]
        separated = True
        for index in range(1, len(ordered)):
            previous, current = ordered[index - 1], ordered[index]
            if everyone_met:
                split = value[previous] != value[current]
            else:
                split = separated and value[previous] > max(maximum[n] for n in ordered[index:])
                separated = split
            if split:
                subgroups.append([current])
            else:
                subgroups[-1].append(current)
        if len(subgroups) == 1:
            for n in members:
                ranks[n] = base
            return
        offset = base
        for subgroup in subgroups:
            resolve(subgroup, offset, False)
            offset += len(subgroup)

    resolve(sorted(group), 1, True)
    return ranks, display
