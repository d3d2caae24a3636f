"""The 2026 Dutch engine solves only the open bracket (tournaments.pairing.dutch2026_computer)
and must decide exactly as bbpPairings' whole-field computation (``relaxed=False``, the
straightforward transcription): same pairs, colours, bye and boards.  Pure logic: no database.
"""

import functools
import random
from pathlib import Path

import pytest

from tournaments.pairing import PairingPlayer, RoundEntry, pair_swiss, read_trf
from tournaments.pairing import dutch2026 as engine
from tournaments.pairing import dutch2026_computer as computer_module
from tournaments.pairing.dutch2026_criteria import _Field
from tournaments.pairing.dutch2026_matching import _first_round
from tournaments.pairing.model import PairingError, Scoring

from .test_dutch2026 import before

DATA = Path(__file__).parent / "data"
MIRROR = {"1": "0", "0": "1", "=": "="}


def both_ways(monkeypatch, players, **kwargs):
    """The pairing by the open-bracket computer, then by the whole-field one."""
    fast = pair_swiss(players, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(engine, "_compute", functools.partial(engine._compute, relaxed=False))
        whole = pair_swiss(players, **kwargs)
    return fast, whole


def same(a, b) -> bool:
    return (a.pairs, a.bye) == (b.pairs, b.bye)


def simulated_rounds(seed: int, n: int, rounds: int):
    """Rounds of a random event (draws, requested byes, forbidden pairs), each paired by the
    engine: yields (players before the round, keyword arguments)."""
    rng = random.Random(seed)
    history = {k: [] for k in range(1, n + 1)}
    forbidden = [(1, 2), (3, 4)] if seed % 2 else []
    for round_number in range(1, rounds + 1):
        absent = set(rng.sample(range(1, n + 1), rng.randint(0, 2)))
        players = []
        for k in range(1, n + 1):
            entries = list(history[k])
            if k in absent:
                entries.append(RoundEntry(round_number, None, None, rng.choice("HZF")))
            players.append(PairingPlayer(k, f"P{k}", 2400 - k, tuple(entries), k not in absent))
        kwargs = dict(round_number=round_number, total_rounds=rounds, forbidden_pairs=forbidden)
        yield players, kwargs
        try:
            pairing = pair_swiss(players, **kwargs)
        except PairingError:
            return
        for k in absent:
            history[k].append(players[k - 1].history[-1])
        for first, second in pairing.pairs:
            result = rng.choice("10=10")
            history[first].append(RoundEntry(round_number, second, "b", result))
            history[second].append(RoundEntry(round_number, first, "w", MIRROR[result]))
        if pairing.bye is not None:
            history[pairing.bye].append(RoundEntry(round_number, None, None, "U"))


@pytest.mark.parametrize("seed, n", [(1, 31), (2, 60), (3, 97), (4, 150)])
def test_simulated_events_pair_the_same_as_the_whole_field_computation(monkeypatch, seed, n):
    for players, kwargs in simulated_rounds(seed, n, 7):
        try:
            fast, whole = both_ways(monkeypatch, players, **kwargs)
        except PairingError:
            with pytest.raises(PairingError):
                both_ways(monkeypatch, players, **kwargs)
            continue
        assert same(fast, whole), (seed, kwargs["round_number"])


def test_the_open_bracket_is_what_the_computer_holds(monkeypatch):
    """The speed comes from holding one bracket at a time: on a round with many score groups
    no computer but the last bracket's is built over the whole open field."""
    sizes = []
    original = computer_module._Physical.__init__

    def spy(self, capacity, max_weight):
        sizes.append(capacity)
        original(self, capacity, max_weight)

    monkeypatch.setattr(computer_module._Physical, "__init__", spy)
    event = read_trf((DATA / "bbp_300p_11r.trf").read_bytes().decode("latin-1"))
    players = [before(p, 7) for p in event.players]
    pair_swiss(players, round_number=7, total_rounds=11, scoring=event.scoring)
    available = sum(p.available for p in players)
    assert len(sizes) > 5
    assert sizes[0] == 0 and max(sizes[1:-1]) < available / 2


@pytest.mark.parametrize("fail_at", [0, 1, 3, 6])
def test_when_no_completion_is_found_the_whole_field_decides_the_same(monkeypatch, fail_at):
    """The check that lets the open bracket decide may fail (it only looks for one complete
    pairing); the computer is then rebuilt over the whole open field, mid-bracket, with the
    weights set so far.  Forced here at several points: the pairing must not change."""
    event = read_trf((DATA / "bbp_120p_9r.trf").read_bytes().decode("latin-1"))
    players = [before(p, 6) for p in event.players]
    kwargs = dict(round_number=6, total_rounds=9, scoring=event.scoring)
    expected = pair_swiss(players, **kwargs)
    calls = []
    original = computer_module._Computer._completes

    def failing(self, unpaired):
        calls.append(unpaired)
        return False if len(calls) > fail_at else original(self, unpaired)

    monkeypatch.setattr(computer_module._Computer, "_completes", failing)
    assert same(pair_swiss(players, **kwargs), expected)
    assert len(calls) > fail_at  # the failure was reached


def test_a_player_with_no_way_into_the_next_group_is_accounted_for():
    """Completion check: players who cannot be absorbed by the groups below make it fail (and
    the whole field decide), never pass."""
    compatible = lambda a, b: {a, b} != {0, 1} and {a, b} != {0, 2}  # noqa: E731
    completion = computer_module._Completion([1, 2], compatible, lambda p: False)
    assert completion.check(frozenset()) is True
    assert completion.check(frozenset({0, 3})) is True  # 0-3 and 1-2
    assert completion.check(frozenset({0})) is False  # odd, and 0 may not have the bye


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 11, 16, 27, 40, 63])
@pytest.mark.parametrize("first_colour", ["b", "w"])
def test_the_first_round_fold_pairs_as_the_whole_field_computation(monkeypatch, n, first_colour):
    """Round 1 is paired without the weighted matching (S1 against S2, the last-ranked player
    left for the bye): pairs, colours, boards and bye must be the whole field's own."""
    rng = random.Random(n)
    absent = set(rng.sample(range(1, n + 1), n // 7))
    players = [
        PairingPlayer(
            k,
            f"P{k}",
            2400 - k,
            (RoundEntry(1, None, None, "H"),) if k in absent else (),
            k not in absent,
        )
        for k in range(1, n + 1)
    ]
    kwargs = dict(round_number=1, total_rounds=5, first_colour=first_colour)
    matchings = []
    original = engine._compute

    def spy(*args, **kw):
        matchings.append(kw.get("relaxed", True))
        return original(*args, **kw)

    monkeypatch.setattr(engine, "_compute", spy)
    fast, whole = both_ways(monkeypatch, players, **kwargs)
    assert fast.pairs == whole.pairs and fast.bye == whole.bye  # board order too
    assert matchings == [True, False]
    half = (n - len(absent)) // 2
    assert len(fast.pairs) == half


def test_the_first_round_fold_is_not_used_with_a_forbidden_pair(monkeypatch):
    """A forbidden pair among the players is a constraint the fold does not know: the
    weighted matching pairs that round (and must avoid the pair)."""
    players = [PairingPlayer(k, f"P{k}", 2400 - k) for k in range(1, 7)]
    for forbidden, folds in (([(1, 4)], False), ([], True)):
        field = _Field(players, 1, 5, Scoring(), "b", forbidden)
        ordered = sorted(field.available, key=lambda p: p.rank)
        assert (_first_round(field, ordered) is not None) is folds
    fast, whole = both_ways(
        monkeypatch, players, round_number=1, total_rounds=5, forbidden_pairs=[(1, 4)]
    )
    assert same(fast, whole)
    assert {1, 4} not in [set(pair) for pair in fast.pairs]
