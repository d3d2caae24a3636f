"""Pages of the analysis board (templates/analysis/)."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from analysis import selectors, services
from core.errors import ServiceError
from games import selectors as game_selectors


def analysis_board(request):
    """The board at ``?position=`` (default the standard start; a bad one falls back to it and
    says why); or a game that is over, ``?game=<id>``, its moves as the main line, shown at
    ``&ply=<n>`` (default its last). ``&moves=a1b2,...`` are the moves tried from there (the
    page plays them through the moves API, so it is the one to refuse an illegal one). A
    player of a correspondence game in play sees it too, without the engine, with their
    conditional moves."""
    text = request.GET.get("position", "").strip() or "standard"
    error = game_error = ""
    line = None
    game_id = request.GET.get("game", "")
    if game_id.isdigit():
        line = selectors.game_line(int(game_id), request.user)
        if line is None:
            game_error = _("Game %(game_id)s is not over, or there is no such game.") % {
                "game_id": game_id
            }
        else:
            text = line["start"]
    try:
        position = services.parse_position(text).to_string()
    except ServiceError as refused:
        position, error = services.parse_position("standard").to_string(), refused.detail
    ply = request.GET.get("ply", "")
    tried = [move for move in request.GET.get("moves", "").split(",") if move.strip()][:200]
    conditional = None
    if line and line["running"]:
        game = game_selectors.game_found(line["id"])
        conditional = game_selectors.conditional_moves_document(game, request.user)
    context = {
        "conditional": conditional,
        "position": position,
        "position_error": error,
        "game_error": game_error,
        "line": line,
        "start": {
            "ply": int(ply) if ply.isdigit() else None,
            "moves": [move.strip() for move in tried],
        },
    }
    return render(request, "analysis/board.html", context)


def analysis_result(request, analysis_id: int):
    try:
        analysis = selectors.analysis_found(analysis_id)
    except ServiceError:
        raise Http404(
            _("There is no analysis %(analysis_id)s.") % {"analysis_id": analysis_id}
        ) from None
    document = selectors.analysis_document(analysis)
    return render(request, "analysis/result.html", {"analysis": document, "doc_json": document})
