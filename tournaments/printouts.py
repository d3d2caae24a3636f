"""What a director prints and shows in the hall (issue 25, item 5): a round's alphabetical
pairing list, its table cards (one per board, with the QR code of the board's report page), its
score sheets (one page per board), the wall chart (the crosstable with names and federations on
A3 landscape) and the projector view (the round's pairings, then the standings, in large type,
cycling and refreshing by themselves). Each is one page of its own made for paper (or the wall):
no site header, no buttons; ``static/css/printouts.css`` lays them out."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from tournaments import board_selectors, selectors
from tournaments.models import Round, Tournament
from tournaments.selectors import tournament_by_slug
from tournaments.sheets import board_qr

#: Move lines on a score sheet: three columns of 30 (Abalone games are rarely longer; a longer
#: one continues on the back).
SCORE_SHEET_ROWS = 30
SCORE_SHEET_COLUMNS = 3


def _round(slug: str, number: int) -> tuple[Tournament, Round]:
    tournament = tournament_by_slug(slug)
    return tournament, get_object_or_404(Round, tournament=tournament, number=number)


def alphabetical_list(request, slug: str, number: int):
    tournament, round_ = _round(slug, number)
    return render(
        request,
        "tournaments/print/alphabetical.html",
        {
            "tournament": tournament,
            "round": round_,
            "rows": board_selectors.alphabetical_pairings(round_),
        },
    )


def table_cards(request, slug: str, number: int):
    tournament, round_ = _round(slug, number)
    boards = [board for board in board_selectors.round_boards(round_) if board.white_id]
    for board in boards:
        board.qr = board_qr(request, board, scale=3)
    return render(
        request,
        "tournaments/print/cards.html",
        {"tournament": tournament, "round": round_, "boards": boards},
    )


def score_sheets(request, slug: str, number: int):
    tournament, round_ = _round(slug, number)
    boards = [board for board in board_selectors.round_boards(round_) if board.white_id]
    columns = [
        range(column * SCORE_SHEET_ROWS + 1, (column + 1) * SCORE_SHEET_ROWS + 1)
        for column in range(SCORE_SHEET_COLUMNS)
    ]
    return render(
        request,
        "tournaments/print/score_sheets.html",
        {"tournament": tournament, "round": round_, "boards": boards, "columns": columns},
    )


def wall_chart(request, slug: str):
    tournament = tournament_by_slug(slug)
    return render(
        request,
        "tournaments/print/wall_chart.html",
        {
            "tournament": tournament,
            "table": selectors.crosstable(tournament),
            "round_numbers": range(1, tournament.current_round + 1),
        },
    )


#: Rows a projector screen shows (large type on a 16:9 screen); longer lists take more screens.
PROJECTOR_ROWS = 14


def _screens(rows: list, size: int = PROJECTOR_ROWS) -> list[list]:
    return [rows[start : start + size] for start in range(0, len(rows), size)] or [[]]


def projector(request, slug: str):
    """Full screen in the hall: the current round's pairings and then the standings, a screen
    of :data:`PROJECTOR_ROWS` rows at a time, shown in turn (``data-cycle`` seconds each); the
    page is read again every few seconds."""
    tournament = tournament_by_slug(slug)
    current = tournament.round_set.filter(number=tournament.current_round).first()
    boards = board_selectors.round_boards(current) if current else []
    standings = selectors.standings(tournament)
    return render(
        request,
        "tournaments/print/projector.html",
        {
            "tournament": tournament,
            "round": current,
            "board_screens": _screens(boards) if boards else [],
            "standing_screens": _screens(standings) if standings else [],
            "tiebreak_names": selectors.tiebreak_names(tournament),
        },
    )
