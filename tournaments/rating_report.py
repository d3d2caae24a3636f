"""An event's rating report, as a rating officer reads one: per player their rating at the start,
their games against rated opponents, the opponents' average, the points scored in them, the
performance and the rating change, game by game and in total. Pure Python, no Django.

The change is Elo's (``ratings.elo``): K x (score - expected), the expected score from the two
ratings the event began with (a difference counted at most 400), K 20 (FIDE's for most
players; ``k`` for another). Games against an unrated opponent (rating 0), forfeits and byes
are not rated, as FIDE's rating regulations say; an unrated player's games are listed with no
change (their first rating is made by the federation, not by one event).

An event rated on the site passes the changes it applied (``applied``): then the games are the
ones the site rated, each with the opponent's rating then and the change it made, whatever the
formula (the site's ratings, their K, a later replay).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ratings.elo import expected_score, performance_rating

#: The results of a game played over the board, and the player's score in each.
PLAYED = {"1": 1.0, "=": 0.5, "0": 0.0}


@dataclass(frozen=True, slots=True)
class ReportGame:
    round: int
    opponent: int
    opponent_rating: int
    score: float
    change: float


@dataclass
class ReportLine:
    number: int
    name: str
    rating: int
    games: list[ReportGame] = field(default_factory=list)

    @property
    def rated_games(self) -> int:
        return len(self.games)

    @property
    def points(self) -> float:
        return sum(game.score for game in self.games)

    @property
    def opponents_average(self) -> int | None:
        if not self.games:
            return None
        return round(sum(game.opponent_rating for game in self.games) / len(self.games))

    @property
    def performance(self) -> int | None:
        return performance_rating([game.opponent_rating for game in self.games], self.points)

    @property
    def change(self) -> float:
        return round(sum(game.change for game in self.games), 1)


def rating_report(
    players: Sequence[tuple[int, str, int, Sequence[tuple[int, int | None, str]]]],
    *,
    k: int = 20,
    applied: Mapping[tuple[int, int], tuple[int, float]] | None = None,
) -> list[ReportLine]:
    """``players``: (number, name, rating, entries), each entry (round, opponent's number,
    result code: ``1``/``=``/``0`` for a game, anything else unrated). ``applied``: for an
    event the site rated, (number, round) -> (the opponent's rating, the change applied) of
    every game it rated. Lines in number order."""
    ratings = {number: rating for number, _name, rating, _entries in players}
    lines = []
    for number, name, rating, entries in sorted(players, key=lambda player: player[0]):
        line = ReportLine(number, name, rating)
        for round_number, opponent, result in sorted(entries, key=lambda entry: entry[0]):
            if applied is not None:
                rated = applied.get((number, round_number))
                if rated is not None and result in PLAYED and opponent:
                    opponent_rating, change = rated
                    line.games.append(
                        ReportGame(round_number, opponent, opponent_rating, PLAYED[result], change)
                    )
                continue
            opponent_rating = ratings.get(opponent or 0, 0)
            if result not in PLAYED or not opponent or not opponent_rating:
                continue
            score = PLAYED[result]
            change = k * (score - expected_score(rating, opponent_rating)) if rating else 0.0
            line.games.append(
                ReportGame(round_number, opponent, opponent_rating, score, round(change, 1))
            )
        lines.append(line)
    return lines
