"""Reads of analyses: the one document the API and the pages show."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User
from analysis.models import Analysis
from core.errors import NotFound
from games import engine
from games.models import Game


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


def game_line(game_id: int, viewer: User | None = None) -> dict | None:
    """A game as the analysis board's main line: its start, each move with the position after
    it, and its latest finished analysis (the evaluation after each ply, the drops) if there is
    one. A game still being played is shown only to one of its players, and only a
    correspondence game (``running``: the board is where they prepare their conditional moves;
    the page shows no engine for it); None for any other running game or no such game."""
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        return None
    running = game.status == Game.Status.STARTED
    if running and not (
        game.days_per_move
        and viewer is not None
        and viewer.is_authenticated
        and game.colour_of(viewer) is not None
    ):
        return None
    moves = game.moves.order_by("ply").values_list("notation", "position_after")
    analysis = (
        Analysis.objects.filter(game=game, kind=Analysis.Kind.GAME, status=Analysis.Status.DONE)
        .order_by("-pk")
        .first()
    )
    return {
        "id": game.pk,
        "black": game.black.shown_name,
        "white": game.white.shown_name,
        "result": game.result or "",
        "finished": game.status == Game.Status.FINISHED,
        "running": running,
        "start": game.start_position,
        "moves": [{"notation": notation, "position": after} for notation, after in moves],
        "analysis": analysis_document(analysis) if analysis is not None and not running else None,
    }
