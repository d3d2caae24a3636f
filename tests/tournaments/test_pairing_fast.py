"""tournaments.pairing.fast must not change a single pairing: every round paired here is paired
twice, by py4swiss's own code (``fast.stock()``) and with the fast methods installed, and the
results (pairs, colours, bye, notes) must be identical.  Edge weights are also compared pair by
pair, and the calls reaching py4swiss's C++ matching computers are compared call by call.

Pure logic: no database.  The simulated events reuse ``simulate`` from test_swiss.py (late
entries, withdrawals, byes, forfeits, forbidden pairs, three scoring systems) and the
bbpPairings files from test_swiss_bbppairings.py (a last round with topscorers).
"""

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.dutch.bracket import bracket_matcher
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

from tests.tournaments import test_swiss
from tests.tournaments.test_swiss import fresh, play, simulate
from tests.tournaments.test_swiss_bbppairings import C5_TRF, C9_TRF, ISSUE_7
from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    RoundEntry,
    RoundPairing,
    fast,
    py4swiss_pin,
    read_trf,
)
from tournaments.pairing import pair_swiss as pair_by_any_rules
from tournaments.pairing.dutch import DUTCH_UNTIL_2026
from tournaments.pairing.fast import from_dynamic_uint, to_dynamic_uint


def pair_swiss(*args, **kwargs) -> RoundPairing:
    """py4swiss pairs by the text in force until 31 January 2026: ``fast`` speeds that up."""
    kwargs["rules"] = DUTCH_UNTIL_2026
    return pair_by_any_rules(*args, **kwargs)


STOCK_GET_WEIGHT = py4swiss_pin.STOCK[BracketMatcher, "_get_weight"]
STOCK_BRACKET_SET_UP = py4swiss_pin.STOCK[BracketMatcher, "_set_up_computer"]


@pytest.fixture(autouse=True)
def fast_stays_installed():
    assert fast.is_installed(), "the app's start-up (TournamentsConfig.ready) installs them"
    yield
    assert fast.is_installed(), "a test left py4swiss's stock methods in place"


def pair_both(*args, **kwargs) -> RoundPairing:
    """``pair_swiss`` by the stock code and by the fast code; they must agree exactly."""
    with fast.stock():
        assert not fast.is_installed()
        try:
            expected: RoundPairing | PairingError = pair_swiss(*args, **kwargs)
        except PairingError as error:
            expected = error
    assert fast.is_installed()
    try:
        actual = pair_swiss(*args, **kwargs)
    except PairingError as error:
        assert isinstance(expected, PairingError), f"fast raised, stock paired: {error}"
        assert str(error) == str(expected)
        raise
    assert isinstance(expected, RoundPairing), f"stock raised, fast paired: {expected}"
    assert actual.pairs == expected.pairs, "same pairs, same colours, same board order"
    assert actual.bye == expected.bye
    assert actual.notes == expected.notes
    pair_both.rounds += 1
    return actual


pair_both.rounds = 0


# -- whole tournaments, paired both ways -------------------------------------------------------


def test_simulated_tournaments_pair_identically(monkeypatch):
    """test_swiss's random events (7-40 players), every round paired both ways."""
    monkeypatch.setattr(test_swiss, "pair_swiss", pair_both)
    before = pair_both.rounds
    for seed in range(1000, 1040):
        simulate(seed, DUTCH_UNTIL_2026)
    assert pair_both.rounds - before > 200


def random_event(seed: int, n: int, total_rounds: int) -> int:
    """A Swiss of ``n`` players: random results with draws, requested byes, a withdrawal or
    two, forbidden pairs; every round paired both ways.  Returns the rounds paired."""
    rng = random.Random(seed)
    players = fresh(n)
    forbidden = {tuple(rng.sample(range(1, n + 1), 2)) for _ in range(rng.randint(0, 2))}
    withdrawn = set(rng.sample(range(1, n + 1), rng.randint(0, max(0, n // 15))))
    first_colour = rng.choice("bw")
    for round_number in range(1, total_rounds + 1):
        absent = {p for p in range(1, n + 1) if rng.random() < 0.06}
        if round_number > 2:
            absent |= withdrawn
        players = [
            PairingPlayer(
                p.number,
                p.name,
                p.rating,
                p.history
                + ((RoundEntry(round_number, None, None, "H"),) if p.number in absent else ()),
                p.number not in absent,
            )
            for p in players
        ]
        try:
            pairing = pair_both(
                players,
                round_number=round_number,
                total_rounds=total_rounds,
                first_colour=first_colour,
                forbidden_pairs=forbidden,
            )
        except PairingError:
            return round_number - 1
        results = rng.choices(["1", "=", "0"], weights=[4, 2, 4], k=len(pairing.pairs))
        players = play(players, round_number, pairing, results)
    return total_rounds


@pytest.mark.parametrize(
    ("seed", "n", "rounds"),
    [(1, 5, 4), (2, 6, 5), (3, 9, 6), (4, 13, 7), (5, 24, 7), (6, 31, 6), (7, 47, 5), (8, 60, 5)],
)
def test_random_events_of_5_to_60_players_pair_identically(seed, n, rounds):
    assert random_event(seed, n, rounds) >= min(rounds, 3)


def test_bbppairings_files_pair_identically():
    """Including issue 7's last round (60 players, topscorers: C.3 relaxed, C.8/C.9 active)."""
    for text in (ISSUE_7.replace("\n", "\r"), C5_TRF, C9_TRF):
        event = read_trf(text)
        pair_both(event.players, round_number=event.next_round, total_rounds=event.total_rounds)


# -- the matching computers see the same calls -------------------------------------------------


def as_int(value: int | DynamicUint) -> int:
    return from_dynamic_uint(value) if isinstance(value, DynamicUint) else value


class RecordingComputer:
    """Wraps one of py4swiss's C++ matching computers and logs every call with its arguments
    (weights as ints) and every matching it returns."""

    def __init__(self, real: type, log: list, size: int, weight: int | DynamicUint) -> None:
        self._real = real(size, weight)
        self._log = log
        log.append(("new", real.__name__, size, as_int(weight)))

    def size(self) -> int:
        return self._real.size()

    def add_vertex(self) -> None:
        self._log.append(("add_vertex",))
        self._real.add_vertex()

    def set_edge_weight(self, u: int, v: int, weight: int | DynamicUint) -> None:
        self._log.append(("edge", u, v, as_int(weight)))
        self._real.set_edge_weight(u, v, weight)

    def compute_matching(self) -> None:
        self._log.append(("compute",))
        self._real.compute_matching()

    def get_matching(self) -> list[int]:
        matching = self._real.get_matching()
        self._log.append(("matching", tuple(matching)))
        return matching


def computer_calls(monkeypatch, players, **kwargs) -> list:
    """Pair one round and return the log of every call to the matching computers."""
    from py4swiss.engines.dutch import validity_matcher

    log: list = []
    optimality = bracket_matcher.ComputerDutchOptimality
    validity = validity_matcher.ComputerDutchValidity
    with monkeypatch.context() as patch:
        patch.setattr(
            bracket_matcher,
            "ComputerDutchOptimality",
            lambda size, weight: RecordingComputer(optimality, log, size, weight),
        )
        patch.setattr(
            validity_matcher,
            "ComputerDutchValidity",
            lambda size, weight: RecordingComputer(validity, log, size, weight),
        )
        try:
            pair_swiss(players, **kwargs)
        except PairingError:
            log.append(("PairingError",))
    return log


@pytest.mark.parametrize(("seed", "n"), [(11, 17), (12, 33), (13, 60)])
def test_matching_computers_receive_the_same_calls(monkeypatch, seed, n):
    rng = random.Random(seed)
    players = fresh(n)
    compared = 0
    for round_number in range(1, 6):
        kwargs = {"round_number": round_number, "total_rounds": 5}
        with fast.stock():
            expected = computer_calls(monkeypatch, players, **kwargs)
        actual = computer_calls(monkeypatch, players, **kwargs)
        assert len(actual) == len(expected)
        assert actual == expected
        compared += len(actual)
        pairing = pair_swiss(players, **kwargs)
        results = rng.choices(["1", "=", "0"], weights=[4, 2, 4], k=len(pairing.pairs))
        players = play(players, round_number, pairing, results)
    assert compared > n * n


# -- edge weights, pair by pair ----------------------------------------------------------------


def test_fast_weight_equals_stock_weight_for_every_pair(monkeypatch):
    """Inside the stock engine, every bracket's weights computed both ways, compared as ints;
    also the fast ``_set_up_computer`` against the stock one on a recording computer."""
    seen: Counter[str] = Counter()

    def checking_set_up(self: BracketMatcher) -> None:
        bracket = self._bracket
        players = self._player_list
        for i, first in enumerate(players):
            for second in players[i + 1 :]:
                expected = as_int(STOCK_GET_WEIGHT(self, first, second))
                actual = as_int(fast.fast_get_weight(self, first, second))
                assert actual == expected, (bracket, first, second)
                seen["pairs"] += 1
                seen["zero weights"] += expected == 0
        seen["brackets"] += 1
        seen["penultimate"] += bracket.penultimate_pairing_bracket
        seen["last"] += bracket.last_pairing_bracket
        seen["two rounds played"] += bracket.two_rounds_played
        seen["topscorers"] += any(p.top_scorer for p in players)
        seen["MDPs"] += bool(bracket.mdp_list)

        # The inlined fast set-up issues the same calls and stores the same weights.
        logs = []
        for set_up in (STOCK_BRACKET_SET_UP, fast.fast_bracket_set_up_computer):
            shadow = object.__new__(BracketMatcher)
            shadow.__dict__.update(self.__dict__)
            shadow.__dict__.pop("_sumito_weights", None)
            log: list = []
            shadow._computer = RecordingComputer.__new__(RecordingComputer)
            shadow._computer._real, shadow._computer._log = _NullComputer(), log
            shadow._weights = [[self._zero_weight] * self._len for _ in range(self._len)]
            set_up(shadow)
            logs.append((log, [[as_int(w) for w in row] for row in shadow._weights]))
        assert logs[0] == logs[1]
        STOCK_BRACKET_SET_UP(self)

    with fast.stock(), monkeypatch.context() as patch:
        patch.setattr(BracketMatcher, "_set_up_computer", checking_set_up)
        for text in (ISSUE_7.replace("\n", "\r"), C5_TRF, C9_TRF):
            event = read_trf(text)
            pair_swiss(
                event.players, round_number=event.next_round, total_rounds=event.total_rounds
            )
        for seed in range(2000, 2012):
            simulate(seed, DUTCH_UNTIL_2026)
    # The brackets compared include every special case of the weights.
    assert seen["pairs"] > 20_000, seen
    for case in ("zero weights", "penultimate", "last", "two rounds played", "topscorers", "MDPs"):
        assert seen[case] > 0, (case, seen)


class _NullComputer:
    def add_vertex(self) -> None:
        pass

    def set_edge_weight(self, u: int, v: int, weight: object) -> None:
        pass


# -- DynamicUint arithmetic is arithmetic modulo 2**width --------------------------------------


def zero_of_width(bits: int) -> DynamicUint:
    value = DynamicUint(1)
    value.shift_grow(bits)
    return value & 0


@pytest.mark.parametrize("bits", [0, 63, 64, 130, 300])
def test_dynamic_uint_is_modular_arithmetic(bits):
    """What the int transcription relies on: +, -, << wrap modulo 2**width like masked ints,
    and the conversions round-trip."""
    rng = random.Random(bits)
    zero = zero_of_width(bits)
    width = fast._width(zero)
    assert width % 32 == 0 and width > bits
    mask = (1 << width) - 1
    for _ in range(300):
        a, b = rng.getrandbits(width), rng.getrandbits(width)
        x, y = to_dynamic_uint(a, zero), to_dynamic_uint(b, zero)
        assert from_dynamic_uint(x) == a and fast._width(x - x) == width
        assert from_dynamic_uint(x + y) == (a + b) & mask
        assert from_dynamic_uint(x - y) == (a - b) & mask
        shift = rng.randrange(width + 40)
        assert from_dynamic_uint(x << shift) == (a << shift) & mask
        small = rng.getrandbits(32)
        assert from_dynamic_uint(zero | small) == small
        assert ((x < y), (x == y), bool(x)) == ((a < b), (a == b), bool(a))


# -- switching ---------------------------------------------------------------------------------


def test_install_is_idempotent_and_stock_restores():
    fast.install()
    fast.install()
    assert fast.is_installed()
    with fast.stock():
        assert not fast.is_installed()
        assert BracketMatcher.__dict__["_get_weight"] is STOCK_GET_WEIGHT
        with fast.stock():
            assert not fast.is_installed()
        assert not fast.is_installed()
    assert fast.is_installed()
    assert ValidityMatcher.__dict__["is_allowed_pair"] is fast.fast_is_allowed_pair


def test_the_app_start_up_installs_the_fast_methods():
    from django.apps import apps

    assert apps.ready and fast.is_installed()
    with fast.stock():
        apps.get_app_config("tournaments").ready()
        assert fast.is_installed()


def test_importing_the_engine_installs_nothing():
    """Only start-up installs: a bare import of the pure engine leaves py4swiss as it is."""
    code = "from tournaments.pairing import fast, pair_swiss; print(fast.is_installed())"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


def test_the_installed_py4swiss_is_the_one_checked():
    assert py4swiss_pin.supported() is None
    assert py4swiss_pin.current_fingerprints() == py4swiss_pin.FINGERPRINTS


def test_another_py4swiss_version_fails_loudly_and_patches_nothing(monkeypatch):
    monkeypatch.setattr(py4swiss_pin, "version", lambda name: "0.3.2")
    with fast.stock():
        with pytest.raises(py4swiss_pin.UnsupportedPy4Swiss) as raised:
            fast.install()
        assert not fast.is_installed()
        assert BracketMatcher.__dict__["_get_weight"] is STOCK_GET_WEIGHT
    assert str(raised.value).startswith(
        "py4swiss 0.3.2 is installed; tournaments.pairing.fast was checked against 0.3.1"
    )


def test_a_changed_py4swiss_function_fails_loudly_and_patches_nothing(monkeypatch):
    monkeypatch.setitem(py4swiss_pin.FINGERPRINTS, "C12.get_weight", "0" * 64)
    with fast.stock():
        with pytest.raises(
            py4swiss_pin.UnsupportedPy4Swiss, match=r"py4swiss's C12\.get_weight differs"
        ):
            fast.install()
        assert not fast.is_installed()


def test_a_changed_replaced_method_is_named(monkeypatch):
    """The fingerprints are of the stock methods, even while the fast ones are installed."""
    real = py4swiss_pin.fingerprint

    def changed(function):
        return "0" * 64 if function is STOCK_GET_WEIGHT else real(function)

    monkeypatch.setattr(py4swiss_pin, "fingerprint", changed)
    assert py4swiss_pin.supported() == (
        "py4swiss's BracketMatcher._get_weight differs from the code transcribed in "
        "tournaments.pairing.fast (checked against py4swiss 0.3.1)"
    )
    with fast.stock(), pytest.raises(py4swiss_pin.UnsupportedPy4Swiss, match="_get_weight differs"):
        fast.install()


def test_unreadable_py4swiss_source_fails_loudly(monkeypatch):
    def unreadable(function):
        raise OSError("could not get source code")

    monkeypatch.setattr(py4swiss_pin, "fingerprint", unreadable)
    with fast.stock(), pytest.raises(py4swiss_pin.UnsupportedPy4Swiss, match="cannot be read"):
        fast.install()
