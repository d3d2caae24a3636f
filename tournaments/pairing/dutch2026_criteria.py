"""The FIDE (Dutch) System 2026, part 1: the players as the procedure sees them and the
criteria as bit fields of an edge weight (see :mod:`tournaments.pairing.dutch2026`).  Article
numbers are the 2026 text's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.model import BLACK, PairingPlayer, Scoring

_WHITE, _BLACK, _NONE = 0, 1, 2  # FIDE colours: _WHITE moves first (Abalone's Black)
_LOSS, _DRAW, _WIN = 0, 1, 2
_DOWN, _UP, _NO_FLOAT = 0, 1, 2

_PLAYED = {"1": _WIN, "0": _LOSS, "=": _DRAW, "W": _WIN, "L": _LOSS, "D": _DRAW}
_UNPLAYED = {"+": _WIN, "-": _LOSS, "H": _DRAW, "F": _WIN, "U": _WIN, "Z": _LOSS}


def _invert(colour: int) -> int:
    return _BLACK if colour == _WHITE else _WHITE if colour == _BLACK else _NONE


def _bits(value: int) -> int:
    """Bits needed to write ``value`` (0 for 0), as bbpPairings' ``bitsToRepresent``."""
    return value.bit_length()


@dataclass(slots=True)
class _Match:
    opponent: int  # the player's own index when there was no opponent
    colour: int
    score: int  # _LOSS / _DRAW / _WIN
    played: bool
    paired: bool  # "participated in pairing": had an opponent, a PAB or a forfeit win
    points: int | None = None  # tenths: a match round's game points, instead of the result's


@dataclass(slots=True)
class _Player:
    index: int  # position in the input, sorted by pairing number
    number: int  # the pairing number
    matches: list[_Match]
    rank: int = 0  # effective pairing number, 0-based, among the players taking part
    score: int = 0  # tenths, with the round's acceleration (virtual points)
    unaccelerated: int = 0  # tenths, the real score
    accelerations: list[int] = field(default_factory=list)  # tenths, per round index
    played_games: int = 0
    imbalance: int = 0  # |games as first mover - games as second|
    preference: int = _NONE
    repeated: int = _NONE  # the colour of the last two games, when both were the same
    strong: bool = False
    valid: bool = True
    scores_back: list[int] = field(default_factory=list)  # score 0, 1, 2 rounds back
    floats: tuple[int, int] = (_NO_FLOAT, _NO_FLOAT)  # 1.4: one and two rounds ago
    key: tuple = ()  # what the edge weights read of the player

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.imbalance > 1 or self.repeated != _NONE


@dataclass(slots=True)
class _Points:
    win: int
    draw: int
    loss: int
    pab: int
    zero_bye: int = 0
    forfeit_loss: int = 0

    def of(self, player: _Player, match: _Match) -> int:
        if match.points is not None:
            return match.points
        if match.score == _LOSS:
            if match.paired:
                return self.loss if match.played else self.forfeit_loss
            return self.zero_bye
        if match.score == _WIN:
            if match.opponent == player.index and match.paired:
                return self.pab
            return self.win
        return self.draw


class _Field:
    """The tournament as the procedure sees it: players, points, rounds played."""

    def __init__(
        self,
        players: Sequence[PairingPlayer],
        round_number: int,
        total_rounds: int,
        scoring: Scoring,
        first_colour: str,
        forbidden_pairs: Iterable[tuple[int, int]],
    ) -> None:
        tenths = lambda value: round(value * 10)  # noqa: E731
        self.points = _Points(
            win=tenths(scoring.win),
            draw=tenths(scoring.draw),
            loss=tenths(scoring.loss),
            pab=tenths(scoring.pab),
        )
        self.played_rounds = round_number - 1
        self.expected_rounds = total_rounds
        self.initial_colour = _WHITE if first_colour == BLACK else _BLACK
        ordered = sorted(players, key=lambda p: p.number)
        by_number = {p.number: i for i, p in enumerate(ordered)}
        self.players: list[_Player] = []
        for index, source in enumerate(ordered):
            by_round = {e.round: e for e in source.history}
            matches = []
            for r in range(1, round_number):
                entry = by_round.get(r)
                matches.append(_match(index, entry, by_number))
            self.players.append(
                _Player(
                    index=index,
                    number=source.number,
                    matches=matches,
                    accelerations=[tenths(value) for value in source.accelerations],
                )
            )
        self.available = [
            p for p, source in zip(self.players, ordered, strict=True) if source.available
        ]
        # Taking part (bbpPairings' ``isValid``): to be paired now, or paired in some round.
        taking_part = {p.index for p in self.available}
        rank = 0
        for player in self.players:
            player.valid = player.index in taking_part or any(m.paired for m in player.matches)
            if player.valid:
                player.rank = rank
                rank += 1
            self._compute(player)
        for player in self.available:
            player.floats = (
                _float(player, 1, self) if self.played_rounds >= 1 else _NO_FLOAT,
                _float(player, 2, self) if self.played_rounds >= 2 else _NO_FLOAT,
            )
        self.forbidden: list[set[int]] = [set() for _ in self.players]
        for a, b in forbidden_pairs:
            if a in by_number and b in by_number:
                self.forbidden[by_number[a]].add(by_number[b])
                self.forbidden[by_number[b]].add(by_number[a])
        for player in self.players:
            if player.valid:
                for match in player.matches:
                    if match.played:
                        self.forbidden[player.index].add(match.opponent)

    def _compute(self, player: _Player) -> None:
        """Score and colour data, as bbpPairings' ``computePlayerData``. The score the
        procedure sees N rounds back carries the virtual points (acceleration) of the round
        then being paired (bbpPairings' ``scoreWithAcceleration``)."""
        scores = [0]
        for match in player.matches:
            scores.append(scores[-1] + self.points.of(player, match))
        player.unaccelerated = scores[-1]
        player.scores_back = [
            scores[-1 - back] + self._acceleration(player, self.played_rounds - back)
            if back < len(scores)
            else 0
            for back in range(3)
        ]
        player.score = player.scores_back[0]
        white = black = consecutive = played = 0
        repeated = _NONE
        for match in player.matches:
            if match.played:
                played += 1
                if match.colour == _WHITE:
                    white += 1
                else:
                    black += 1
                if not consecutive or match.colour != repeated:
                    consecutive = 1
                else:
                    consecutive += 1
                repeated = match.colour
        player.played_games = played
        lower = _BLACK if white > black else _WHITE
        player.imbalance = abs(white - black)
        if player.imbalance > 1:
            player.preference = lower
        elif consecutive > 1:
            player.preference = _invert(repeated)
        elif player.imbalance > 0:
            player.preference = lower
        elif consecutive:
            player.preference = _invert(repeated)
        else:
            player.preference = _NONE
        player.repeated = repeated if consecutive > 1 else _NONE
        player.strong = not player.absolute and player.imbalance > 0

    @staticmethod
    def _acceleration(player: _Player, round_index: int) -> int:
        """The virtual points for pairing round ``round_index + 1``."""
        if 0 <= round_index < len(player.accelerations):
            return player.accelerations[round_index]
        return 0

    def score(self, player: _Player, back: int = 0) -> int:
        return player.scores_back[back]


def _match(index: int, entry, by_number: dict[int, int]) -> _Match:
    """One round of a player's history in bbpPairings' terms (a missing round is a ``Z``)."""
    if entry is None:
        return _Match(index, _NONE, _LOSS, False, False)
    opponent = index if entry.opponent is None else by_number[entry.opponent]
    # Our colours are Abalone's: Black ("b") moves first, which is FIDE's White.
    colour = {"b": _WHITE, "w": _BLACK}.get(entry.colour, _NONE)
    result = entry.result
    points = None if entry.points is None else round(entry.points * 10)
    if result in _PLAYED and opponent != index:
        return _Match(opponent, colour, _PLAYED[result], True, True, points)
    score = _UNPLAYED.get(result, _PLAYED.get(result, _LOSS))
    paired = opponent != index or result in ("U", "+")
    return _Match(opponent, _NONE, score, False, paired, points)


def _compatible(a: _Player, b: _Player, tf: _Field) -> bool:
    """C.1 (no rematch, no forbidden pair) and C.3 (no two absolute colour preferences for the
    same colour, except topscorers in the last round)."""
    if b.index in tf.forbidden[a.index]:
        return False
    if not a.absolute or not b.absolute or a.preference != b.preference:
        return True
    if tf.played_rounds >= tf.expected_rounds - 1:
        threshold = tf.played_rounds * max(tf.points.win, tf.points.draw) >> 1
        return a.score > threshold or b.score > threshold
    return False


def _eligible_for_bye(player: _Player, tf: _Field) -> bool:
    """C.2: no PAB for a player who already scored a win without playing, or had a PAB."""
    for match in player.matches:
        if not match.played and (
            tf.points.of(player, match) >= tf.points.win
            or (match.paired and match.opponent == player.index)
        ):
            return False
    return True


def _float(player: _Player, back: int, tf: _Field) -> int:
    """1.4: the float the player got ``back`` rounds ago.  1.4.3: an unplayed round is a
    downfloat only when it scored more than a loss."""
    match = player.matches[tf.played_rounds - back]
    if not match.played:
        return _DOWN if tf.points.of(player, match) > tf.points.loss else _NO_FLOAT
    mine = tf.score(player, back)
    theirs = tf.score(tf.players[match.opponent], back)
    return _DOWN if mine > theirs else _UP if mine < theirs else _NO_FLOAT


@dataclass(slots=True)
class _Layout:
    """Bit widths of the weight's fields for this round."""

    size_bits: int  # bits to count the players of the largest score group
    groups_shift: int  # total bits of the per-score-group fields
    group_shift: dict[int, int]  # score -> position of its field
    bye_score: int = 0
    single_downfloater_is_bye: bool = False
    unplayed_rank: dict[int, int] = field(default_factory=dict)

    def shifts(self, played_rounds: int) -> list[int]:
        """The successive left shifts of :func:`_edge_weight`, to size the largest weight."""
        s, g = self.size_bits, self.groups_shift
        out = [s, g, s, g, s, s, s, s, s, s]
        if played_rounds:
            out += [s, s]
        if played_rounds > 1:
            out += [s, s]
        if played_rounds:
            out += [g, g]
        if played_rounds > 1:
            out += [g, g]
        return out + [s, s, s, 1]


def _colour_bits(weight: int, a: _Player, b: _Player, in_bracket: bool, bits: int) -> int:
    """C.10-C.13: colour preferences, ``a`` the lower of the two."""
    mask = in_bracket
    weight <<= bits
    weight |= int(
        mask
        and (not a.absolute_imbalance or not b.absolute_imbalance or a.preference != b.preference)
    )
    weight <<= bits
    if mask:
        if a.imbalance == b.imbalance:
            tail = a.repeated == _NONE or a.repeated != b.repeated
        else:
            tail = (b if a.imbalance > b.imbalance else a).repeated != _invert(a.preference)
        ok = not a.absolute or not b.absolute or a.preference != b.preference or tail
        weight |= int(ok)
    weight <<= bits
    weight |= int(
        mask and (a.preference != b.preference or a.preference == _NONE or b.preference == _NONE)
    )
    weight <<= bits
    weight |= int(
        mask
        and (
            (not a.strong and not a.absolute)
            or (not b.strong and not b.absolute)
            or (a.absolute and b.absolute)
            or a.preference != b.preference
        )
    )
    return weight


def _bye_candidate(player: _Player, tf: _Field, bye_score: int) -> bool:
    return _eligible_for_bye(player, tf) and player.score <= bye_score


def _edge_weight(
    higher: _Player,
    lower: _Player,
    in_bracket: bool,
    in_next: bool,
    tf: _Field,
    lay: _Layout,
    bye_score: int,
    single_is_bye: bool,
) -> int:
    """The edge weight of ``higher`` against ``lower`` (bbpPairings' ``computeEdgeWeight``),
    as a Python int: 0 when C.1/C.3 forbid the pair."""
    if not _compatible(higher, lower, tf):
        return 0
    s, g, at = lay.size_bits, lay.groups_shift, lay.group_shift
    # C.2/C.4: completion, and who may be left for the bye.
    w = 1 + (not _bye_candidate(higher, tf, bye_score)) + (not _bye_candidate(lower, tf, bye_score))
    # C.6: pairs in this bracket; C.7: the scores paired in it.
    w = (w << s) | in_bracket
    w <<= g
    if in_bracket:
        w |= 1 << at[higher.score]
    # C.8: the same for the next bracket.
    w = (w << s) | in_next
    w <<= g
    if in_next:
        w |= 1 << at[higher.score]
    # C.9: the unplayed games of the bye's assignee minimised: the bye to the player with the
    # most games played (a pair of players with fewer games weighs more).
    w <<= 2 * s
    if single_is_bye:
        if higher.score == bye_score:
            w |= lay.unplayed_rank[higher.played_games]
        if lower.score == bye_score:
            w += lay.unplayed_rank[lower.played_games]
    # C.10-C.13
    w = _colour_bits(w, lower, higher, in_bracket, s)
    rounds = tf.played_rounds
    higher_score, lower_score = higher.score, lower.score
    if rounds:  # C.14/C.15: repeated floats from the previous round
        w <<= s
        if in_bracket:
            w |= lower.floats[0] == _DOWN
            w += higher_score <= lower_score and higher.floats[0] == _DOWN
        w <<= s
        if in_bracket:
            w |= not (higher_score > lower_score and lower.floats[0] == _UP)
    if rounds > 1:  # C.16/C.17: from two rounds before
        w <<= s
        if in_bracket:
            w |= lower.floats[1] == _DOWN
            w += higher_score <= lower_score and higher.floats[1] == _DOWN
        w <<= s
        if in_bracket:
            w |= not (higher_score > lower_score and lower.floats[1] == _UP)
    if rounds:  # C.18/C.19: the scores of repeated floaters (previous round)
        w <<= g
        if in_bracket:
            w += (lower.floats[0] == _DOWN) << at[lower_score]
            w += (higher.floats[0] == _DOWN) << at[higher_score]
        w <<= g
        if in_bracket and not (lower.floats[0] == _UP and higher_score > lower_score):
            w |= 1 << at[higher_score]
    if rounds > 1:  # C.20/C.21: two rounds before
        w <<= g
        if in_bracket:
            w += (lower.floats[1] == _DOWN) << at[lower_score]
            w += (higher.floats[1] == _DOWN) << at[higher_score]
        w <<= g
        if in_bracket and not (lower.floats[1] == _UP and higher_score > lower_score):
            w |= 1 << at[higher_score]
    # Room for the exchange and ordering steps of the procedure.
    return w << (3 * s + 1)
