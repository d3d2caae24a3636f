"""The knockout engine (pure): bracket placement and byes, rounds, the match for third place,
and a tied pairing decided by rapid games, sudden death and the director's last rule."""

import random

import pytest

from tournaments.pairing import PairingError
from tournaments.pairing.knockout import (
    ARMAGEDDON,
    ARMAGEDDON_GAME,
    BOTH_OUT,
    DECIDED,
    DRAW_LOTS,
    HIGHER_SEED,
    LOT,
    MATCH_GAME,
    PLAY,
    RAPID_GAME,
    SUDDEN_DEATH_GAME,
    Pairing,
    TieBreakRule,
    bracket_order,
    bracket_size,
    decide,
    final_places,
    first_round,
    next_round,
    round_name,
    round_pairings,
    rounds_of,
    third_place,
)

WIN, LOSS, DRAW = "1-0", "0-1", "1/2-1/2"


def test_the_standard_placement_of_sixteen_seeds():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [2**k for k in range(1, 11)])
def test_the_top_seeds_are_kept_apart_until_the_latest_rounds(size):
    """Seeds s and size+1-s share a first-round pairing, and for every k the top 2^k seeds
    lie in 2^k different sections of the bracket: 1 and 2 meet only in the final, 1-4 from
    the semi-finals on."""
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for slot in range(size // 2):
        assert order[2 * slot] + order[2 * slot + 1] == size + 1
    k = 1
    while 2**k <= size:
        section = size // 2**k
        sections = {order.index(seed) // section for seed in range(1, 2**k + 1)}
        assert len(sections) == 2**k
        k += 1


@pytest.mark.parametrize("entrants", [2, 3, 5, 6, 7, 8, 9, 12, 13, 17, 31, 33, 100])
def test_the_byes_go_to_the_top_seeds(entrants):
    size = bracket_size(entrants)
    assert size >= entrants > size // 2
    pairings = first_round(entrants)
    byes = sorted(p.black for p in pairings if p.is_bye)
    assert byes == list(range(1, size - entrants + 1))
    seeds = [s for p in pairings for s in (p.black, p.white) if s is not None]
    assert sorted(seeds) == list(range(1, entrants + 1))
    assert all(p.white is None or p.black < p.white for p in pairings)


def test_eight_players_the_round_names_and_the_third_place():
    rounds = rounds_of(8)
    names = [str(round_name(n, rounds)) for n in (1, 2, 3)]
    assert names == ["Quarter-finals", "Semi-finals", "Final"]
    assert str(round_name(1, rounds_of(32))) == "Round of 32"
    quarter = first_round(8)
    assert [(p.black, p.white) for p in quarter] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    # the favourites win but 5 beats 4 and 6 beats 3
    semi = next_round([1, 5, 2, 6])
    assert [(p.black, p.white) for p in semi] == [(1, 5), (2, 6)]
    final = next_round([5, 2])
    assert [(p.black, p.white) for p in final] == [(2, 5)]
    assert third_place(semi, [5, 2]) == Pairing(0, 1, 6)
    # a semi-final with a bye or a double forfeit leaves nobody for third place
    assert third_place([Pairing(0, 1, None), Pairing(1, 2, 3)], [1, 2]) is None
    assert third_place(semi, [None, 2]) is None


def test_a_double_forfeit_sends_nobody_on():
    second = next_round([1, None, None, None])
    assert [(p.black, p.white) for p in second] == [(1, None), (None, None)]
    assert next_round([None, 3]) == [Pairing(0, 3, None)]


@pytest.mark.parametrize("seed", range(30))
def test_random_cups_are_played_to_one_champion(seed):
    """Generated cups of 2-64 entrants with random winners: every seed plays once a round
    until it is out, the field halves each round, one champion is left after rounds_of
    rounds, and when the better seed always wins the final is 1 against 2."""
    rng = random.Random(seed)
    entrants = rng.randint(2, 64)
    for favourites in (False, True):
        pairings = first_round(entrants)
        alive = set(range(1, entrants + 1))
        for _ in range(rounds_of(entrants)):
            seen = [s for p in pairings for s in (p.black, p.white) if s is not None]
            assert len(seen) == len(set(seen)) and set(seen) == alive
            if len(pairings) == 1 and favourites:
                assert (pairings[0].black, pairings[0].white) == (1, 2)
            winners = []
            for p in pairings:
                if p.white is None:
                    winners.append(p.black)
                    continue
                winner = p.black if favourites or rng.random() < 0.5 else p.white
                alive.discard(p.white if winner == p.black else p.black)
                winners.append(winner)
            if len(winners) == 1:
                break
            pairings = next_round(winners)
        assert len(alive) == 1
        if favourites:
            assert alive == {1}


def test_a_match_won_outright():
    rule = TieBreakRule(games=2)
    assert decide(rule, []) == decide(rule, [])
    start = decide(rule, [])
    assert (start.stage, start.number, start.kind, start.first) == (PLAY, 1, MATCH_GAME, "black")
    second = decide(rule, [WIN])
    assert (second.stage, second.number, second.first) == (PLAY, 2, "white")
    # game 2's first mover is the pairing's White: 0-1 there is a win for the pairing's Black
    done = decide(rule, [WIN, LOSS])
    assert (done.stage, done.winner, done.by, done.black, done.white) == (
        DECIDED,
        "black",
        MATCH_GAME,
        2.0,
        0.0,
    )
    assert decide(rule, [DRAW, WIN]).winner == "white"


def test_a_tie_goes_to_rapid_games_then_sudden_death_then_armageddon():
    rule = TieBreakRule(games=2, rapid_matches=1, rapid_games=2, sudden_death=1, decider=ARMAGEDDON)
    tied = [WIN, WIN]  # each won their game with the first move: 1-1
    rapid = decide(rule, tied)
    assert (rapid.stage, rapid.number, rapid.kind, rapid.first) == (PLAY, 3, RAPID_GAME, "black")
    assert decide(rule, [*tied, DRAW]).number == 4
    won = decide(rule, [*tied, DRAW, LOSS])  # game 4: the pairing's White moved first, lost
    assert (won.winner, won.by, won.black, won.white) == ("black", RAPID_GAME, 1.0, 1.0)
    sudden = decide(rule, [*tied, WIN, WIN])
    assert (sudden.number, sudden.kind, sudden.first) == (5, SUDDEN_DEATH_GAME, "black")
    assert decide(rule, [*tied, WIN, WIN, LOSS]).winner == "white"
    last = decide(rule, [*tied, WIN, WIN, DRAW])
    assert (last.number, last.kind, last.first) == (6, ARMAGEDDON_GAME, "white")
    # in the armageddon game the pairing's White moves first: a draw goes to the second mover
    assert decide(rule, [*tied, WIN, WIN, DRAW, DRAW]).winner == "black"
    assert decide(rule, [*tied, WIN, WIN, DRAW, WIN]).winner == "white"
    assert decide(rule, [*tied, WIN, WIN, DRAW, WIN]).by == ARMAGEDDON_GAME


def test_an_odd_match_length_carries_the_colours_into_the_tie_break():
    """Three games tied 1½-1½: rapid game 4 swaps the pairing's colours, so a 1-0 in it is
    the pairing's White's win."""
    rule = TieBreakRule(games=3, rapid_matches=1, rapid_games=2, sudden_death=0, decider=LOT)
    tied = [WIN, WIN, DRAW]  # 1-0 Black, 1-0 White (game 2 swapped), draw: 1½-1½
    assert decide(rule, tied).first == "white"
    won = decide(rule, [*tied, WIN, DRAW])
    assert (won.winner, won.by) == ("white", RAPID_GAME)
    assert decide(rule, [*tied, DRAW, DRAW]).stage == DRAW_LOTS


def test_the_higher_seed_rule_and_two_rapid_matches():
    rule = TieBreakRule(
        games=2, rapid_matches=2, rapid_games=2, sudden_death=0, decider=HIGHER_SEED
    )
    tied = [DRAW, DRAW]
    assert decide(rule, [*tied, DRAW, DRAW]).number == 5  # a second rapid match
    assert decide(rule, [*tied, DRAW, DRAW, WIN, DRAW]).winner == "black"
    assert decide(rule, [*tied, DRAW, DRAW, DRAW, DRAW], higher_seed="white").winner == "white"
    assert decide(rule, [*tied, DRAW, DRAW, DRAW, DRAW]).by == HIGHER_SEED


def test_forfeits_decide_and_a_double_forfeit_puts_both_out():
    rule = TieBreakRule(games=2)
    assert decide(rule, ["+-", "+-"]).stage == PLAY  # each first mover won: 1-1, rapid games
    assert decide(rule, ["+-", "-+"]).winner == "black"
    assert decide(rule, ["--", "--"]).stage == BOTH_OUT
    assert decide(rule, [WIN, WIN, "--"]).stage == BOTH_OUT


def test_bad_input_is_refused_naming_the_problem():
    with pytest.raises(PairingError, match="2 to 1024 entrants, not 1"):
        bracket_size(1)
    with pytest.raises(PairingError, match="power of two, not 12"):
        bracket_order(12)
    with pytest.raises(PairingError, match="no gaps"):
        decide(TieBreakRule(), [WIN, "", WIN])
    with pytest.raises(PairingError, match="game 3 was played after the pairing was decided"):
        decide(TieBreakRule(), [WIN, LOSS, WIN])
    with pytest.raises(PairingError, match="unknown decider"):
        decide(TieBreakRule(decider="coin"), [])
    with pytest.raises(PairingError, match="rapid_games is 1 to 8, not 0"):
        decide(TieBreakRule(rapid_games=0), [])
    with pytest.raises(PairingError, match="unknown result"):
        decide(TieBreakRule(), [WIN, WIN, "2-0"])
    with pytest.raises(PairingError, match="no round 4"):
        round_name(4, 3)
    with pytest.raises(PairingError, match="in pairs"):
        next_round([1, 2, 3])


def test_a_later_round_from_the_winners_and_the_match_for_third_place():
    # six seeds: round 1 is 1-(bye), 4-5, 2-(bye), 3-6; 5 and 3 go through
    first = round_pairings(6, 1, 3, [], True)
    assert [(p.black, p.white) for p in first] == [(1, None), (4, 5), (2, None), (3, 6)]
    semis = round_pairings(6, 2, 3, list(zip(first, [1, 5, 2, 3], strict=True)), True)
    assert [(p.slot, p.black, p.white) for p in semis] == [(0, 1, 5), (1, 2, 3)]
    final = round_pairings(6, 3, 3, list(zip(semis, [5, 2], strict=True)), True)
    assert [(p.slot, p.black, p.white) for p in final] == [(0, 2, 5), (1, 1, 3)]
    assert len(round_pairings(6, 3, 3, list(zip(semis, [5, 2], strict=True)), False)) == 1
    # a semi-final nobody reached leaves no loser to play for third place
    lone = round_pairings(6, 3, 3, [(semis[0], 5)], True)
    assert [(p.slot, p.black, p.white) for p in lone] == [(0, 5, None)]


def test_the_final_places_of_a_cup():
    # eight: the final, the match for third place, the quarter-finals' losers share 5th-8th
    losers = [["8", "4", "7", "3"], ["1", "6"], ["5"]]
    assert final_places(losers, "2", ("6", "1")) == [
        (1, 1, "2"),
        (2, 2, "5"),
        (3, 3, "6"),
        (4, 4, "1"),
        *[(5, 8, side) for side in ("8", "4", "7", "3")],
    ]
    # no match for third place: the semi-finals' losers share 3rd-4th
    assert final_places(losers, "2")[2:4] == [(3, 4, "1"), (3, 4, "6")]
    # six, two byes: two losers in the first round share 5th-6th
    assert final_places([["3", "4"], ["1", "2"], ["5"]], "6")[-2:] == [(5, 6, "3"), (5, 6, "4")]
    # a cup of two: the final only
    assert final_places([["b"]], "a") == [(1, 1, "a"), (2, 2, "b")]


@pytest.mark.parametrize("seed", range(100))
def test_generated_cups_place_every_seed_once(seed):
    """Cups of 2-64 seeds with random winners (a double forfeit now and then): every seed gets
    one place, the places run from 1 without a gap, a shared place spans exactly the seeds
    sharing it, and a seed out in a later round is placed above every seed out earlier."""
    rng = random.Random(seed)
    entrants = rng.randint(2, 64)
    pairings = first_round(entrants)
    out_in: dict[int, int] = {}
    losers: list[list[int]] = []
    champion = None
    for number in range(1, rounds_of(entrants) + 1):
        winners: list[int | None] = []
        lost = []
        for p in pairings:
            sides = [s for s in (p.black, p.white) if s is not None]
            if len(sides) < 2:
                winners.append(sides[0] if sides else None)
                continue
            if rng.random() < 0.05 and len(pairings) > 1:
                lost += sides  # a double forfeit
                winners.append(None)
                continue
            winner = rng.choice(sides)
            lost += [s for s in sides if s != winner]
            winners.append(winner)
        losers.append(lost)
        out_in |= {s: number for s in lost}
        if len(pairings) == 1:
            champion = winners[0]
            break
        pairings = next_round(winners)
    if champion is None:  # the final was not played (both semi-finals double-forfeited)
        return
    places = final_places(losers, champion)
    placed = [side for _, _, side in places]
    assert sorted(placed) == sorted([*out_in, champion]) and len(placed) == len(set(placed))
    assert places[0] == (1, 1, champion)
    expected_first = 1
    for first, last, _side in places:
        assert first in (expected_first, places[placed.index(_side) - 1][0])
        sharing = [s for f, _, s in places if f == first]
        assert last - first + 1 == len(sharing)
        expected_first = last + 1
    assert expected_first == len(placed) + 1
    rank = {side: first for first, _, side in places}
    for a in out_in:
        for b in out_in:
            if out_in[a] > out_in[b]:
                assert rank[a] < rank[b]
