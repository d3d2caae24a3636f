"""Human explanations of a Swiss round's pairing, one sentence per player.

Public API: :func:`explain_pairing` ``(players, pairing, *, scoring, round_number=None,
first_colour="b") -> dict[int, Text]``; helpers :func:`colour_preference` (C.04.3 A.6) and
:func:`colour_rule` (which of E.1-E.5 decides a pair, and who moves first by it).

The explanation is reconstructed from the scores and colour histories, not from the engine's
internal trace, so it only states what can be read off the result:

- the score group, and whether the player floated down or up (with the bracket's size when it
  was odd, otherwise "no legal partner was left in the group");
- the colour and which FIDE colour rule (C.04.3 E.1-E.5) decided it, replaying exactly the
  rules py4swiss applies: both preferences granted; the stronger preference (absolute after
  two games in a row with one colour or a colour difference of two, strong at a difference of
  one, mild otherwise); alternation from the last round in which the two had different colours;
  the higher-ranked player's preference; finally the initial colour by pairing-number parity;
- the pairing-allocated bye, or why a player was not paired.

Colours are named the Abalone way: Black moves first (FIDE's White).

Each explanation is a :class:`~core.messages.Text`: English templates with named values
(``str`` gives the English), which the site keeps as data (``Text.to_data``) and shows in each
reader's language, as it shows the engines' errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import Number, Term, Text, gettext_noop
from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingPlayer,
    RoundPairing,
    Scoring,
    pairing_score,
    played_colours,
)

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
_COLOUR_NAME = {
    BLACK: Term(gettext_noop("Black (moves first)")),
    WHITE: Term(gettext_noop("White (moves second)")),
}
_COLOUR_WORD = {BLACK: Term(gettext_noop("Black")), WHITE: Term(gettext_noop("White"))}
_BYE_REASONS = {
    "H": gettext_noop("requested a half-point bye"),
    "F": gettext_noop("has a full-point bye"),
    "Z": gettext_noop("is absent (zero-point bye)"),
    "U": gettext_noop("already has a pairing-allocated bye"),
    "+": gettext_noop("already has a forfeit win"),
    "-": gettext_noop("is recorded with a forfeit loss"),
}

# E.5's reason, by (odd pairing number, counted only among those taking part).
_PARITY_REASONS = {
    (True, False): gettext_noop(
        "no colour preference on either side: the higher-ranked player (%(number)s) has an odd "
        "pairing number, so takes %(colour)s"
    ),
    (False, False): gettext_noop(
        "no colour preference on either side: the higher-ranked player (%(number)s) has an even "
        "pairing number, so takes %(colour)s"
    ),
    (True, True): gettext_noop(
        "no colour preference on either side: the higher-ranked player (%(number)s) has an odd "
        "pairing number (%(counted)s counting only those taking part), so takes %(colour)s"
    ),
    (False, True): gettext_noop(
        "no colour preference on either side: the higher-ranked player (%(number)s) has an even "
        "pairing number (%(counted)s counting only those taking part), so takes %(colour)s"
    ),
}


def _points(value: float) -> Text:
    if value == 1:
        return Text(gettext_noop("1 point"))
    return Text(gettext_noop("%(points)s points"), points=Number(f"{value:g}"))


def _group(value: float) -> Text:
    return Text(gettext_noop("the %(points)s-point group"), points=Number(f"{value:g}"))


@dataclass(frozen=True, slots=True)
class _Preference:
    side: str | None  # the colour the player would like, in Abalone colours
    strength: int
    difference: int  # games as first mover minus games as second mover
    double: bool  # the last two games played were with the same colour
    colours: tuple[str, ...]

    def describe(self) -> Text:
        if self.strength == ABSOLUTE:
            if abs(self.difference) > 1:
                return Text(
                    gettext_noop("absolute preference (colour difference %(difference)s)"),
                    difference=f"{self.difference:+d}",
                )
            return Text(gettext_noop("absolute preference (same colour in the last two games)"))
        if self.strength == STRONG:
            return Text(
                gettext_noop("strong preference (colour difference %(difference)s)"),
                difference=f"{self.difference:+d}",
            )
        if self.strength == MILD:
            return Text(gettext_noop("mild preference (alternating from the last game)"))
        return Text(gettext_noop("no colour preference (no game played yet)"))


def colour_preference(player: PairingPlayer, round_number: int) -> _Preference:
    """FIDE C.04.3 A.6 colour preference, from the games played over the board."""
    colours = tuple(played_colours(player, round_number))
    difference = colours.count(BLACK) - colours.count(WHITE)
    double = len(colours) > 1 and colours[-1] == colours[-2]
    if difference > 0:
        side: str | None = WHITE
    elif difference < 0:
        side = BLACK
    elif colours:
        side = WHITE if colours[-1] == BLACK else BLACK
    else:
        side = None
    if abs(difference) > 1 or double:
        strength = ABSOLUTE
    elif abs(difference) == 1:
        strength = STRONG
    elif side is not None:
        strength = MILD
    else:
        strength = NONE
    return _Preference(side, strength, difference, double, colours)


def _other(colour: str) -> str:
    return WHITE if colour == BLACK else BLACK


def colour_rule(
    a: int,
    b: int,
    prefs: dict[int, _Preference],
    rank_key: dict[int, tuple[float, int]],
    first_colour: str,
    parity: dict[int, int] | None = None,
) -> tuple[str, int, str]:
    """Which FIDE colour rule decides a pair, who moves first by it, and why in a few words.

    Replays C.04.3 E.1-E.5 (5.2.1-5.2.5 in the 2026 text) as the engines apply them (the
    tests check that the prediction matches their colours over many simulated events).
    ``parity`` maps pairing numbers to the numbers whose parity E.5 reads (the 2026 engine
    counts only the players taking part, as bbpPairings does); by default the numbers
    themselves.
    """
    higher, lower = sorted((a, b), key=lambda n: rank_key[n], reverse=True)
    ph, pl = prefs[higher], prefs[lower]

    def mover(number: int, colour: str | None) -> int:
        other = lower if number == higher else higher
        return number if colour == BLACK else other

    # E.1 both preferences can be granted.
    if ph.side and pl.side and ph.side != pl.side:
        return "E.1", mover(higher, ph.side), "both preferences granted"
    # E.2 the stronger preference wins; two absolute ones: the wider colour difference.
    if ph.strength != pl.strength:
        winner = higher if ph.strength > pl.strength else lower
        return "E.2", mover(winner, prefs[winner].side), "stronger preference"
    if ph.strength == ABSOLUTE and abs(ph.difference) != abs(pl.difference):
        winner = higher if abs(ph.difference) > abs(pl.difference) else lower
        return "E.2", mover(winner, prefs[winner].side), "larger colour difference"
    # E.3 alternate from the most recent round in which they had different colours.
    for colour_h, colour_l in zip(reversed(ph.colours), reversed(pl.colours), strict=False):
        if colour_h != colour_l:
            return "E.3", mover(higher, _other(colour_h)), "alternation"
    # E.4 the higher-ranked player's preference.
    if ph.side is not None:
        return "E.4", mover(higher, ph.side), "higher-ranked player's preference"
    # E.5 the higher-ranked player's pairing number: odd takes the initial colour.
    odd = (parity or {}).get(higher, higher) % 2
    colour = first_colour if odd else _other(first_colour)
    return "E.5", mover(higher, colour), "pairing-number parity"


def _colour_reasons(
    first: int,
    second: int,
    prefs: dict[int, _Preference],
    rank_key: dict[int, tuple[float, int]],
    first_colour: str,
    parity: dict[int, int] | None,
) -> dict[int, Text]:
    """Why ``first`` got Black and ``second`` White, following E.1-E.5 in order."""
    got = {first: BLACK, second: WHITE}
    higher, lower = sorted((first, second), key=lambda n: rank_key[n], reverse=True)
    rule, predicted_first, why = colour_rule(first, second, prefs, rank_key, first_colour, parity)

    def own(number: int) -> Text:
        pref = prefs[number]
        if pref.side is None:
            return Text(gettext_noop("no colour preference of their own (no game played yet)"))
        if pref.side == got[number]:
            return Text(gettext_noop("as wanted: %(preference)s"), preference=pref.describe())
        return Text(gettext_noop("against their wish: %(preference)s"), preference=pref.describe())

    def with_own(number: int, reason: str) -> Text:
        return Text(gettext_noop("%(own)s; %(reason)s"), own=own(number), reason=Text(reason))

    if predicted_first != first:
        text = gettext_noop("colours as set for this board, not those the FIDE colour rules give")
        return {n: with_own(n, text) for n in (first, second)}
    if rule == "E.1":
        return {n: with_own(n, gettext_noop("both preferences granted")) for n in (first, second)}
    if rule == "E.2":
        ph, pl = prefs[higher], prefs[lower]
        if ph.strength != pl.strength:
            winner = higher if ph.strength > pl.strength else lower
        else:
            winner = higher if abs(ph.difference) > abs(pl.difference) else lower
        loser = lower if winner == higher else higher
        if why == "stronger preference":
            granted = gettext_noop("the stronger preference is granted")
            lost = gettext_noop("the opponent's stronger preference is granted")
        else:
            granted = gettext_noop("the larger colour difference is granted")
            lost = gettext_noop("the opponent's larger colour difference is granted")
        reasons = {winner: with_own(winner, granted)}
        if prefs[loser].side is None:
            reasons[loser] = Text(
                gettext_noop("no colour preference: the opponent's preference is granted")
            )
        else:
            reasons[loser] = with_own(loser, lost)
        return reasons
    if rule == "E.3":
        text = gettext_noop(
            "equal preferences, so colours alternate from the last game in which the two "
            "had different colours"
        )
        return {n: with_own(n, text) for n in (first, second)}
    if rule == "E.4":
        return {
            higher: with_own(
                higher, gettext_noop("equal preferences: the higher-ranked player's wins")
            ),
            lower: with_own(
                lower, gettext_noop("equal preferences: the higher-ranked opponent's wins")
            ),
        }
    effective = (parity or {}).get(higher, higher)
    template = _PARITY_REASONS[bool(effective % 2), effective != higher]
    text = Text(template, number=higher, counted=effective, colour=_COLOUR_WORD[got[higher]])
    return {first: text, second: text}


def explain_pairing(
    players: Sequence[PairingPlayer],
    pairing: RoundPairing,
    *,
    scoring: Scoring,
    round_number: int | None = None,
    first_colour: str = BLACK,
    parity: dict[int, int] | None = None,
) -> dict[int, Text]:
    """One sentence per player of ``players`` explaining their place in ``pairing``.

    ``round_number`` defaults to one after the last round present in the available players'
    histories.  Players neither paired nor given the bye are explained from their entry for
    the round (requested bye, absence) or as withdrawn.
    """
    if round_number is None:
        round_number = 1 + max(
            (e.round for p in players if p.available for e in p.history), default=0
        )
    by_number = {p.number: p for p in players}
    score = {p.number: pairing_score(p, round_number, scoring) for p in players}
    prefs = {p.number: colour_preference(p, round_number) for p in players}
    rank_key = {n: (score[n], -n) for n in by_number}
    opponent: dict[int, int | None] = {}
    for a, b in pairing.pairs:
        opponent[a], opponent[b] = b, a
    if pairing.bye is not None:
        opponent[pairing.bye] = None
    in_round = set(opponent)
    # The lowest score each player's game reaches: the opponent's, or -1 for the bye.
    reached = {
        n: -1.0 if other is None else min(score[n], score[other]) for n, other in opponent.items()
    }

    # Bracket sizes: residents of a score group plus players from higher groups that passed
    # through it (paired lower down, or given the bye).
    def bracket_size(group_score: float) -> int:
        residents = sum(1 for n in in_round if score[n] == group_score)
        passing = sum(1 for n in in_round if score[n] > group_score >= reached[n])
        return residents + passing

    notes: dict[int, Text] = {}
    colour_reasons: dict[int, Text] = {}
    for first, second in pairing.pairs:
        colour_reasons.update(_colour_reasons(first, second, prefs, rank_key, first_colour, parity))

    for number in sorted(by_number):
        player = by_number[number]
        own_score = score[number]
        if number not in in_round:
            entry = player.entry(round_number)
            if entry is None:
                why = Text(gettext_noop("withdrawn or unavailable"))
            elif entry.result in _BYE_REASONS:
                why = Text(_BYE_REASONS[entry.result])
            else:
                why = Text(gettext_noop("has result %(result)r"), result=entry.result)
            notes[number] = Text(
                gettext_noop("Not paired in round %(round)s: %(why)s."), round=round_number, why=why
            )
            continue
        if opponent[number] is None:
            size = bracket_size(own_score)
            if size > 1:
                template = gettext_noop(
                    "In %(group)s; gets the pairing-allocated bye (%(points)s): an odd number of "
                    "players (%(players)s) had to be paired, and the bye goes to a player of the "
                    "lowest group possible who has had neither a bye nor a forfeit win (the group "
                    "had %(size)s players)."
                )
            else:
                template = gettext_noop(
                    "In %(group)s; gets the pairing-allocated bye (%(points)s): an odd number of "
                    "players (%(players)s) had to be paired, and the bye goes to a player of the "
                    "lowest group possible who has had neither a bye nor a forfeit win."
                )
            notes[number] = Text(
                template,
                group=_group(own_score),
                points=_points(scoring.pab),
                players=len(in_round),
                size=size,
            )
            continue
        other = opponent[number]
        assert other is not None
        other_score = score[other]
        colour = BLACK if (number, other) in pairing.pairs else WHITE
        if own_score == other_score:
            where = Text(
                gettext_noop("Paired within %(group)s against %(other)s"),
                group=_group(own_score),
                other=other,
            )
        elif own_score > other_score:
            size = bracket_size(own_score)
            if size % 2:
                reason = Text(
                    gettext_noop("the group had an odd number of players (%(size)s)"), size=size
                )
            else:
                reason = Text(
                    gettext_noop(
                        "no legal partner was left in the group (earlier meetings, colours, "
                        "or the pairing of the groups below)"
                    )
                )
            where = Text(
                gettext_noop(
                    "Floated down from %(group)s to meet %(other)s (%(points)s): %(reason)s"
                ),
                group=_group(own_score),
                other=other,
                points=_points(other_score),
                reason=reason,
            )
        else:
            where = Text(
                gettext_noop(
                    "Floated up from %(group)s to meet %(other)s, who floated down from "
                    "%(other_group)s"
                ),
                group=_group(own_score),
                other=other,
                other_group=_group(other_score),
            )
        notes[number] = Text(
            gettext_noop("%(where)s. Plays %(colour)s, %(reason)s."),
            where=where,
            colour=_COLOUR_NAME[colour],
            reason=colour_reasons[number],
        )
    return notes
