"""Value types shared by the pairing engines, the TRF reader/writer and the explanations.

Colours are Abalone colours: ``"b"`` is Black, the side that moves first, which plays the role of
FIDE's "White" in every pairing rule; ``"w"`` is White, the second mover (FIDE's "Black").
Only the TRF reader/writer translate to and from the FIDE letters.

Result codes are the TRF-16 codes, from the player's point of view:

========  =================================================================================
``"1"``   won a game played over the board
``"="``   drew a game played over the board
``"0"``   lost a game played over the board
``"+"``   forfeit win (opponent set, or ``None`` when there was no scheduled opponent)
``"-"``   forfeit loss (opponent set, or ``None``)
``"H"``   half-point bye (requested)
``"F"``   full-point bye (requested / granted by the arbiter)
``"U"``   pairing-allocated bye (points as :attr:`Scoring.pab` says)
``"Z"``   zero-point bye or absence
========  =================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.messages import MessageError, Text, gettext_noop

# The site's one definition of the colours, re-exported for the pairing engines.
from games.engine.position import BLACK as BLACK
from games.engine.position import COLOURS as COLOURS
from games.engine.position import WHITE as WHITE

PLAYED_RESULTS = frozenset({"1", "=", "0"})
FORFEIT_RESULTS = frozenset({"+", "-"})
BYE_RESULTS = frozenset({"H", "F", "U", "Z"})
RESULT_CODES = PLAYED_RESULTS | FORFEIT_RESULTS | BYE_RESULTS

# The result the opponent must have recorded for the same game.
MIRROR_RESULTS = {
    "1": frozenset({"0"}),
    "0": frozenset({"1"}),
    "=": frozenset({"="}),
    "+": frozenset({"-"}),
    "-": frozenset({"+", "-"}),  # a double forfeit is two forfeit losses
}


class PairingError(MessageError):
    """No legal pairing exists, or the input cannot be paired; the message is for the organiser
    (an English template the site translates, as the rules engine's: ``core.messages``)."""


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one player's history.

    ``opponent`` is the opponent's pairing number (``None`` for byes and absences), ``colour``
    the colour the player had (``"b"`` = moved first), ``result`` a TRF result code (see the
    module docstring). ``points``, when set, are the points the round scored instead of the
    result's (a match round scored by game points: :mod:`tournaments.pairing.matches`).
    """

    round: int
    opponent: int | None
    colour: str | None
    result: str
    points: float | None = None

    def __post_init__(self) -> None:
        if self.round < 1:
            raise PairingError(
                gettext_noop("round numbers start at 1, got %(round)s"), round=self.round
            )
        if self.result not in RESULT_CODES:
            raise PairingError(
                gettext_noop("unknown result code %(result)r (use one of %(codes)s)"),
                subject=Text(gettext_noop("round %(round)s"), round=self.round),
                result=self.result,
                codes=" ".join(sorted(RESULT_CODES)),
            )
        if self.colour is not None and self.colour not in COLOURS:
            raise PairingError(
                gettext_noop("colour must be 'b', 'w' or None"),
                subject=Text(gettext_noop("round %(round)s"), round=self.round),
            )
        if self.result in PLAYED_RESULTS and (self.opponent is None or self.colour is None):
            raise PairingError(
                gettext_noop("a game played over the board needs an opponent and a colour"),
                subject=Text(gettext_noop("round %(round)s"), round=self.round),
            )
        if self.result in BYE_RESULTS and self.opponent is not None:
            raise PairingError(
                gettext_noop("a bye (%(result)s) has no opponent"),
                subject=Text(gettext_noop("round %(round)s"), round=self.round),
                result=self.result,
            )
        if self.points is not None and (self.points < 0 or self.opponent is None):
            raise PairingError(
                gettext_noop("only a match against an opponent scores its own points (>= 0)"),
                subject=Text(gettext_noop("round %(round)s"), round=self.round),
            )

    @property
    def played(self) -> bool:
        """True when the game was played over the board (it counts for colours and rematches)."""
        return self.result in PLAYED_RESULTS


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """A player as the pairing engines see them.

    ``number`` is the pairing number (1-based, from the initial order); ``available=False``
    means "do not pair this round" (withdrawn, or a requested bye that the caller has already
    entered in ``history`` for the round being paired). ``accelerations`` are the virtual
    points added to the player's score when pairing round 1, 2, ... (an accelerated Swiss,
    C.04.5.1; none after the tuple's end); they never count in standings.
    """

    number: int
    name: str
    rating: int
    history: tuple[RoundEntry, ...] = ()
    available: bool = True
    accelerations: tuple[float, ...] = ()

    def entry(self, round_number: int) -> RoundEntry | None:
        for entry in self.history:
            if entry.round == round_number:
                return entry
        return None


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per result. A forfeit win and a full-point bye score ``win``, a half-point bye
    ``draw``, a forfeit loss and a zero-point bye nothing, a pairing-allocated bye ``pab``."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    pab: float = 1.0

    def points(self, result: str) -> float:
        """Points a player earns for one round with this TRF result code."""
        if result in ("1", "+", "F"):
            return self.win
        if result in ("=", "H"):
            return self.draw
        if result == "0":
            return self.loss
        if result == "U":
            return self.pab
        if result in ("-", "Z"):
            return 0.0
        raise PairingError(gettext_noop("unknown result code %(result)r"), result=result)

    def of(self, entry) -> float:
        """Points of one round's entry: its own ``points`` when it has them (a match scored
        by game points), else its result's."""
        points = getattr(entry, "points", None)
        return self.points(entry.result) if points is None else points

    def tenths(self) -> dict[str, int]:
        """The four values in tenths of a point, as TRF files store them.

        Raises :class:`PairingError` for values TRF cannot express (negative, or finer than 0.1).
        """
        values = {"win": self.win, "draw": self.draw, "loss": self.loss, "pab": self.pab}
        out = {}
        for name, value in values.items():
            scaled = round(value * 10)
            if value < 0 or abs(scaled - value * 10) > 1e-9:
                raise PairingError(
                    gettext_noop(
                        "scoring: %(name)s = %(value)s cannot be written to a TRF file "
                        "(use a non-negative multiple of 0.1)"
                    ),
                    name=name,
                    value=value,
                )
            out[name] = scaled
        return out


@dataclass(slots=True)
class RoundPairing:
    """A round's pairing: ``pairs`` are (first mover = Black, second mover = White) pairing
    numbers in board order, ``bye`` the player given the pairing-allocated bye, ``notes`` a
    human explanation per player, an English template the site translates (see
    :func:`tournaments.pairing.explain_pairing`)."""

    pairs: list[tuple[int, int]]
    bye: int | None = None
    notes: dict[int, Text] = field(default_factory=dict)


def score_before(player: PairingPlayer, round_number: int, scoring: Scoring) -> float:
    """The player's points from the rounds before ``round_number``."""
    return sum(scoring.of(e) for e in player.history if e.round < round_number)


def pairing_score(player: PairingPlayer, round_number: int, scoring: Scoring) -> float:
    """The score ``round_number`` is paired by: the points before it plus the virtual points
    of an accelerated round (C.04.5.1)."""
    virtual = player.accelerations
    extra = virtual[round_number - 1] if 0 < round_number <= len(virtual) else 0.0
    return score_before(player, round_number, scoring) + extra


def played_colours(player: PairingPlayer, round_number: int) -> list[str]:
    """Colours of the games played over the board before ``round_number``, oldest first."""
    entries = sorted(
        (e for e in player.history if e.round < round_number and e.played), key=lambda e: e.round
    )
    return [e.colour for e in entries if e.colour is not None]


def validate_histories(players: list[PairingPlayer] | tuple[PairingPlayer, ...]) -> None:
    """Check that the players' histories agree with each other; raise :class:`PairingError`.

    Pairing numbers must be unique and positive; each round appears at most once per player;
    every game names an existing opponent whose entry for that round names the player back with
    a matching result and, for games played over the board, the other colour.
    """
    by_number: dict[int, PairingPlayer] = {}
    for player in players:
        if player.number < 1:
            raise PairingError(
                gettext_noop("pairing numbers start at 1, got %(number)s (%(name)s)"),
                number=player.number,
                name=player.name,
            )
        if player.number in by_number:
            raise PairingError(
                gettext_noop("pairing number %(number)s is used twice"), number=player.number
            )
        by_number[player.number] = player
    for player in players:
        seen: set[int] = set()
        for entry in player.history:
            if entry.round in seen:
                raise PairingError(
                    gettext_noop("player %(number)s has two entries for round %(round)s"),
                    number=player.number,
                    round=entry.round,
                )
            seen.add(entry.round)
            if entry.opponent is None:
                continue
            opponent = by_number.get(entry.opponent)
            where = {"round": entry.round, "number": player.number}
            if opponent is None:
                raise PairingError(
                    gettext_noop(
                        "round %(round)s: player %(number)s met unknown player %(opponent)s"
                    ),
                    opponent=entry.opponent,
                    **where,
                )
            if entry.opponent == player.number:
                raise PairingError(
                    gettext_noop("round %(round)s: player %(number)s cannot meet themselves"),
                    **where,
                )
            mirror = opponent.entry(entry.round)
            if mirror is None or mirror.opponent != player.number:
                raise PairingError(
                    gettext_noop(
                        "round %(round)s: player %(number)s met %(opponent)s, but %(opponent)s's "
                        "history does not say so"
                    ),
                    opponent=entry.opponent,
                    **where,
                )
            if mirror.result not in MIRROR_RESULTS[entry.result]:
                raise PairingError(
                    gettext_noop(
                        "round %(round)s: player %(number)s has result %(result)r against "
                        "%(opponent)s, who has %(theirs)r"
                    ),
                    result=entry.result,
                    opponent=entry.opponent,
                    theirs=mirror.result,
                    **where,
                )
            if entry.played and (mirror.colour == entry.colour):
                raise PairingError(
                    gettext_noop(
                        "round %(round)s: player %(number)s and %(opponent)s are both recorded "
                        "with colour %(colour)r"
                    ),
                    opponent=entry.opponent,
                    colour=entry.colour,
                    **where,
                )
