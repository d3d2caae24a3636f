"""The tie-breaks computed from the scores (pure Python, no Django): the Buchholz family
(C.07 8), Sonneborn-Berger and Koya (9), the participant's own results (7) and the Abalone
marble difference. Each maps a :class:`Table` to ``{pairing number: value}``.

Colours: Abalone's Black moves first and plays FIDE's White (as in TRF files), so FIDE's
"games played with Black" (BPG, 7.3) and "won with Black" (BWG, 7.4) count the games with
White, the second mover; ``first_mover_games`` counts those with Black."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from tournaments.pairing.model import BLACK, WHITE, Scoring
from tournaments.tiebreaks.model import VOLUNTARILY_UNPLAYED, GameEntry
from tournaments.tiebreaks.table import Table, cut

# Decisive results reached without pushing off ``marbles_to_win`` marbles: the marble
# tie-break counts them as marbles_to_win for the winner (Abalone practice).
CONVENTIONAL_WIN_TERMINATIONS = frozenset(
    {"time", "resignation", "forfeit", "abandoned", "no_legal_moves"}
)
DRAW_MARBLES = (3, 3)
BYE_MARBLES = (6, 4)

Values = dict[int, float | None]


def buchholz(table: Table, low: int = 0, high: int = 0, fore: bool = False) -> Values:
    """BH (8.1) with ``low``/``high`` cuts (Cut-n: ``low=n``; Median-n: both), or Fore
    Buchholz (8.3, ``fore``)."""
    return {
        n: sum(c.score for c in cut(table.contributions(n, fore), low, high)) for n in table.games
    }


def sonneborn_berger(table: Table, low: int = 0) -> Values:
    """SB (9.1): the opponents' scores times the points scored against them; Cut-n by 16.5."""
    return {
        n: sum(c.product for c in cut(table.contributions(n), low, 0, by_product=True))
        for n in table.games
    }


def average_opponents_buchholz(table: Table) -> Values:
    """AOB (8.2): the average of the Buchholz of the opponents met over the board, rounded
    half up to two decimals (three from 9 rounds, four from 27, five from 73), so that
    equal averages stay equal."""
    values = buchholz(table)
    places = 2 if table.rounds < 9 else 3 if table.rounds < 27 else 4 if table.rounds < 73 else 5
    unit = Decimal(1).scaleb(-places)
    out: Values = {}
    for n, games in table.games.items():
        met = [values[g.opponent] for g in games if g.played]
        if not met:
            out[n] = None
            continue
        average = Decimal(str(sum(met))) / len(met)  # type: ignore[arg-type]
        out[n] = float(average.quantize(unit, rounding=ROUND_HALF_UP))
    return out


def koya(table: Table) -> Values:
    """KS (9.2): the points scored against the opponents who reached half the maximum; in a
    round-robin the maximum counts only the games a participant can play (a bye round of an
    odd field and every participant never paired are left out)."""
    games = table.rounds
    if table.rr:
        players = len(table.games)
        if players and table.rounds % players == 0:
            games -= table.rounds // players
        games -= sum(
            1
            for rounds in table.games.values()
            if not any(g.opponent is not None or g.result == "U" for g in rounds)
        )
    threshold = table.scoring.win * games / 2
    out: Values = {}
    for n, rounds in table.games.items():
        out[n] = sum(
            points
            for game, points in zip(rounds, table.round_points[n], strict=True)
            if game.opponent is not None and table.points[game.opponent] >= threshold
        )
    return out


def _count(table: Table, counted) -> Values:
    return {
        n: float(sum(1 for game, points in zip(games, table.round_points[n], strict=True)
                     if counted(game, points)))
        for n, games in table.games.items()
    }  # fmt: skip


def wins(table: Table) -> Values:
    """WIN (7.1): rounds scored as a win, played or not. A match round scored by game points
    counts when the match was won (a 1½-½ scores less than the scaled win's points)."""
    win = table.scoring.win
    return _count(
        table,
        lambda game, points: (
            points == win if game.points is None else table.scoring.points(game.result) == win
        ),
    )


def games_won(table: Table) -> Values:
    """WON (7.2): games won over the board."""
    return _count(table, lambda game, points: game.played and game.result == "1")


def second_mover_games(table: Table) -> Values:
    """BPG (7.3): games played over the board with FIDE's Black, Abalone's White."""
    return _count(table, lambda game, points: game.played and game.colour == WHITE)


def second_mover_wins(table: Table) -> Values:
    """BWG (7.4): games won over the board with FIDE's Black, Abalone's White."""
    return _count(
        table, lambda game, points: game.played and game.colour == WHITE and game.result == "1"
    )


def first_mover_games(table: Table) -> Values:
    """Games played over the board with Black, the side that moves first (Abalone)."""
    return _count(table, lambda game, points: game.played and game.colour == BLACK)


def rounds_elected(table: Table) -> Values:
    """REP (7.6): the rounds the participant elected to play, i.e. every round that is not
    voluntarily unplayed (games, forfeit wins, full-point and pairing-allocated byes)."""
    return _count(table, lambda game, points: game.result not in VOLUNTARILY_UNPLAYED)


def standard_points(table: Table) -> Values:
    """STD (7.7): the score counted 1, ½, 0 per round (more than a draw's points, a draw's,
    less), whatever the event's point system."""
    draw = table.scoring.draw
    return {
        n: sum(1.0 if p > draw else 0.5 if p == draw else 0.0 for p in points)
        for n, points in table.round_points.items()
    }


def progressive(table: Table) -> Values:
    """PS (7.5): the sum of the running scores after each round."""
    out: Values = {}
    for n, points in table.round_points.items():
        running = total = 0.0
        for value in points:
            running += value
            total += running
        out[n] = total
    return out


def pairing_number(table: Table) -> Values:
    """TPN (7.8): the pairing number (the lower ranks first)."""
    return {n: float(n) for n in table.games}


def game_marbles(game: GameEntry, scoring: Scoring) -> tuple[int, int]:
    """(marbles for, marbles against) of one round under the Abalone conventions: a draw counts
    3-3, a bye 6-4, a win on time, by resignation or forfeit ``marbles_to_win`` against what the
    loser had pushed off (0 when unknown), an absence 0-0; otherwise the recorded counts."""
    result = game.result
    if result in ("U", "F"):
        return BYE_MARBLES
    if result in ("H", "="):
        return DRAW_MARBLES
    if result == "Z":
        return (0, 0)
    won = result in ("1", "+")
    conventional = result in ("+", "-") or game.termination in CONVENTIONAL_WIN_TERMINATIONS
    known = game.marbles_for is not None and game.marbles_against is not None
    if won:
        if conventional or not known:
            return (game.marbles_to_win, game.marbles_against or 0)
        return (game.marbles_for, game.marbles_against)  # type: ignore[return-value]
    if conventional or not known:
        return (game.marbles_for or 0, game.marbles_to_win)
    return (game.marbles_for, game.marbles_against)  # type: ignore[return-value]


def marbles(table: Table) -> Values:
    """The Abalone marble difference: marbles pushed off less marbles lost, every round."""
    out: Values = {}
    for n, games in table.games.items():
        total = 0
        for game in games:
            marbles_for, marbles_against = game_marbles(game, table.scoring)
            total += marbles_for - marbles_against
        out[n] = float(total)
    return out
