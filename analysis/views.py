"""Pages of the analysis board (templates/analysis/)."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from analysis import selectors, services
from core.errors import ServiceError


def analysis_board(request):
    """The board at ``?position=`` (default the standard start; a bad one falls back to it and
    says why), optionally from ``?game=<id>&ply=<n>``."""
    text = request.GET.get("position", "").strip() or "standard"
    error = ""
    try:
        position = services.parse_position(text).to_string()
    except ServiceError as refused:
        position, error = services.parse_position("standard").to_string(), refused.detail
    game = None
    if request.GET.get("game", "").isdigit() and request.GET.get("ply", "").isdigit():
        game = {"id": int(request.GET["game"]), "ply": int(request.GET["ply"])}
    context = {"position": position, "game": game, "position_error": error}
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
