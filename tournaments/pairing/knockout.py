"""Knockout cups: a seeded bracket, each pairing a match with tie-break games. Pure Python, no
Django.

**The bracket.** ``N`` entrants are seeded 1..N (by rating, the director's order otherwise)
into a bracket of the next power of two, ``size``. The standard placement puts seed 1 against
the last seed, and keeps the top seeds apart until the latest rounds: 1 and 2 can meet only in
the final, 1-4 only from the semi-finals, 1-8 from the quarter-finals (:func:`bracket_order`,
the order tennis and chess cups use: 1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11 for
16). The ``size - N`` places after the last seed are byes, so the byes go to the top seeds
(seed 1 meets "seed ``size``", which does not exist). The winners of slots ``2k`` and ``2k+1``
meet in the next round; the round of two is the final, and the two losing semi-finalists may
play for third place.

**A pairing** is a match (:mod:`tournaments.pairing.matches`): ``games`` games with the
colours alternating, game 1 with the pairing's colours. The higher seed is the pairing's
Black, its first mover in game 1, in the first round, and in later rounds the better-seeded
of the two. When the match is tied the director's :class:`TieBreakRule` decides it:

1. ``rapid_matches`` tie-break matches of ``rapid_games`` games each at a faster clock, the
   colours still alternating (game numbers go on after the match's), each decided on its own
   (the first one won decides);
2. then up to ``sudden_death`` games, one at a time, the first decisive game deciding;
3. then the ``decider``: :data:`ARMAGEDDON` (one last game in which a draw is a win for its
   second mover, who has the worse of the first move: the usual last word in chess cups),
   :data:`HIGHER_SEED` (the better seed goes through), or :data:`LOT` (the director draws
   lots; the engine says it is needed).

A forfeit counts as the game's result (a forfeit win a win); a double forfeit puts both out,
so their slot sends nobody to the next round and the next opponent goes through unplayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from core.messages import Text, gettext_noop
from tournaments.pairing.matches import MAX_GAMES, game_sides, match_score
from tournaments.pairing.model import PairingError

K = TypeVar("K")

ARMAGEDDON = "armageddon"
HIGHER_SEED = "higher_seed"
LOT = "lot"
DECIDERS = (ARMAGEDDON, HIGHER_SEED, LOT)
#: The most entrants a bracket takes.
MAX_ENTRANTS = 1024

#: The stage of a decision: the match goes on (``game`` names the next game), or it is over.
#: The most games one pairing can have: its match, 4 tie-break matches of 8 games, 10
#: sudden-death games and an Armageddon (the ranges of :class:`TieBreakRule`).
MAX_PAIRING_GAMES = MAX_GAMES + 4 * MAX_GAMES + 10 + 1

PLAY = "play"
DECIDED = "decided"
BOTH_OUT = "both_out"
DRAW_LOTS = "draw_lots"

#: The kinds of games of a knockout pairing.
MATCH_GAME = "match"
RAPID_GAME = "rapid"
SUDDEN_DEATH_GAME = "sudden_death"
ARMAGEDDON_GAME = "armageddon"


def bracket_size(entrants: int) -> int:
    """The bracket's size: the smallest power of two with room for ``entrants`` (at least 2)."""
    if not 2 <= entrants <= MAX_ENTRANTS:
        raise PairingError(
            gettext_noop("a knockout bracket takes 2 to %(max)s entrants, not %(count)s"),
            max=MAX_ENTRANTS,
            count=entrants,
        )
    size = 2
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of ``size`` places: places ``2k`` and
    ``2k+1`` meet in round 1, and seeds ``s`` and ``size+1-s`` share a pairing."""
    if size < 2 or size & (size - 1):
        raise PairingError(
            gettext_noop("a bracket's size is a power of two, not %(size)s"), size=size
        )
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def rounds_of(entrants: int) -> int:
    """How many rounds the cup has (the final included, the match for third place not)."""
    return bracket_size(entrants).bit_length() - 1


def round_name(round_number: int, rounds: int) -> Text:
    """The round's usual name (final, semi-finals, quarter-finals, round of 2^k), a
    :class:`Text` the pages show in the reader's language."""
    left = rounds - round_number
    if left < 0 or round_number < 1:
        raise PairingError(
            gettext_noop("a cup of %(rounds)s rounds has no round %(round)s"),
            rounds=rounds,
            round=round_number,
        )
    if left == 0:
        return Text(gettext_noop("Final"))
    if left == 1:
        return Text(gettext_noop("Semi-finals"))
    if left == 2:
        return Text(gettext_noop("Quarter-finals"))
    return Text(gettext_noop("Round of %(players)s"), players=2 ** (left + 1))


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pairing of a round: ``slot`` counts from 0 in bracket order; ``black`` and
    ``white`` are seeds (``black`` the better), ``white`` None for a bye, both None for a slot
    nobody reached (both players before it were out)."""

    slot: int
    black: int | None
    white: int | None

    @property
    def is_bye(self) -> bool:
        return self.black is not None and self.white is None


def first_round(entrants: int) -> list[Pairing]:
    """Round 1 of a bracket of ``entrants`` seeds: the top seeds get the byes."""
    size = bracket_size(entrants)
    order = bracket_order(size)
    pairings = []
    for slot in range(size // 2):
        one, two = order[2 * slot], order[2 * slot + 1]
        high, low = min(one, two), max(one, two)
        pairings.append(Pairing(slot, high, low if low <= entrants else None))
    return pairings


def next_round(winners: Sequence[int | None]) -> list[Pairing]:
    """The next round from the winners of the round's slots in order (None: nobody went
    through, after a double forfeit or an empty slot)."""
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError(
            gettext_noop("a round's winners come in pairs, not %(count)s"), count=len(winners)
        )
    pairings = []
    for slot in range(len(winners) // 2):
        present = sorted(w for w in winners[2 * slot : 2 * slot + 2] if w is not None)
        black = present[0] if present else None
        white = present[1] if len(present) == 2 else None
        pairings.append(Pairing(slot, black, white))
    return pairings


def third_place(semi_finals: Sequence[Pairing], winners: Sequence[int | None]) -> Pairing | None:
    """The match for third place between the semi-finals' losers, if both played a match
    (a bye or a double forfeit leaves no loser to play it)."""
    losers = []
    for pairing, winner in zip(semi_finals, winners, strict=True):
        if pairing.white is None or pairing.black is None or winner is None:
            return None
        losers.append(pairing.white if winner == pairing.black else pairing.black)
    black, white = sorted(losers)
    return Pairing(0, black, white)


def round_pairings(
    entrants: int,
    number: int,
    rounds: int,
    previous: Sequence[tuple[Pairing, int | None]],
    with_third_place: bool,
) -> list[Pairing]:
    """Round ``number`` of a cup of ``entrants`` seeds in ``rounds`` rounds: round 1 from the
    seeds; a later one from ``previous``, the last round's pairings each with the seed it sent
    on (None: nobody), slot by slot; the final with the match for third place (slot 1) when
    ``with_third_place`` and both semi-finals were played."""
    if number == 1:
        return first_round(entrants)
    slots = len(first_round(entrants)) >> (number - 2)
    winners: list[int | None] = [None] * slots
    for pairing, winner in previous:
        if pairing.slot < slots:
            winners[pairing.slot] = winner
    pairings = next_round(winners)
    if number == rounds and with_third_place and slots == 2 and len(previous) == 2:
        third = third_place([pairing for pairing, _ in previous], winners)
        if third is not None:
            pairings.append(Pairing(1, third.black, third.white))
    return pairings


def final_places(
    losers: Sequence[Sequence[K]], winner: K, third_place: tuple[K, K] | None = None
) -> list[tuple[int, int, K]]:
    """The cup's final places once its final is decided: ``(first, last, side)``, ``first <
    last`` for a place shared. The winner 1st and the final's loser 2nd; the semi-finals'
    losers 3rd and 4th by the match for third place (``third_place``: its winner, its loser),
    else sharing 3rd-4th; the losers of each earlier round sharing the next places (5th-8th
    for the quarter-finals in a full bracket, fewer with byes), a round's losers in the order
    given. ``losers[i]`` are round ``i + 1``'s (the final's last; both sides of a double
    forfeit are losers of their round)."""
    places: list[tuple[int, int, K]] = [(1, 1, winner)]
    place = 2
    for back, round_losers in enumerate(reversed(losers)):
        if back == 1 and third_place is not None:
            places += [(place, place, third_place[0]), (place + 1, place + 1, third_place[1])]
            rest = [side for side in round_losers if side not in third_place]
            place += 2
        else:
            rest = list(round_losers)
        last = place + len(rest) - 1
        places += [(place, last, side) for side in rest]
        place += len(rest)
    return places


@dataclass(frozen=True, slots=True)
class TieBreakRule:
    """How a knockout pairing is played and a tie broken (see the module's text)."""

    games: int = 2
    rapid_matches: int = 1
    rapid_games: int = 2
    sudden_death: int = 1
    decider: str = ARMAGEDDON

    def check(self) -> None:
        """Raise :class:`PairingError` naming the first setting out of range."""
        for name, value, low, high in (
            ("games", self.games, 1, MAX_GAMES),
            ("rapid_matches", self.rapid_matches, 0, 4),
            ("rapid_games", self.rapid_games, 1, MAX_GAMES),
            ("sudden_death", self.sudden_death, 0, 10),
        ):
            if not low <= value <= high:
                raise PairingError(
                    gettext_noop("%(name)s is %(low)s to %(high)s, not %(value)s"),
                    name=name,
                    low=low,
                    high=high,
                    value=value,
                )
        if self.decider not in DECIDERS:
            raise PairingError(
                gettext_noop("unknown decider %(decider)r (use %(deciders)s)"),
                decider=self.decider,
                deciders=", ".join(DECIDERS),
            )


@dataclass(frozen=True, slots=True)
class Decision:
    """Where a knockout pairing stands. ``stage`` :data:`PLAY`: the next game is ``number``
    (1-based over all the pairing's games) of ``kind``, its first mover ``first`` (``"black"``
    or ``"white"``: the pairing's side). :data:`DECIDED`: ``winner`` (the pairing's side) goes
    through, ``by`` the kind of game or rule that decided. :data:`BOTH_OUT` after a double
    forfeit; :data:`DRAW_LOTS` when the director must draw lots. ``black``/``white`` the
    match's game points."""

    stage: str
    black: float
    white: float
    winner: str | None = None
    by: str | None = None
    number: int | None = None
    kind: str | None = None
    first: str | None = None


def decide(rule: TieBreakRule, results: Sequence[str], higher_seed: str = "black") -> Decision:
    """The state of a pairing whose games so far have ``results`` (each from its own first
    mover's side, in order: the match's games, then the tie-break games; no gaps, nothing
    after the deciding game)."""
    rule.check()
    if any(not result for result in results):
        raise PairingError(gettext_noop("a knockout pairing's results have no gaps"))
    decision, used = _decide(rule, list(results), higher_seed)
    if decision.stage != PLAY and len(results) > used:
        raise PairingError(
            gettext_noop("game %(game)s was played after the pairing was decided"), game=used + 1
        )
    return decision


def _decide(rule: TieBreakRule, results: list[str], higher_seed: str) -> tuple[Decision, int]:
    score = match_score(results[: rule.games], rule.games)
    if not score.complete:
        return _next(score, score.finished + 1, MATCH_GAME), score.finished
    if all(result == "--" for result in results[: rule.games]):
        return Decision(BOTH_OUT, score.black, score.white, by=MATCH_GAME), rule.games
    if score.black != score.white:
        side = "black" if score.black > score.white else "white"
        return _won(score, side, MATCH_GAME), rule.games
    number = rule.games
    # the rapid matches, each a match of its own whose game numbers go on after the match's
    for _ in range(rule.rapid_matches):
        block = results[number : number + rule.rapid_games]
        if "--" in block:  # both forfeited a tie-break game: both are out
            return Decision(BOTH_OUT, score.black, score.white, by=RAPID_GAME), number + (
                block.index("--") + 1
            )
        rapid = _score_from(block, number, rule.rapid_games)
        if not rapid.complete:
            return _next(score, number + len(block) + 1, RAPID_GAME), number + len(block)
        number += rule.rapid_games
        if rapid.black != rapid.white:
            side = "black" if rapid.black > rapid.white else "white"
            return _won(score, side, RAPID_GAME), number
    for kind, games in ((SUDDEN_DEATH_GAME, rule.sudden_death), (ARMAGEDDON_GAME, 1)):
        if kind == ARMAGEDDON_GAME and rule.decider != ARMAGEDDON:
            break
        for _ in range(games):
            if len(results) <= number:
                return _next(score, number + 1, kind), number
            number += 1
            result = results[number - 1]
            if result == "--":
                return Decision(BOTH_OUT, score.black, score.white, by=kind), number
            side = _decisive(result, number)
            if kind == ARMAGEDDON_GAME and side is None:
                # a draw is the second mover's, who had the worse of the first move
                side = game_sides("black", "white", number)[1]
            if side is not None:
                return _won(score, side, kind), number
    if rule.decider == HIGHER_SEED:
        return _won(score, higher_seed, HIGHER_SEED), number
    return Decision(DRAW_LOTS, score.black, score.white), number


def _score_from(block: Sequence[str], before: int, games: int):
    """A block of tie-break games scored from the pairing's side. The colours go on
    alternating after ``before`` games: after an odd number the block's first game has the
    pairing's colours swapped, so its first mover is the pairing's White."""
    score = match_score(block, games)
    if before % 2:
        return replace(score, black=score.white, white=score.black)
    return score


def _decisive(result: str, number: int) -> str | None:
    """The pairing's side that won game ``number``, or None for a draw or a double forfeit."""
    first, second = game_sides("black", "white", number)
    if result in ("1-0", "+-"):
        return first
    if result in ("0-1", "-+"):
        return second
    if result == "1/2-1/2":
        return None
    raise PairingError(
        gettext_noop("game %(game)s: unknown result %(result)r"), game=number, result=result
    )


def _next(score, number: int, kind: str) -> Decision:
    first, _ = game_sides("black", "white", number)
    return Decision(PLAY, score.black, score.white, number=number, kind=kind, first=first)


def _won(score, side: str, by: str) -> Decision:
    return Decision(DECIDED, score.black, score.white, winner=side, by=by)
