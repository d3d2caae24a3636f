"""The FIDE Swiss Team Pairing System (C.04.6, approved by the FIDE Council on 28/10/2025,
applied from 1 February 2026), pure Python, no Django.

Teams are paired as players are in a Swiss (C.04.1 and C.04.2 arts. 1, 2.4, 2.5, 3 and 4 apply
*mutatis mutandis*), except that C.04.1 arts. 6 and 7 never apply and no colour preference is
absolute (Preface): a colour never keeps two teams apart. The articles, as this module reads them:

- **1.1** each team holds a TPN (its place in the event's order, kept for the whole event);
  **1.2** the primary score (match points by default, or game points) forms the scoregroups,
  the other (secondary) score may serve the colour allocation (4.2.2); **1.4** the
  pairing-allocated bye (PAB) is worth a draw's match points and game points; **1.5** a
  *floater* is a team that played an opponent with a different score; **1.6** a team *had* a
  colour in a match actually played, the colour of its board-1 player, and its colour
  difference is the matches it had White less those it had Black; **1.7** colour preferences:
  Type A (the default: a preference for White when the difference is below -1, or is 0 or -1
  after Black in the last two played matches; symmetrically for Black), Type B (those are
  *strong*; *mild* for White at -1, or at 0 after Black in the last played match unless the
  last round is paired; symmetrically), or none at all.
- **2** absolute criteria [C1] no rematch (a match forfeited as a whole is no meeting, C.04.2
  3.5), [C2] no PAB to a team that had one or won a match by forfeit; completion [C3] the teams
  not yet paired can still all be paired; quality, in descending priority: [C4] fewest
  upfloaters, [C5] their scores as high as possible (ascending order), [C6] the next scoregroup
  still pairable with the fewest upfloaters unless it was emptied, [C7] fewest upfloaters that
  floated in the previous round, [C8] fewest teams denied their colour preference, [C9] (Type B)
  fewest denied a strong one, [C10] fewest upfloaters' opponents that floated in the previous
  round ([C7] and [C10] not in the last two rounds).
- **3** the PAB first (3.4: a team that leaves the rest pairable, with the lowest score, then
  the most matches played, then the largest TPN); then, while teams are left, the
  *top-scoregroup* with a set of upfloaters (3.5: the sets that comply with [C4] and [C5], each
  sorted by descending score then ascending TPN, the sets in the lexicographic order of their
  TPNs, the first that gives a legal pairing and complies best with [C6] then [C7]) is a bracket,
  paired by 3.6: of its pairings (each pair's smaller TPN its *top member*), ordered by their
  identifier (the top members ascending, then their bottom members), the first that complies
  best with [C1], [C8], [C9], [C10]. The first pairing complying best is found as a minimum-cost
  perfect matching whose costs order the criteria first and the identifier after them.
- **4** colours: the *first-team* of a pair has the higher primary score, else the higher
  secondary score (unless the event does not use it), else the smaller TPN; then, the first rule
  that decides: 4.3.1 neither has played: an odd-TPN first-team gets the initial colour (drawn
  by lot before round 1), an even one the other; 4.3.2 only one preference: granted; 4.3.3
  opposite preferences: granted; 4.3.4 (Type B) only one strong: granted; 4.3.5 White to the
  lower colour difference; 4.3.6 alternate from the last round in which one had White and the
  other Black; 4.3.7 the first-team's preference; 4.3.8 alternate the first-team's last
  colour; 4.3.9 alternate the other's last colour.

FIDE's White is Abalone's first mover, Black here (:data:`BLACK`): the *first* team of a pairing
has Black on board 1 (:func:`tournaments.pairing.teams.board_colours`). The matches are put on
tables by the higher score, then the sum of scores, then the smaller TPN, the PAB last, as
FIDE's checker (gacrux, which Swiss-Manager pairs with) orders them; ``tests/tournaments/
test_team_swiss_checker.py`` compares whole events with it round by round.

The teams as a round's pairing reads them (arts. 1.2 to 1.7: :class:`SwissTeam`, the colour
preferences, the past rounds' matches and standings) are in
:mod:`tournaments.pairing.team_swiss_state`; this module pairs them and re-exports those names.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from core.messages import gettext_noop
from tournaments.pairing.dutch2026_computer import _Physical
from tournaments.pairing.model import BLACK, WHITE, PairingError
from tournaments.pairing.team_swiss_state import (
    _OTHER,
    COLOUR_MODELS,
    NO_PREFERENCES,
    TYPE_A,
    TYPE_B,
    SwissTeam,
    TeamMatchRecord,
    TeamStanding,
    colour_difference,
    colour_preference,
    swiss_teams,
    team_standings,
)

#: The engine's interface: the teams as read before a round (from team_swiss_state), and
#: their pairing.
__all__ = [
    "COLOUR_MODELS",
    "NO_PREFERENCES",
    "TYPE_A",
    "TYPE_B",
    "SwissTeam",
    "TeamMatchRecord",
    "TeamPair",
    "TeamRound",
    "TeamStanding",
    "TeamSwissRules",
    "colour_difference",
    "colour_preference",
    "pair_team_round",
    "swiss_teams",
    "team_standings",
]


@dataclass(frozen=True, slots=True)
class TeamSwissRules:
    """An event's choices: ``rounds`` scheduled, art. 1.7's colour model, whether the secondary
    score decides the first-team (4.2.2), the initial colour of 4.1 (the colour an odd-TPN
    first-team gets in a pair of teams yet to play)."""

    rounds: int
    colour_model: str = TYPE_A
    secondary_for_colours: bool = True
    initial_colour: str = BLACK

    def __post_init__(self) -> None:
        if self.colour_model not in COLOUR_MODELS:
            raise PairingError(
                gettext_noop("unknown colour preference model %(model)r"),
                model=self.colour_model,
            )
        if self.initial_colour not in _OTHER:
            raise PairingError(
                gettext_noop("the initial colour is Black or White, not %(colour)r"),
                colour=self.initial_colour,
            )


@dataclass(frozen=True, slots=True)
class TeamPair:
    """A match of the round: ``first`` has Black (FIDE's White) on board 1; ``rule`` is the
    article of 4.3 that decided it."""

    first: int
    second: int
    rule: str


@dataclass(frozen=True, slots=True)
class TeamRound:
    """A round's pairing: the matches in table order, and the team given the PAB (or None)."""

    pairs: tuple[TeamPair, ...]
    bye: int | None = None
    brackets: tuple[tuple[int, ...], ...] = field(default=(), compare=False)


def pair_team_round(
    teams: Sequence[SwissTeam], round_number: int, rules: TeamSwissRules
) -> TeamRound:
    """The pairing of round ``round_number`` of the teams present, by C.04.6 arts. 3 and 4.

    Raises :class:`PairingError` when no legal pairing exists (art. 3.3.3: the Chief Arbiter
    decides)."""
    _check(teams, round_number, rules)
    return _Round(teams, round_number, rules).pair()


def _check(teams: Sequence[SwissTeam], round_number: int, rules: TeamSwissRules) -> None:
    if round_number < 1 or round_number > rules.rounds:
        raise PairingError(
            gettext_noop("round %(round)s is not one of the event's %(rounds)s rounds"),
            round=round_number,
            rounds=rules.rounds,
        )
    tpns = [team.tpn for team in teams]
    if len(set(tpns)) != len(tpns) or any(tpn < 1 for tpn in tpns):
        raise PairingError(gettext_noop("each team needs its own TPN, from 1 up"))


class _Round:
    def __init__(self, teams: Sequence[SwissTeam], round_number: int, rules: TeamSwissRules):
        self.rules = rules
        self.teams = {team.tpn: team for team in teams}
        self.last_round = round_number == rules.rounds
        self.last_two = round_number >= rules.rounds - 1
        self.preference = {
            team.tpn: colour_preference(team.colours, rules.colour_model, self.last_round)
            for team in teams
        }

    # --- [C1] and [C3]

    def can_meet(self, a: int, b: int) -> bool:
        return b not in self.teams[a].met

    def pairable(self, tpns: Sequence[int]) -> bool:
        """[C3]: the teams ``tpns`` can all be paired without a rematch."""
        if len(tpns) % 2:
            return False
        if not tpns:
            return True
        matching = _matching(tpns, lambda a, b: 0 if self.can_meet(a, b) else None)
        return matching is not None

    # --- art. 3.3

    def pair(self) -> TeamRound:
        left = sorted(self.teams)
        bye = None
        if len(left) % 2:
            bye = self.bye(left)
            left.remove(bye)
        elif not self.pairable(left):
            raise self.impossible()
        pairs: list[tuple[int, int]] = []
        brackets = []
        while left:
            top = max(self.teams[tpn].primary for tpn in left)
            residents = [tpn for tpn in left if self.teams[tpn].primary == top]
            bracket, bracket_pairs = self.bracket(top, residents, left)
            brackets.append(tuple(sorted(bracket)))
            pairs.extend(bracket_pairs)
            left = [tpn for tpn in left if tpn not in bracket]
        ordered = sorted(pairs, key=self.table_order)
        return TeamRound(tuple(self.colours(a, b) for a, b in ordered), bye, tuple(brackets))

    def impossible(self) -> PairingError:
        return PairingError(
            gettext_noop(
                "no pairing of the %(count)s teams avoids every rematch and a second "
                "pairing-allocated bye; the chief arbiter decides (C.04.6 art. 3.3.3)"
            ),
            count=len(self.teams),
        )

    def bye(self, left: list[int]) -> int:
        """Art. 3.4: the PAB."""
        candidates = sorted(
            (tpn for tpn in left if not self.teams[tpn].bye_barred),
            key=lambda tpn: (self.teams[tpn].primary, -self.teams[tpn].matches, -tpn),
        )
        for tpn in candidates:
            if self.pairable([other for other in left if other != tpn]):
                return tpn
        raise self.impossible()

    def table_order(self, pair: tuple[int, int]) -> tuple:
        scores = [self.teams[tpn].primary for tpn in pair]
        return (-max(scores), -sum(scores), min(pair))

    # --- art. 3.5

    def bracket(
        self, top: float, residents: list[int], left: list[int]
    ) -> tuple[list[int], list[tuple[int, int]]]:
        lower = [tpn for tpn in left if self.teams[tpn].primary < top]
        for count in range(len(residents) % 2, len(lower) + 1, 2):  # [C4]
            for profile in self.profiles(lower, count):  # [C5]
                best = None
                for index, upfloaters in enumerate(self.sets(lower, profile)):  # 3.5.4
                    members = residents + upfloaters
                    pairs = self.bracket_pairing(top, members)
                    if pairs is None:
                        continue
                    rest = [tpn for tpn in left if tpn not in members]
                    if not self.pairable(rest):  # [C3]
                        continue
                    key = (0 if self.c6(top, rest) else 1, self.c7(upfloaters), index)
                    if best is None or key < best[0]:
                        best = (key, members, pairs)
                    if key[:2] == (0, 0):
                        break  # 3.5.5: the first set that complies
                if best is not None:
                    return best[1], best[2]
        raise self.impossible()

    def profiles(self, lower: list[int], count: int) -> list[tuple[float, ...]]:
        """[C5]: the scores a set of ``count`` upfloaters can have, best first (their scores in
        ascending order, as high as possible)."""
        available: dict[float, int] = {}
        for tpn in lower:
            score = self.teams[tpn].primary
            available[score] = available.get(score, 0) + 1
        found = [
            profile
            for profile in combinations_with_replacement(sorted(available, reverse=True), count)
            if all(profile.count(score) <= available[score] for score in set(profile))
        ]
        return sorted(found, key=sorted, reverse=True)

    def sets(self, lower: list[int], profile: tuple[float, ...]) -> Iterator[list[int]]:
        """3.5.3-3.5.4: every set of upfloaters with these scores, each by descending score then
        ascending TPN, the sets in the lexicographic order of those TPNs."""
        scores = sorted(set(profile), reverse=True)
        by_score = [sorted(tpn for tpn in lower if self.teams[tpn].primary == s) for s in scores]
        counts = [profile.count(score) for score in scores]

        def from_level(level: int) -> Iterator[list[int]]:
            if level == len(scores):
                yield []
                return
            for chosen in combinations(by_score[level], counts[level]):
                for rest in from_level(level + 1):
                    yield list(chosen) + rest

        return from_level(0)

    def c6(self, top: float, rest: list[int]) -> bool:
        """[C6]: the scoregroup following this one (the round's next lower score), unless it
        is now empty (all its teams upfloated, or had the PAB), can still be paired in its
        bracket with the fewest upfloaters its size allows ([C1], [C3], [C4])."""
        below = [team.primary for team in self.teams.values() if team.primary < top]
        if not below:
            return True
        following = max(below)
        group = [tpn for tpn in rest if self.teams[tpn].primary == following]
        if not group:
            return True
        lower = [tpn for tpn in rest if self.teams[tpn].primary < following]
        for upfloaters in [[]] if len(group) % 2 == 0 else [[tpn] for tpn in lower]:
            members = group + upfloaters
            if self.pairable(members) and self.pairable(
                [tpn for tpn in rest if tpn not in members]
            ):
                return True
        return False

    def c7(self, upfloaters: list[int]) -> int:
        if self.last_two:
            return 0
        return sum(1 for tpn in upfloaters if self.teams[tpn].floated)

    # --- art. 3.6

    def bracket_pairing(self, top: float, members: list[int]) -> list[tuple[int, int]] | None:
        """The first pairing of the bracket, in the order of the identifiers (3.6.2), among
        those complying best with [C8], [C9], [C10]; None when [C1] leaves none."""
        order = sorted(members)
        place = {tpn: number for number, tpn in enumerate(order, start=1)}
        size = len(order)
        base = size + 1
        w_top = base**size
        w_c10 = w_top * 2**size
        w_c9 = w_c10 * base
        w_c8 = w_c9 * base

        def cost(a: int, b: int) -> int | None:
            if not self.can_meet(a, b):
                return None
            upper, lower = (a, b) if place[a] < place[b] else (b, a)
            c8, c9 = self.colour_clash(a, b)
            return (
                c8 * w_c8
                + c9 * w_c9
                + self.c10(top, a, b) * w_c10
                + w_top * 2 ** (size - place[lower])
                + place[lower] * base ** (size - place[upper])
            )

        return _matching(order, cost)

    def colour_clash(self, a: int, b: int) -> tuple[int, int]:
        """[C8] and [C9] of a pair: both prefer the same colour (one is denied), and (Type B)
        both preferences are strong."""
        (colour_a, strong_a), (colour_b, strong_b) = self.preference[a], self.preference[b]
        if not colour_a or colour_a != colour_b:
            return (0, 0)
        return (1, int(self.rules.colour_model == TYPE_B and strong_a and strong_b))

    def c10(self, top: float, a: int, b: int) -> int:
        """[C10]: the upfloaters' opponents in this pair that floated in the previous round."""
        if self.last_two:
            return 0
        return sum(
            1
            for team, opponent in ((a, b), (b, a))
            if self.teams[team].primary < top and self.teams[opponent].floated
        )

    # --- art. 4

    def colours(self, a: int, b: int) -> TeamPair:
        first, second = (a, b) if self.first_team(a, b) else (b, a)
        colour, rule = self.first_teams_colour(self.teams[first], self.teams[second])
        return TeamPair(first, second, rule) if colour == BLACK else TeamPair(second, first, rule)

    def first_team(self, a: int, b: int) -> bool:
        """Art. 4.2: whether ``a`` is the first-team of its pair with ``b``."""
        team_a, team_b = self.teams[a], self.teams[b]
        if team_a.primary != team_b.primary:
            return team_a.primary > team_b.primary
        if self.rules.secondary_for_colours and team_a.secondary != team_b.secondary:
            return team_a.secondary > team_b.secondary
        return a < b

    def first_teams_colour(self, first: SwissTeam, second: SwissTeam) -> tuple[str, str]:
        """Art. 4.3: the first-team's colour (:data:`BLACK`: FIDE's White) and the rule."""
        if not first.colours and not second.colours:
            initial = self.rules.initial_colour
            return (initial if first.tpn % 2 else _OTHER[initial], "4.3.1")
        (want_first, strong_first) = self.preference[first.tpn]
        (want_second, strong_second) = self.preference[second.tpn]
        if want_first and not want_second:
            return (want_first, "4.3.2")
        if want_second and not want_first:
            return (_OTHER[want_second], "4.3.2")
        if want_first and want_second != want_first:
            return (want_first, "4.3.3")
        if self.rules.colour_model == TYPE_B and want_first and strong_first != strong_second:
            return (want_first if strong_first else _OTHER[want_second], "4.3.4")
        first_difference = colour_difference(first.colours)
        second_difference = colour_difference(second.colours)
        if first_difference != second_difference:
            return (BLACK if first_difference < second_difference else WHITE, "4.3.5")
        for mine, theirs in zip(reversed(first.colours), reversed(second.colours), strict=False):
            if mine != theirs:
                return (_OTHER[mine], "4.3.6")
        if want_first:
            return (want_first, "4.3.7")
        if first.colours:
            return (_OTHER[first.colours[-1]], "4.3.8")
        return (second.colours[-1], "4.3.9")


def _matching(tpns: Sequence[int], cost) -> list[tuple[int, int]] | None:
    """The minimum-cost perfect matching of ``tpns`` (``cost(a, b)``: None where a pair may not
    meet), as pairs (smaller TPN first) in TPN order; None when there is no perfect matching.

    bbpPairings' weighted matching (through py4swiss, as the Dutch engine uses it) maximises
    weight; every pair weighs more than any sum of costs can reach, so the matching is perfect
    whenever one exists, then cheapest."""
    edges = {}
    for a, b in combinations(tpns, 2):
        value = cost(a, b)
        if value is not None:
            edges[(a, b)] = value
    if not edges:
        return None
    ceiling = max(edges.values()) + 1
    big = ceiling * (len(tpns) + 1)
    physical = _Physical(len(tpns), big)
    for tpn in tpns:
        physical.add(tpn)
    for (a, b), value in edges.items():
        physical.set(a, b, big - value)
    matched = physical.match()
    pairs = sorted({(min(a, b), max(a, b)) for a, b in matched.items() if a != b})
    if 2 * len(pairs) != len(tpns):
        return None
    return pairs
