"""The event's rounds normalised for the tie-breaks, and the rules of C.07 Art. 16 for unplayed
rounds (pure Python, no Django).

- An opponent's **adjusted score** (16.3): their score as it stands, except that each of their
  rounds after their last round that is not voluntarily unplayed, and without a scheduled
  opponent, counts as a draw (16.3.2: a withdrawal does not drag earlier opponents' Buchholz
  down); in a round-robin such rounds count 0.
- The participant's **own unplayed rounds** (16.4): in a Swiss each counts as a game against a
  *dummy opponent* whose score is the participant's own; as amended in March 2026 capped at the
  scheduled opponent's adjusted score for a forfeit (16.4.1) and at half the maximum (a draw's
  points times the rounds counted) for a round without an opponent (16.4.2). In a round-robin
  every scheduled game counts as played, forfeits included, and a bye is no round at all.
- **Fore** mode (Fore Buchholz, C.07 8.3): when the rounds counted reach the event's last
  round, every game of that round, played or forfeited, counts as a draw played over the
  board, for the player and for the opponents' scores alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing.model import RESULT_CODES, PairingError
from tournaments.tiebreaks.model import (
    FIDE_2023,
    RULES,
    VOLUNTARILY_UNPLAYED,
    GameEntry,
    StandingsInput,
)


@dataclass(frozen=True, slots=True)
class Contribution:
    """One counted round of a participant: the opponent's (or dummy's) score, its
    Sonneborn-Berger product and whether the round was voluntarily unplayed (16.5 cuts it
    first)."""

    score: float
    product: float
    vur: bool


class Table:
    """The normalised input: per player a full list of rounds 1..R and the derived scores."""

    def __init__(self, data: StandingsInput) -> None:
        self.data = data
        self.scoring = data.scoring
        self.rr = data.round_robin
        numbers = [p.number for p in data.players]
        if len(set(numbers)) != len(numbers):
            raise PairingError("a pairing number appears twice in the standings input")
        for player in data.players:
            for entry in player.entries:
                if entry.result not in RESULT_CODES:
                    raise PairingError(
                        f"player {player.number}, round {entry.round}: unknown result "
                        f"{entry.result!r}"
                    )
                if entry.opponent is not None and entry.opponent not in numbers:
                    raise PairingError(
                        f"player {player.number}, round {entry.round}: unknown opponent "
                        f"{entry.opponent}"
                    )
        if data.rules not in RULES:
            raise PairingError(
                f"unknown tie-break rules {data.rules!r} (choose from {', '.join(RULES)})"
            )
        rounds = data.rounds_played
        if rounds is None:
            rounds = max((e.round for p in data.players for e in p.entries), default=0)
        self.rounds = rounds
        self.players = {p.number: p for p in data.players}
        self.games: dict[int, list[GameEntry]] = {}
        for player in data.players:
            by_round = {e.round: e for e in player.entries}
            self.games[player.number] = [
                by_round.get(r) or GameEntry(r, None, None, "Z") for r in range(1, rounds + 1)
            ]
        self.round_points = {
            n: [self.scoring.of(g) for g in games] for n, games in self.games.items()
        }
        self.points = {n: sum(values) for n, values in self.round_points.items()}
        self.adjusted = {n: self._adjusted_score(n) for n in self.games}
        #: the round Fore Buchholz treats as drawn: the event's last, once it is counted
        self.fore_round = rounds if rounds and rounds >= data.total_rounds else None
        self.fore_own = {n: self._fore_own(n) for n in self.games}
        self.fore_adjusted = {
            n: self.fore_own[n] if self._fore_paired(n) else self.adjusted[n] for n in self.games
        }
        self._contributions: dict[tuple[int, bool], list[Contribution]] = {}

    def counts_as_game(self, game: GameEntry, fore: bool = False) -> bool:
        """Whether a round counts as a game against its opponent: played over the board; in a
        round-robin any scheduled game; in fore mode any game of the last round."""
        if game.played:
            return True
        if game.opponent is None:
            return False
        return self.rr or (fore and game.round == self.fore_round)

    def _adjusted_score(self, number: int) -> float:
        """C.07 16.3: the score an opponent contributes to Buchholz and Sonneborn-Berger."""
        games = self.games[number]
        last_available = max(
            (g.round for g in games if g.result not in VOLUNTARILY_UNPLAYED), default=0
        )
        total = 0.0
        for game, points in zip(games, self.round_points[number], strict=True):
            if game.round <= last_available or game.opponent is not None:
                total += points
            elif not self.rr:
                total += self.scoring.draw
        return total

    def _fore_paired(self, number: int) -> bool:
        """Whether the player was paired in the fore round (a game, a forfeit or the
        pairing-allocated bye): their score then stands as it is, last round drawn."""
        if self.fore_round is None:
            return False
        last = self.games[number][self.fore_round - 1]
        return last.opponent is not None or last.result == "U"

    def _fore_own(self, number: int) -> float:
        """The player's score with a game of the fore round counted as a draw."""
        total = self.points[number]
        if self.fore_round is not None:
            last = self.games[number][self.fore_round - 1]
            if last.opponent is not None:
                total += self.scoring.draw - self.round_points[number][self.fore_round - 1]
        return total

    def _dummy(self, own: float, game: GameEntry, adjusted: dict[int, float]) -> float:
        """The score of the dummy opponent of a participant's own unplayed round (C.07 16.4):
        their own score; as amended in March 2026, at most the scheduled opponent's
        adjusted score for a forfeit (16.4.1), at most half the maximum (a draw's points
        times the rounds counted) for a round without an opponent (16.4.2)."""
        if self.data.rules == FIDE_2023:
            return own
        if game.opponent is not None:
            return min(own, adjusted[game.opponent])
        return min(own, self.scoring.draw * self.rounds)

    def contributions(self, number: int, fore: bool = False) -> list[Contribution]:
        """Per counted round: the opponent's score, the Sonneborn-Berger product and whether
        it is a voluntarily unplayed round (Art. 16; ``fore``: as Fore Buchholz counts).
        Computed once per player: every Buchholz and Sonneborn-Berger variant reads them."""
        key = (number, fore)
        if key not in self._contributions:
            self._contributions[key] = self._contributions_of(number, fore)
        return self._contributions[key]

    def contributions_against(self, number: int, results: list[float]) -> list[Contribution]:
        """As :meth:`contributions`, the products taken with ``results`` (one per round 1..R)
        instead of the points of this table: a team's Extended Sonneborn-Berger multiplies
        the opponents' match points by the game points scored against them, or the other way
        round."""
        return self._contributions_of(number, False, results)

    def _contributions_of(
        self, number: int, fore: bool, results: list[float] | None = None
    ) -> list[Contribution]:
        adjusted = self.fore_adjusted if fore else self.adjusted
        own = self.fore_own[number] if fore else self.points[number]
        items = []
        own_results = self.round_points[number] if results is None else results
        for game, points in zip(self.games[number], own_results, strict=True):
            if self.counts_as_game(game, fore):
                score = adjusted[game.opponent]  # type: ignore[index]
                vur = False
            elif self.rr:
                continue  # a round-robin bye is no game at all
            else:
                score = self._dummy(own, game, adjusted)
                vur = game.result in VOLUNTARILY_UNPLAYED
            items.append(Contribution(score, score * points, vur))
        return items


def cut(items: list[Contribution], low: int, high: int, by_product: bool = False) -> list:
    """The contributions left after cutting the ``low`` least and ``high`` most significant
    (C.07 14, with 16.5): the least significant is the lowest opponent's score (then product),
    but a voluntarily unplayed round goes first, unless (Sonneborn-Berger, ``by_product``) the
    least significant opponent contributes more than the smallest such round does. The high
    cut has no exception."""
    items = list(items)

    def value(item: Contribution) -> float:
        return item.product if by_product else item.score

    for _ in range(min(low, len(items))):
        least = min(items, key=lambda c: (c.score, c.product))
        vurs = [c for c in items if c.vur]
        if vurs:
            vur = min(vurs, key=lambda c: (value(c), c.score))
            if value(least) <= value(vur):
                least = vur
        items.remove(least)
    for _ in range(min(high, len(items))):
        items.remove(max(items, key=lambda c: (c.score, c.product)))
    return items
