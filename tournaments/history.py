"""Adapters from the database to the pure engines: histories, pairing players, standings input.

Reads only. The services call these with the rows they locked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tournaments.models import Board, Entrant, MatchGame, Tournament
from tournaments.pairing import PairingPlayer, RoundEntry, Scoring, knockout
from tournaments.pairing.acceleration import AccelerationBlock, baku_blocks, player_accelerations
from tournaments.pairing.matches import GAME_POINTS, match_score, round_points, round_scoring

# What a board's result means for (Black, White), as TRF result codes
# (tournaments.pairing.model.RESULT_CODES is the set of those codes).
BOARD_RESULT_TRF_CODES = {
    Board.Result.BLACK_WINS: ("1", "0"),
    Board.Result.WHITE_WINS: ("0", "1"),
    Board.Result.DRAW: ("=", "="),
    Board.Result.BLACK_FORFEIT_WIN: ("+", "-"),
    Board.Result.WHITE_FORFEIT_WIN: ("-", "+"),
    Board.Result.DOUBLE_FORFEIT: ("-", "-"),
}


def scoring_of(tournament: Tournament) -> Scoring:
    """The points a round scores: a game's, or in match rounds scored by game points a whole
    match's (tournaments.pairing.matches.round_scoring)."""
    return round_scoring(
        Scoring(pab=float(tournament.bye_points)), tournament.match_games, tournament.match_scoring
    )


def board_match_score(board: Board, tournament: Tournament):
    """The match score of a match round's board (its games as far as they are finished), or
    None for a single game."""
    if not tournament.has_matches or board.white_id is None:
        return None
    results = {game.number: game.result for game in board.match_games.all()}
    ordered = [results.get(n, "") for n in range(1, tournament.match_games + 1)]
    return match_score(ordered, tournament.match_games)


def cup_results(games: Iterable[MatchGame]) -> list[str]:
    """The results of a cup pairing's finished games in the order they were played (the
    match's games, then its tie-break games); a game in play, with no result yet, is left out.
    ``games``: the board's match games, in any order (the caller's rows, fresh or prefetched)."""
    return [game.result for game in sorted(games, key=lambda game: game.number) if game.result]


def cup_decision(tournament: Tournament, games: Iterable[MatchGame]) -> knockout.Decision:
    """Where a cup pairing stands after its finished games (:func:`knockout.decide` under the
    cup's tie-break rule). Raises :class:`tournaments.pairing.PairingError` when a game was
    finished after the game that decided the pairing."""
    return knockout.decide(tournament.cup_rule, cup_results(games))


def acceleration_blocks(
    tournament: Tournament, entrants: list[Entrant]
) -> tuple[AccelerationBlock, ...]:
    """The event's virtual points for pairing (C.04.5.1): with Baku acceleration, GA is the
    first half, rounded up to an even number, of the players numbered for round 1; late
    entries are numbered after them, so the last GA player stays the same."""
    if tournament.acceleration != Tournament.Acceleration.BAKU:
        return ()
    starters = sum(1 for e in entrants if e.pairing_number and e.first_round <= 1)
    return baku_blocks(starters, tournament.rounds, scoring_of(tournament))


def boards_by_round(tournament: Tournament, up_to_round: int | None = None) -> dict[int, list]:
    boards = Board.objects.filter(round__tournament=tournament).select_related("round", "game")
    if tournament.has_matches:
        boards = boards.prefetch_related("match_games")
    if up_to_round is not None:
        boards = boards.filter(round__number__lte=up_to_round)
    grouped: dict[int, list[Board]] = defaultdict(list)
    for board in boards.order_by("round__number", "number"):
        grouped[board.round.number].append(board)
    return grouped


def board_entries(
    board: Board, numbers: dict[int, int], tournament: Tournament
) -> dict[int, RoundEntry]:
    """The round as each player of ``board`` saw it (entrant id: entry; a bye's player only),
    empty while the result is open. In match rounds scored by game points the entries carry
    the game points."""
    number = board.round.number
    if board.white_id is None:
        return {board.black_id: RoundEntry(number, None, None, board.bye or "Z")}
    codes = BOARD_RESULT_TRF_CODES.get(board.result)
    if codes is None:
        return {}
    points: dict[str, float | None] = {"black": None, "white": None}
    if tournament.has_matches and tournament.match_scoring == GAME_POINTS:
        score = board_match_score(board, tournament)
        # a result a director entered over the match's (a whole match forfeited, a correction)
        # scores as that result: the games' points only stand with the result they give
        if score is not None and score.result == board.result:
            points = {side: round_points(score, side, GAME_POINTS) for side in points}
    return {
        board.black_id: RoundEntry(
            number, numbers.get(board.white_id), "b", codes[0], points["black"]
        ),
        board.white_id: RoundEntry(
            number, numbers.get(board.black_id), "w", codes[1], points["white"]
        ),
    }


def histories(tournament: Tournament, entrants: list[Entrant], rounds: int) -> dict[int, tuple]:
    """Per entrant id, one RoundEntry for each of rounds 1..``rounds``.

    A round with no board is a late entry's bye (the director's choice, H or Z) before the
    player's first round, and an absence (Z) otherwise (withdrawn, or not paired). A game whose
    result is still open is left out, so its round is simply missing from the history.
    """
    numbers = {e.pk: e.pairing_number for e in entrants}
    grouped = boards_by_round(tournament, rounds)
    result: dict[int, list[RoundEntry]] = {e.pk: [] for e in entrants}
    for number in range(1, rounds + 1):
        seen = set()
        for board in grouped.get(number, []):
            for entrant_id in (board.black_id, board.white_id):
                if entrant_id in result:
                    seen.add(entrant_id)
            for entrant_id, entry in board_entries(board, numbers, tournament).items():
                if entrant_id in result:
                    result[entrant_id].append(entry)
        for entrant in entrants:
            if entrant.pk not in seen:
                code = entrant.late_bye if number < entrant.first_round else "Z"
                result[entrant.pk].append(RoundEntry(number, None, None, code))
    return {key: tuple(value) for key, value in result.items()}


def pairing_players(
    tournament: Tournament,
    round_number: int,
    *,
    unavailable: set[int],
    byes: dict[int, str] | None = None,
) -> tuple[list[PairingPlayer], dict[int, Entrant]]:
    """The players of ``round_number`` for the pairing engine, and entrants by pairing number.
    ``byes`` (entrant id: ``H``, ``F`` or ``Z``): the byes players have in that round, carried
    in their history as a TRF file carries them, so the pairing's notes name them."""
    byes = byes or {}
    entrants = list(
        Entrant.objects.filter(tournament=tournament, pairing_number__isnull=False)
        .select_related("user")
        .order_by("pairing_number")
    )
    past = histories(tournament, entrants, round_number - 1)
    blocks = acceleration_blocks(tournament, entrants)
    players = [
        PairingPlayer(
            number=e.pairing_number,
            name=e.user.username,
            rating=e.rating,
            history=past[e.pk]
            + ((RoundEntry(round_number, None, None, byes[e.pk]),) if e.pk in byes else ()),
            available=e.pk not in unavailable,
            accelerations=player_accelerations(blocks, e.pairing_number),
        )
        for e in entrants
    ]
    return players, {e.pairing_number: e for e in entrants}
