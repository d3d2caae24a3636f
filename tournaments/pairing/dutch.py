"""Swiss pairing by the FIDE (Dutch) System, delegated to py4swiss.

Public API: :func:`pair_swiss` ``(players, *, round_number, total_rounds, scoring=Scoring(),
first_colour="b", forbidden_pairs=()) -> RoundPairing``.

How it works: the players' histories before ``round_number`` are written as a TRF-16 file in
memory (with ``XXR``, ``XXC``, ``XXP``, ``XXS`` and ``XXZ`` for the players not to be paired),
parsed with py4swiss's own section parsers, paired by ``py4swiss.engines.DutchEngine``, and the
pairs mapped back to pairing numbers.  py4swiss implements C.04.3 as effective until
31 January 2026 (see ``docs/pairing.md``).  Its ``TrfParser.parse`` is not used because it only
reads files and refuses a forfeit without an opponent; our own :func:`validate_histories` checks
the histories instead.

Pairing numbers are passed through unchanged: the Dutch colour rule E.5 looks at their parity.

:mod:`tournaments.pairing.fast` makes py4swiss compute the same pairings several times faster
(its edge weights built with Python ints instead of ``DynamicUint`` operations).  Importing this
module does not install it: ``tournaments.apps.TournamentsConfig.ready()`` does at start-up (and
so do the command line and the bench), failing loudly if py4swiss is not the version it was
checked against; without it, this module pairs identically with py4swiss's own, slower code.
See that module and ``docs/pairing.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError as Py4SwissPairingError
from py4swiss.trf import ParsedTrf, TrfLine
from py4swiss.trf.codes import PlayerCode, TournamentCode, XCode
from py4swiss.trf.exceptions import ParsingError
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection

from core.messages import gettext_noop
from tournaments.pairing.dutch2026 import effective_numbers, pair_dutch_2026
from tournaments.pairing.explain import explain_pairing
from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingError,
    PairingPlayer,
    RoundEntry,
    RoundPairing,
    Scoring,
    validate_histories,
)
from tournaments.pairing.trf import _xxs_line, player_line

# The rule texts a Swiss can be paired by (``Tournament.pairing_rules``).
DUTCH_2026 = "dutch-2026"  # C.04.3 as in force from 1 February 2026: dutch2026.py
DUTCH_UNTIL_2026 = "dutch-until-2026"  # the 2017 text, in force until 31 January 2026: py4swiss
RULESETS = (DUTCH_2026, DUTCH_UNTIL_2026)


def engine_trf(
    players: Sequence[PairingPlayer],
    *,
    round_number: int,
    total_rounds: int,
    scoring: Scoring,
    first_colour: str,
    forbidden_pairs: Iterable[tuple[int, int]],
) -> str:
    """The TRF text py4swiss pairs: histories before ``round_number``, absences as ``Z``."""
    ordered = sorted(players, key=lambda p: p.number)
    numbers = {p.number for p in ordered}
    lines = ["012 Sumito pairing"]
    for player in ordered:
        by_round = {e.round: e for e in player.history}
        entries = []
        for r in range(1, round_number):
            entries.append(by_round.get(r) or RoundEntry(r, None, None, "Z"))
        tenths = sum(round(scoring.of(e) * 10) for e in entries)
        lines.append(player_line(player.number, player.name, 0, tenths, 0, entries))
    lines.append(f"XXR {total_rounds}")
    lines.append("XXC white1" if first_colour == BLACK else "XXC black1")
    xxs = _xxs_line(scoring)
    if xxs:
        lines.append(xxs)
    absent = [p.number for p in ordered if not p.available]
    if absent:
        lines.append("XXZ " + " ".join(str(n) for n in absent))
    for a, b in sorted({tuple(sorted(pair)) for pair in forbidden_pairs}):
        if a in numbers and b in numbers:
            lines.append(f"XXP {a} {b}")
    return "\n".join(lines) + "\n"


def parse_engine_trf(text: str) -> ParsedTrf:
    """Parse TRF text with py4swiss's section parsers (what ``TrfParser.parse`` does for a
    file), without its cross-player validation."""
    by_type: dict[type, list[TrfLine]] = {PlayerCode: [], TournamentCode: [], XCode: []}
    for index, raw in enumerate(text.split("\n")):
        stripped = raw.strip()
        if not stripped:
            continue
        line = TrfLine(index, stripped)
        by_type.setdefault(line.code_type, []).append(line)
    return ParsedTrf(
        player_sections=[PlayerSection.from_string(str(line)) for line in by_type[PlayerCode]],
        tournament_section=TournamentSection.from_lines(by_type[TournamentCode]),
        x_section=XSection.from_lines(by_type[XCode]),
    )


def pair_swiss(
    players: Sequence[PairingPlayer],
    *,
    round_number: int,
    total_rounds: int,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen dataclass, safe as a default
    first_colour: str = BLACK,
    forbidden_pairs: Iterable[tuple[int, int]] = (),
    rules: str = DUTCH_2026,
    progress: Callable[[int, int], None] | None = None,
) -> RoundPairing:
    """Pair round ``round_number`` by the FIDE Dutch system, by the text ``rules`` names
    (:data:`DUTCH_2026`, the default, or :data:`DUTCH_UNTIL_2026`).  ``progress(placed,
    total)``, if given, hears how far the 2026 engine has got (it is not called by the other).

    ``players`` are everyone in the tournament (withdrawn players too, with
    ``available=False``); only entries for earlier rounds are used.  A player who already has
    an entry for ``round_number`` (a requested bye) must be marked unavailable.  Returns the
    pairs in board order, first mover (Black) first, the pairing-allocated bye if the number of
    available players is odd, and an explanation per player in ``notes``.  Raises
    :class:`PairingError` when the input is inconsistent or no pairing satisfies the absolute
    criteria.  Deterministic: the same input always gives the same pairing.
    """
    if first_colour not in (BLACK, WHITE):
        raise PairingError("first_colour must be 'b' or 'w'")
    if rules not in RULESETS:
        raise PairingError(f"unknown pairing rules {rules!r}: use one of {', '.join(RULESETS)}")
    if not 1 <= round_number <= total_rounds:
        raise PairingError(f"round {round_number} is outside 1..{total_rounds}")
    players = list(players)
    validate_histories(players)
    for player in players:
        if player.available and player.entry(round_number) is not None:
            raise PairingError(
                gettext_noop(
                    "player %(number)s (%(name)s) already has a result for round %(round)s; mark "
                    "them unavailable or remove that entry"
                ),
                number=player.number,
                name=player.name,
                round=round_number,
            )
    if rules != DUTCH_2026 and any(p.accelerations for p in players):
        raise PairingError(
            gettext_noop(
                "accelerated pairings (virtual points) follow the Dutch rules in force from "
                "2026; choose those rules for this event"
            )
        )
    forbidden_pairs = list(forbidden_pairs)
    known = {p.number for p in players}
    for pair in forbidden_pairs:
        if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= known:
            raise PairingError(f"forbidden pair {pair!r} does not name two different players")

    available = [p for p in players if p.available]
    if not available:
        return RoundPairing(pairs=[], bye=None, notes={})

    if rules == DUTCH_2026:
        pairs, bye = pair_dutch_2026(
            players,
            round_number=round_number,
            total_rounds=total_rounds,
            scoring=scoring,
            first_colour=first_colour,
            forbidden_pairs=forbidden_pairs,
            progress=progress,
        )
        return _explained(
            RoundPairing(pairs=pairs, bye=bye), players, scoring, round_number, first_colour,
            effective_numbers(players, round_number),
        )  # fmt: skip

    text = engine_trf(
        players,
        round_number=round_number,
        total_rounds=total_rounds,
        scoring=scoring,
        first_colour=first_colour,
        forbidden_pairs=forbidden_pairs,
    )
    try:
        parsed = parse_engine_trf(text)
    except ParsingError as error:  # our own writer produced something py4swiss rejects: a bug
        raise RuntimeError(f"py4swiss rejected the generated TRF: {error}") from error
    try:
        result = DutchEngine.generate_pairings(parsed)
    except Py4SwissPairingError:
        raise PairingError(
            gettext_noop(
                "round %(round)s cannot be paired: no pairing of the %(count)s available players "
                "avoids every rematch, a second pairing-allocated bye, an illegal colour sequence "
                "and the forbidden pairs"
            ),
            round=round_number,
            count=len(available),
        ) from None

    pairs: list[tuple[int, int]] = []
    bye = None
    for pairing in result:
        if pairing.black == 0:
            bye = pairing.white
        else:
            # py4swiss's "white" moves first: in Abalone that is Black.
            pairs.append((pairing.white, pairing.black))

    return _explained(RoundPairing(pairs=pairs, bye=bye), players, scoring, round_number,
                      first_colour)  # fmt: skip


def _explained(
    pairing: RoundPairing,
    players: Sequence[PairingPlayer],
    scoring: Scoring,
    round_number: int,
    first_colour: str,
    parity: dict[int, int] | None = None,
) -> RoundPairing:
    pairing.notes = explain_pairing(
        players, pairing, scoring=scoring, round_number=round_number,
        first_colour=first_colour, parity=parity,
    )  # fmt: skip
    return pairing
