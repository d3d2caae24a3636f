"""The draw of a round: from the tournament's rows to the pure pairing engines and back.

Like Tabbycat's ``draw/manager.py``: this adapter reads what the engines need (entrants, their
histories, requested byes, forbidden pairs), calls :mod:`tournaments.pairing`, and turns its
answer into unsaved :class:`Board` rows, in board order. It reads only; the round service
(``tournaments.services.rounds``) holds the tournament's lock, numbers the boards and saves them.
"""

from __future__ import annotations

from tournaments import history
from tournaments.models import Board, ByeRequest, Entrant, ForbiddenPair, Tournament
from tournaments.pairing import berger_pairings, knockout, pair_swiss

# A round-robin board with a withdrawn player is a forfeit: (black gone, white gone) -> result.
WITHDRAWAL_FORFEITS = {
    (True, True): Board.Result.DOUBLE_FORFEIT,
    (True, False): Board.Result.WHITE_FORFEIT_WIN,
    (False, True): Board.Result.BLACK_FORFEIT_WIN,
}


def round_robin_boards(tournament: Tournament, number: int) -> list[Board]:
    """Round ``number`` of the Berger tables for the entrants' pairing numbers; a withdrawn
    player's games are forfeits, the odd player out has the bye."""
    entrants = Entrant.objects.filter(tournament=tournament)
    by_number = {e.pairing_number: e for e in entrants}
    double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
    boards = []
    pairs = berger_pairings(
        len(by_number), number, double=double, swap_last_two_rounds=tournament.berger_swap
    )
    for first, second in pairs:
        black = by_number[first]
        if second is None:
            boards.append(Board(black=black, bye=Board.Bye.PAIRING))
            continue
        white = by_number[second]
        board = Board(black=black, white=white)
        gone = (black.status == Entrant.Status.WITHDRAWN, white.status == Entrant.Status.WITHDRAWN)
        if any(gone):
            board.result = WITHDRAWAL_FORFEITS[gone]
            board.termination = "forfeit"
        boards.append(board)
    return boards


def swiss_boards(tournament: Tournament, number: int) -> list[Board]:
    """Round ``number`` by the FIDE Dutch system: the pairs, the pairing-allocated bye, then the
    byes players asked for. Withdrawn players, late entries not yet in and players with a
    requested bye are not paired. Raises :class:`tournaments.pairing.PairingError` when no
    legal pairing exists."""
    entrants = list(Entrant.objects.filter(tournament=tournament))
    requested = {
        request.entrant_id: request.kind
        for request in ByeRequest.objects.filter(
            entrant__tournament=tournament, round_number=number
        )
    }
    absent = {e.pk for e in entrants if e.status == Entrant.Status.WITHDRAWN}
    late = {e.pk for e in entrants if e.first_round > number}
    players, by_number = history.pairing_players(
        tournament,
        number,
        unavailable=absent | late | set(requested),
        byes={pk: kind for pk, kind in requested.items() if pk not in absent | late},
    )
    forbidden = [
        (pair.first.pairing_number, pair.second.pairing_number)
        for pair in ForbiddenPair.objects.filter(tournament=tournament).select_related(
            "first", "second"
        )
    ]
    pairing = pair_swiss(
        players,
        round_number=number,
        total_rounds=tournament.rounds,
        scoring=history.scoring_of(tournament),
        forbidden_pairs=forbidden,
        rules=tournament.pairing_rules,
    )

    def note(*numbers: int) -> dict:
        return Board.note_fields(*(pairing.notes[n] for n in numbers if n in pairing.notes))

    boards = [
        Board(black=by_number[first], white=by_number[second], **note(first, second))
        for first, second in pairing.pairs
    ]
    if pairing.bye is not None:
        boards.append(
            Board(black=by_number[pairing.bye], bye=Board.Bye.PAIRING, **note(pairing.bye))
        )
    for entrant in entrants:
        if entrant.pk in requested and entrant.pk not in absent:
            boards.append(
                Board(black=entrant, bye=requested[entrant.pk], **note(entrant.pairing_number))
            )
    return boards


def knockout_boards(tournament: Tournament, number: int) -> list[Board]:
    """Round ``number`` of a cup (:mod:`tournaments.pairing.knockout`): round 1 from the seeds
    (the pairing numbers: rating order), the byes to the top seeds; a later round from the
    winners of the previous one, slot by slot; the final with the match for third place
    (slot 1) when the cup has one. A pairing with only one player is a bye (a walkover); a
    withdrawn player's match is lost by forfeit. Each board keeps its ``slot``."""
    entrants = {e.pairing_number: e for e in Entrant.objects.filter(tournament=tournament)}
    previous = (
        Board.objects.filter(round__tournament=tournament, round__number=number - 1)
        .exclude(slot=None)
        .select_related("black", "white")
        .order_by("slot")
    )
    pairings = knockout.round_pairings(
        len(entrants),
        number,
        tournament.rounds,
        [
            (
                knockout.Pairing(
                    board.slot,
                    board.black.pairing_number,
                    board.white.pairing_number if board.white else None,
                ),
                _winner(board),
            )
            for board in (previous if number > 1 else [])
        ],
        tournament.cup_third_place,
    )
    boards = []
    for pairing in pairings:
        if pairing.black is None:
            continue  # nobody reached this slot
        black = entrants[pairing.black]
        if pairing.white is None:
            boards.append(Board(black=black, bye=Board.Bye.PAIRING, slot=pairing.slot))
            continue
        board = Board(black=black, white=entrants[pairing.white], slot=pairing.slot)
        gone = (
            black.status == Entrant.Status.WITHDRAWN,
            board.white.status == Entrant.Status.WITHDRAWN,
        )
        if any(gone):
            board.result = WITHDRAWAL_FORFEITS[gone]
            board.termination = "forfeit"
        boards.append(board)
    return boards


def _winner(board: Board) -> int | None:
    """The seed a decided board of a cup sends on (None: both out)."""
    if board.white_id is None:
        return board.black.pairing_number
    if board.result in (Board.Result.BLACK_WINS, Board.Result.BLACK_FORFEIT_WIN):
        return board.black.pairing_number
    if board.result in (Board.Result.WHITE_WINS, Board.Result.WHITE_FORFEIT_WIN):
        return board.white.pairing_number
    return None
