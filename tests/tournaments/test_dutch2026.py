"""The FIDE Dutch System as in force from 1 February 2026 (tournaments.pairing.dutch2026).

bbpPairings (the FIDE-endorsed engine, kept to the 2026 text) wrote the tournaments in
tests/tournaments/data/ with its random tournament generator, pairing every round itself: so
every round of those files is bbpPairings' own pairing of that round.  Each round is re-paired
here from the rounds before it and must come out identical, colours and bye included.  The
rules that changed in 2026 are also checked one by one on small fields.  Pure logic: no
database.
"""

from pathlib import Path

import pytest

from tournaments.pairing import PairingPlayer, RoundEntry, Scoring, pair_swiss, read_trf
from tournaments.pairing.dutch import DUTCH_2026, DUTCH_UNTIL_2026

DATA = Path(__file__).parent / "data"
GENERATED = [
    "bbp_10p_5r.trf",
    "bbp_37p_7r.trf",
    "bbp_120p_9r.trf",
    "bbp_300p_11r.trf",
    "bbp_500p_6r.trf",
    "bbp_15p_4r_3-1-0.trf",
    "bbp_24p_6r_half_pab.trf",
    "bbp_model_37p.trf",
    # accelerated (C.04.5.1): 250 records give the Baku method's virtual points
    "bbp_baku_10p_5r.trf",
    "bbp_baku_13p_5r.trf",
    "bbp_baku_21p_7r.trf",
    "bbp_baku_30p_9r.trf",
    "bbp_baku_64p_9r.trf",
    "bbp_baku_101p_11r.trf",
    "bbp_baku_161p_9r.trf",
]


def before(player: PairingPlayer, round_number: int) -> PairingPlayer:
    """The player as they stood when ``round_number`` was paired: earlier rounds, and the
    round's own entry when it was not a pairing (a requested bye or an absence)."""
    history = [e for e in player.history if e.round < round_number]
    own = player.entry(round_number)
    unpaired = own is not None and own.opponent is None and own.result != "U"
    if unpaired:
        history.append(own)
    return PairingPlayer(
        player.number,
        player.name,
        player.rating,
        tuple(history),
        not unpaired,
        player.accelerations,
    )


def played_pairing(players, round_number):
    """The round as the file records it: pairs first mover first, and the PAB."""
    pairs, bye = set(), None
    for player in players:
        entry = player.entry(round_number)
        if entry is None:
            continue
        if entry.result == "U":
            bye = player.number
        elif entry.opponent is not None and entry.colour == "b":
            pairs.add((player.number, entry.opponent))
    return pairs, bye


@pytest.mark.parametrize("name", GENERATED)
def test_every_round_of_a_bbppairings_tournament_is_paired_as_bbppairings_paired_it(name):
    event = read_trf((DATA / name).read_bytes().decode("latin-1"))
    last = max(e.round for p in event.players for e in p.history)
    for round_number in range(1, last + 1):
        players = [before(p, round_number) for p in event.players]
        pairing = pair_swiss(
            players,
            round_number=round_number,
            total_rounds=event.total_rounds or last,
            scoring=event.scoring,
            first_colour=event.first_colour,
            forbidden_pairs=event.forbidden_pairs,
        )
        expected_pairs, expected_bye = played_pairing(event.players, round_number)
        assert (set(pairing.pairs), pairing.bye) == (expected_pairs, expected_bye), (
            name,
            round_number,
        )


def test_the_same_rounds_differ_by_the_older_text_somewhere():
    """The two rulesets are not the same engine under two names: over these files the text in
    force until 2026 pairs some round differently."""
    differ = 0
    for name in ("bbp_37p_7r.trf", "bbp_120p_9r.trf"):
        event = read_trf((DATA / name).read_bytes().decode("latin-1"))
        last = max(e.round for p in event.players for e in p.history)
        for round_number in range(2, last + 1):
            players = [before(p, round_number) for p in event.players]
            kwargs = dict(
                round_number=round_number,
                total_rounds=last,
                scoring=event.scoring,
                first_colour=event.first_colour,
            )
            new = pair_swiss(players, rules=DUTCH_2026, **kwargs)
            old = pair_swiss(players, rules=DUTCH_UNTIL_2026, **kwargs)
            differ += (set(new.pairs), new.bye) != (set(old.pairs), old.bye)
    assert differ > 0


# -- the 2026 changes, one by one ------------------------------------------------------------


def game(rnd, opponent, colour, result):
    return RoundEntry(rnd, opponent, colour, result)


def test_a_full_point_bye_makes_a_player_ineligible_for_the_pab():
    """C.2 (2026): no PAB for a player who already scored a win without playing, a requested
    full-point bye included (the older text only excluded a PAB or a forfeit win).  After two
    rounds 2, 3 and 5 share the lowest score; 5, the lowest ranked, had a full-point bye."""
    players = [
        PairingPlayer(1, "A", 2000, (game(1, 2, "b", "="), game(2, 5, "b", "1"))),
        PairingPlayer(2, "B", 1900, (game(1, 1, "w", "="), game(2, 3, "b", "="))),
        PairingPlayer(3, "C", 1800, (game(1, 4, "b", "="), game(2, 2, "w", "="))),
        PairingPlayer(4, "D", 1700, (game(1, 3, "w", "="), game(2, None, None, "U"))),
        PairingPlayer(5, "E", 1600, (game(1, None, None, "F"), game(2, 1, "w", "0"))),
    ]
    pairing = pair_swiss(players, round_number=3, total_rounds=5)
    # bbpPairings pairs this file (TRF of the same histories) 4-1, 5-2, bye 3.
    assert (pairing.pairs, pairing.bye) == ([(4, 1), (5, 2)], 3)


def test_the_bye_goes_to_the_lowest_score_possible():
    """C.5 (2026), bbpPairings' dutch_2025_C5: the bye receiver's score is minimised before the
    top group is paired (the older text pairs 1-3, 6-2 and gives the bye to 5)."""
    lines = (
        "012 Dutch 2025 C5 test\n"
        "001    1      Test0001 Player0001               2720                             "
        "2.0    1     4 w 1     2 b 1\n"
        "001    2      Test0002 Player0002               2701                             "
        "1.0    3     5 b 1     1 w 0\n"
        "001    3      Test0003 Player0003               2697                             "
        "2.0    2     6 w 1     4 b 1\n"
        "001    4      Test0004 Player0004               2689                             "
        "0.0    5     1 b 0     3 w 0  0000 - Z\n"
        "001    5      Test0005 Player0005               2673                             "
        "1.0    4     2 w 0     6 b 1\n"
        "001    6      Test0006 Player0006               2664                             "
        "0.0    6     3 b 0     5 w 0\n"
        "XXR 3\n"
    )
    event = read_trf(lines)
    new = pair_swiss(event.players, round_number=3, total_rounds=3)
    old = pair_swiss(event.players, round_number=3, total_rounds=3, rules=DUTCH_UNTIL_2026)
    assert (new.pairs, new.bye) == ([(1, 5), (3, 2)], 6)
    assert (old.pairs, old.bye) == ([(1, 3), (6, 2)], 5)


def test_an_unplayed_loss_is_no_downfloat_but_an_unplayed_win_is():
    """1.4.3 (2026): only a player who scored more than a loss without playing gets a
    downfloat.  The notes and the float criteria read the same history; here the pairing must
    simply stay legal and deterministic with both kinds of unplayed round."""
    players = [
        PairingPlayer(1, "A", 2000, (game(1, None, None, "Z"), game(2, 3, "b", "1"))),
        PairingPlayer(2, "B", 1900, (game(1, None, None, "F"), game(2, 4, "w", "1"))),
        PairingPlayer(3, "C", 1800, (game(1, 4, "b", "1"), game(2, 1, "w", "0"))),
        PairingPlayer(4, "D", 1700, (game(1, 3, "w", "0"), game(2, 2, "b", "0"))),
    ]
    first = pair_swiss(players, round_number=3, total_rounds=4)
    again = pair_swiss(players, round_number=3, total_rounds=4)
    assert first.pairs == again.pairs
    met = {frozenset((1, 3)), frozenset((2, 4)), frozenset((3, 4))}
    assert not {frozenset(p) for p in first.pairs} & met


def test_an_unknown_ruleset_is_refused():
    from tournaments.pairing import PairingError

    with pytest.raises(PairingError, match="unknown pairing rules"):
        pair_swiss([PairingPlayer(1, "A", 1)], round_number=1, total_rounds=1, rules="monrad")


def test_scoring_in_tenths_keeps_three_one_zero():
    event = read_trf((DATA / "bbp_15p_4r_3-1-0.trf").read_bytes().decode("latin-1"))
    assert event.scoring == Scoring(win=3.0, draw=1.0, loss=0.0, pab=1.0)


def test_progress_is_reported_bracket_by_bracket_up_to_everyone():
    event = read_trf((DATA / "bbp_120p_9r.trf").read_bytes().decode("latin-1"))
    players = [before(p, 6) for p in event.players]
    heard = []
    pair_swiss(
        players, round_number=6, total_rounds=9, progress=lambda done, total: heard.append(done)
    )
    available = sum(p.available for p in players)
    assert len(heard) > 2 and heard == sorted(heard) and heard[-1] == available


def test_the_accelerated_files_pair_otherwise_without_their_virtual_points():
    """The 250 records are what makes those files' rounds: without them round 1 of each, and
    some rounds after the acceleration, pair differently (so the replay above checks the
    virtual points, not only the Dutch rules)."""
    differ = []
    for name in [n for n in GENERATED if n.startswith("bbp_baku_")]:
        event = read_trf((DATA / name).read_bytes().decode("latin-1"))
        last = max(e.round for p in event.players for e in p.history)
        for round_number in range(1, last + 1):
            players = [
                PairingPlayer(q.number, q.name, q.rating, q.history, q.available)
                for q in (before(p, round_number) for p in event.players)
            ]
            pairing = pair_swiss(
                players,
                round_number=round_number,
                total_rounds=event.total_rounds or last,
                scoring=event.scoring,
                first_colour=event.first_colour,
            )
            if (set(pairing.pairs), pairing.bye) != played_pairing(event.players, round_number):
                differ.append((name, round_number))
    assert {name for name, number in differ if number == 1} == {
        n for n in GENERATED if n.startswith("bbp_baku_")
    }
