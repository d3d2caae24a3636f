"""The team Swiss (FIDE C.04.6, 2026), article by article on hand-made positions, and art. 3.6
against its own definition (every pairing of a bracket enumerated, ordered by identifier, the
first of those complying best with [C8], [C9], [C10]) on generated brackets."""

import random

import pytest

from tournaments.pairing.model import BLACK, WHITE, PairingError
from tournaments.pairing.team_swiss import (
    TYPE_A,
    TYPE_B,
    SwissTeam,
    TeamMatchRecord,
    TeamSwissRules,
    _Round,
    colour_preference,
    pair_team_round,
    swiss_teams,
)


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_by_tpn_parity():
    teams = [SwissTeam(tpn) for tpn in range(1, 8)]
    paired = pair_team_round(teams, 1, TeamSwissRules(rounds=5, initial_colour=BLACK))
    assert [(pair.first, pair.second) for pair in paired.pairs] == [(1, 4), (5, 2), (3, 6)]
    assert paired.bye == 7  # 3.4.4: the largest TPN
    other = pair_team_round(teams, 1, TeamSwissRules(rounds=5, initial_colour=WHITE))
    assert [(pair.first, pair.second) for pair in other.pairs] == [(4, 1), (2, 5), (6, 3)]
    assert {pair.rule for pair in paired.pairs} == {"4.3.1"}


@pytest.mark.parametrize(
    ("colours", "model", "last", "expected"),
    [
        ((), TYPE_A, False, ("", False)),
        ((BLACK,), TYPE_A, False, ("", False)),  # Type A: a difference of 1 is no preference
        ((BLACK,), TYPE_B, False, (WHITE, False)),  # Type B: mild
        ((BLACK, WHITE), TYPE_B, False, (BLACK, False)),  # 0: alternate, mildly
        ((BLACK, WHITE), TYPE_B, True, ("", False)),  # ... but not in the last round
        ((WHITE, WHITE), TYPE_A, False, (BLACK, True)),
        ((BLACK, WHITE, WHITE), TYPE_A, False, (BLACK, True)),  # -1 after two Whites
        ((BLACK, BLACK, WHITE), TYPE_A, False, ("", False)),
        ((BLACK, BLACK, WHITE, BLACK), TYPE_B, True, (WHITE, True)),  # +2
        ((BLACK, BLACK), "none", False, ("", False)),
    ],
)
def test_colour_preferences_of_art_1_7(colours, model, last, expected):
    assert colour_preference(colours, model, last) == expected


def test_the_bye_goes_to_the_lowest_score_then_most_matches_then_largest_tpn_never_twice():
    rules = TeamSwissRules(rounds=5)
    teams = [
        SwissTeam(1, 2, colours=(BLACK,), met=frozenset({4}), matches=1),
        SwissTeam(2, 0, colours=(WHITE,), met=frozenset({3}), matches=1),
        SwissTeam(3, 0, colours=(BLACK,), met=frozenset({2}), matches=1),
        SwissTeam(4, 0, colours=(WHITE,), met=frozenset({1}), matches=1),
        SwissTeam(5, 0, bye_barred=True),
    ]
    assert pair_team_round(teams, 2, rules).bye == 4
    teams[3] = SwissTeam(4, 0, bye_barred=True, matches=0)
    teams[4] = SwissTeam(5, 0, matches=0)
    assert pair_team_round(teams, 2, rules).bye == 3  # the most matches played, then TPN


def test_a_match_forfeited_as_a_whole_is_no_meeting_and_bars_the_winner_from_the_bye():
    matches = [
        TeamMatchRecord(1, 1, 2, ("+-", "-+")),  # nobody of team 2 came: team 1 wins by forfeit
        TeamMatchRecord(1, 3, 4, ("1-0", "1/2-1/2")),
    ]
    one, two, three, four = swiss_teams([1, 2, 3, 4], matches, 2)
    assert (one.primary, one.secondary, one.colours, one.met, one.bye_barred) == (
        2.0,
        2.0,
        (),
        frozenset(),
        True,
    )
    assert (two.primary, two.colours, two.bye_barred) == (0.0, (), False)
    assert (three.colours, four.colours, three.met) == ((BLACK,), (WHITE,), frozenset({4}))
    assert (three.primary, four.primary, three.floated) == (2.0, 0.0, False)


def test_a_round_that_cannot_be_paired_is_refused():
    teams = [SwissTeam(1, met=frozenset({2})), SwissTeam(2, met=frozenset({1}))]
    with pytest.raises(PairingError):
        pair_team_round(teams, 2, TeamSwissRules(rounds=3))
    with pytest.raises(PairingError):
        pair_team_round(teams, 4, TeamSwissRules(rounds=3))
    with pytest.raises(PairingError):
        TeamSwissRules(rounds=3, colour_model="C")


def _by_definition(round_: _Round, top: float, members: list[int]):
    """Art. 3.6 read literally: every pairing, best ([C8], [C9], [C10]) then first by
    identifier (top members ascending, then their bottom members)."""

    def pairings(left):
        if not left:
            yield []
            return
        first, rest = left[0], left[1:]
        for index, other in enumerate(rest):
            if round_.can_meet(first, other):
                for more in pairings(rest[:index] + rest[index + 1 :]):
                    yield [(first, other), *more]

    best = None
    for pairing in pairings(sorted(members)):
        quality = [0, 0, 0]
        for a, b in pairing:
            c8, c9 = round_.colour_clash(a, b)
            quality[0] += c8
            quality[1] += c9
            quality[2] += round_.c10(top, a, b)
        tops = sorted(pairing)
        identifier = [a for a, _ in tops] + [b for _, b in tops]
        key = (quality, identifier)
        if best is None or key < best[0]:
            best = (key, sorted(pairing))
    return None if best is None else best[1]


@pytest.mark.parametrize("seed", range(60))
def test_a_bracket_is_paired_as_art_3_6_defines_it(seed):
    rng = random.Random(seed)
    size = rng.choice([2, 4, 6, 8, 10])
    tpns = sorted(rng.sample(range(1, 16), size))
    played = rng.randint(1, 4)
    teams = []
    for tpn in tpns:
        colours = tuple(rng.choice([BLACK, WHITE]) for _ in range(played))
        met = frozenset(other for other in tpns if other != tpn and rng.random() < 0.25)
        teams.append(
            SwissTeam(
                tpn,
                rng.choice([3.0, 3.0, 2.0]),
                colours=colours,
                met=met,
                matches=played,
                floated=rng.random() < 0.4,
            )
        )
    # meetings are mutual
    met = {team.tpn: set(team.met) for team in teams}
    for tpn, others in list(met.items()):
        for other in others:
            met[other].add(tpn)
    teams = [
        SwissTeam(
            t.tpn, t.primary, 0.0, t.colours, frozenset(met[t.tpn]), False, t.matches, t.floated
        )
        for t in teams
    ]
    rules = TeamSwissRules(rounds=9, colour_model=rng.choice([TYPE_A, TYPE_B]))
    round_ = _Round(teams, played + 1, rules)
    assert round_.bracket_pairing(3.0, tpns) == _by_definition(round_, 3.0, tpns)


def test_a_match_nobody_came_to_is_lost_by_both_and_one_each_team_came_to_is_played():
    nobody = [TeamMatchRecord(1, 1, 2, ("--", "--"))]
    one, two = swiss_teams([1, 2], nobody, 2)
    assert (one.primary, two.primary, one.met, one.bye_barred, two.bye_barred) == (
        0.0,
        0.0,
        frozenset(),
        False,
        False,
    )
    # each team had a player at a board (each won one by forfeit): both came, the match counts
    both = [TeamMatchRecord(1, 1, 2, ("+-", "+-"))]
    one, two = swiss_teams([1, 2], both, 2)
    assert (one.primary, two.primary, one.met, one.colours) == (1.0, 1.0, frozenset({2}), (BLACK,))
