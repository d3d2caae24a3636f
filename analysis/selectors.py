"""Reads of analyses: the one document the API and the pages show."""

from __future__ import annotations

from django.utils.translation import gettext as _

from analysis.models import Analysis
from core.errors import NotFound
from games import engine


def analysis_found(analysis_id: int) -> Analysis:
    analysis = Analysis.objects.filter(pk=analysis_id).first()
    if analysis is None:
        raise NotFound(
            _("There is no analysis %(analysis_id)s.") % {"analysis_id": analysis_id},
            code="unknown_analysis",
        )
    return analysis


def analysis_document(analysis: Analysis) -> dict:
    result = analysis.result or {}
    return {
        "id": analysis.pk,
        "url": f"/analysis/{analysis.pk}/",
        "kind": analysis.kind,
        "status": analysis.status,
        "position": analysis.position or None,
        "game": analysis.game_id,
        "seconds": analysis.seconds,
        "lines": result.get("lines", []),
        "best": result.get("best"),
        "evaluations": result.get("evaluations", []),
        "drops": result.get("drops", []),
        "error": analysis.error,
    }


def legal_moves_document(position: engine.Position) -> dict:
    """The moves a player may try on the analysis board, each with the position it leads to."""
    moves = sorted(position.legal_moves(), key=lambda move: move.notation)
    return {
        "position": position.to_string(),
        "side_to_move": position.side_to_move,
        "moves": [
            {"notation": m.notation, "position": engine.apply_move(position, m)[0].to_string()}
            for m in moves
        ],
        "pushed_off": {
            "black": position.pushed_off(engine.BLACK),
            "white": position.pushed_off(engine.WHITE),
        },
    }
