"""Writes of analyses: ask for one (checked, rate-limited) and run it (the worker's part).

A player may have at most ``ANALYSIS_OPEN_LIMIT`` analyses that can still finish (queued, or
running with a live worker), and ask for at most ``ANALYSIS_PER_HOUR`` an hour (429 otherwise,
naming when to retry). Running one is idempotent: a task for an analysis already running or done
does nothing, so a doubled message costs nothing.

Every analysis comes back (:func:`analyses_recover`, every few seconds by beat): one whose
message was lost (Redis down when it was asked for) is sent again after ``RESEND_SECONDS``; one
whose worker died (no heartbeat for its own time plus ``STALE_SECONDS``) is sent again, at most
``MAX_ATTEMPTS`` runs in all, then fails saying so; a worker that starts sends again at once
those its host's gone processes were running (:func:`analyses_release_dead`: a killed worker
restarted by its supervisor). Each run writes only under its own attempt
number, so a run thought dead that wakes up writes nothing over its successor's.
The search itself is ``games.engine.search`` (pure); the worker writes each finished depth as it
comes and pushes the analysis, as the API shows it, to its owner's open pages (the player's
socket, ``/ws/me/``: ``{"type": "analysis", "analysis": document}``), so the page shows the lines
as they deepen; it also reads the analysis over HTTP now and then, which catches a lost push.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from analysis.models import Analysis
from analysis.selectors import analysis_document
from core.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    ServiceError,
    Unprocessable,
    engine_text,
)
from core.jobs import enqueue
from core.live import after_commit, send_group, user_group
from core.renderers import encode_json
from core.workers import gone, worker_name
from games import engine
from games.engine.search import Searcher
from games.models import Game

logger = logging.getLogger(__name__)
RUN_TASK = "analysis.tasks.run_analysis"
ANALYSIS_OPEN_LIMIT = 2
ANALYSIS_PER_HOUR = 60
#: A queued analysis no worker took this long after its task was sent is sent again.
RESEND_SECONDS = 5
#: A running analysis whose worker gave no sign of life for its own time plus this is lost.
STALE_SECONDS = 15
#: Runs an analysis gets (each lost with its worker) before it fails.
MAX_ATTEMPTS = 3
GAME_PLY_SECONDS = 0.15
GAME_PLY_LIMIT = 400


class TooMany(ServiceError):
    status = 429
    code = "too_many_analyses"


class Superseded(Exception):
    """This run's attempt is no longer the analysis's (its worker was thought dead and the
    analysis sent again): it stops and writes nothing."""


def can_finish(analysis: Analysis, now: datetime) -> bool:
    """Whether ``analysis`` may still finish: queued, or running with a live worker."""
    if analysis.status == Analysis.Status.QUEUED:
        return True
    return analysis.status == Analysis.Status.RUNNING and not _stale(analysis, now)


def _stale(analysis: Analysis, now: datetime) -> bool:
    beat = analysis.heartbeat_at or analysis.created
    return now - beat > timedelta(seconds=analysis.seconds + STALE_SECONDS)


def _check_rate(user, now: datetime) -> None:
    unfinished = Analysis.objects.filter(
        requested_by=user, status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]
    )
    open_ones = sum(can_finish(analysis, now) for analysis in unfinished)
    if open_ones >= ANALYSIS_OPEN_LIMIT:
        raise TooMany(
            ngettext(
                "You have %(count)s analysis running; wait for it to finish (a few seconds).",
                "You have %(count)s analyses running; wait for one to finish (a few seconds).",
                open_ones,
            )
            % {"count": open_ones}
        )
    recent = Analysis.objects.filter(requested_by=user, created__gte=now - timedelta(hours=1))
    if recent.count() >= ANALYSIS_PER_HOUR:
        oldest = recent.order_by("created").first()
        retry = oldest.created + timedelta(hours=1)
        raise TooMany(
            gettext("At most %(count)s analyses an hour; try again after %(time)s UTC.")
            % {"count": ANALYSIS_PER_HOUR, "time": f"{retry:%H:%M}"}
        )


def parse_position(text: str) -> engine.Position:
    try:
        return engine.resolve_start(text.strip())
    except engine.EngineError as error:
        raise Unprocessable(
            gettext("The position is not valid: %(error)s") % {"error": engine_text(error)},
            code="bad_position",
        ) from None


def analysis_request(
    *,
    user,
    now: datetime,
    position: str | None = None,
    game_id: int | None = None,
    seconds: float = 3.0,
    marbles_to_win: int = 6,
) -> Analysis:
    """Ask for the analysis of ``position`` (a string) or of the finished game ``game_id``."""
    if (position is None) == (game_id is None):
        raise InvalidInput(gettext("Give a position or a game, not both."), code="position_or_game")
    with transaction.atomic():
        _check_rate(user, now)
        if game_id is not None:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                raise NotFound(
                    gettext("There is no game %(game_id)s.") % {"game_id": game_id},
                    code="unknown_game",
                )
            if game.status != Game.Status.FINISHED:
                raise Conflict(
                    gettext("Game %(game_id)s is not finished: analyse it when it is over.")
                    % {"game_id": game_id},
                    code="game_not_finished",
                )
            analysis = Analysis.objects.create(
                requested_by=user,
                kind=Analysis.Kind.GAME,
                game=game,
                seconds=GAME_PLY_SECONDS,
                marbles_to_win=game.marbles_to_win,
                created=now,
                sent_at=now,
            )
        else:
            parsed = parse_position(position)
            if not parsed.has_legal_move():
                raise Unprocessable(
                    gettext("The side to move has no legal move in this position."),
                    code="bad_position",
                )
            analysis = Analysis.objects.create(
                requested_by=user,
                kind=Analysis.Kind.POSITION,
                position=parsed.to_string(),
                seconds=seconds,
                marbles_to_win=marbles_to_win,
                created=now,
                sent_at=now,
            )
        enqueue(RUN_TASK, analysis.pk)
    return analysis


def _claim(analysis_id: int, *, now: datetime | None = None) -> Analysis | None:
    """Take a queued analysis for this run: its next attempt, and a first heartbeat."""
    now = now or timezone.now()
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status != Analysis.Status.QUEUED:
            return None
        analysis.status = Analysis.Status.RUNNING
        analysis.attempts += 1
        analysis.heartbeat_at = now
        analysis.claimed_by = worker_name()
        analysis.save(update_fields=["status", "attempts", "heartbeat_at", "claimed_by"])
    return analysis


def analysis_run(*, analysis_id: int) -> bool:
    """The worker's part: run a queued analysis, writing each finished depth (idempotent)."""
    analysis = _claim(analysis_id)
    if analysis is None:
        return False
    _publish(analysis)  # running now
    try:
        if analysis.kind == Analysis.Kind.POSITION:
            _run_position(analysis)
        else:
            _run_game(analysis)
    except Superseded:
        logger.warning("analysis %s: run %s superseded; stopped", analysis.pk, analysis.attempts)
        return False
    except Exception as error:  # the page must learn it failed rather than wait forever
        _write(
            analysis,
            status=Analysis.Status.FAILED,
            error=str(error)[:300],
            finished=timezone.now(),
        )
        raise
    return True


def _write(analysis: Analysis, *, best_effort: bool = False, **fields) -> None:
    """Write ``fields`` of the analysis as this run (its attempt), then push it to its owner's
    pages; :class:`Superseded` when the analysis has been given to another run.
    ``best_effort``: a write that fails (say on a busy SQLite file) is skipped, as a depth in
    progress may be (the final write carries everything)."""
    try:
        written = Analysis.objects.filter(
            pk=analysis.pk, attempts=analysis.attempts, status=Analysis.Status.RUNNING
        ).update(**fields)
    except DatabaseError:
        if not best_effort:
            raise
        logger.warning("analysis %s: progress not written", analysis.pk, exc_info=True)
        return
    if not written:
        raise Superseded(analysis.pk)
    for name, value in fields.items():
        setattr(analysis, name, value)
    _publish(analysis)


def analyses_recover(*, now: datetime) -> int:
    """Beat's sweep: send again the analyses whose message was lost or whose worker died (or
    fail those lost ``MAX_ATTEMPTS`` times); how many it handled. Idempotent: each is locked
    and looked at again before it is changed."""
    handled = 0
    unfinished = Analysis.objects.filter(
        status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]
    ).values_list("pk", flat=True)
    for analysis_id in unfinished:
        handled += _recover(analysis_id, now)
    return handled


def analyses_release_dead(*, host: str, now: datetime) -> int:
    """Send again at once the analyses running in processes of ``host`` that are gone (called
    by a worker when it starts: one killed during a run is restarted on the same host, and the
    analysis need not wait for its heartbeat to go stale). How many it handled."""
    running = Analysis.objects.filter(
        status=Analysis.Status.RUNNING, claimed_by__startswith=f"{host}:"
    ).values_list("pk", "claimed_by")
    return sum(
        _recover(analysis_id, now, dead=claimed_by)
        for analysis_id, claimed_by in running
        if gone(claimed_by, host)
    )


def _recover(analysis_id: int, now: datetime, *, dead: str | None = None) -> int:
    """Send ``analysis_id`` again if it was lost: queued long ago, running with a stale
    heartbeat, or (``dead``) still claimed by that gone process."""
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None:
            return 0
        if analysis.status == Analysis.Status.QUEUED:
            sent = analysis.sent_at or analysis.created
            if now - sent < timedelta(seconds=RESEND_SECONDS):
                return 0  # its message may be on its way
        elif analysis.status != Analysis.Status.RUNNING or not _lost(analysis, now, dead):
            return 0
        elif analysis.attempts >= MAX_ATTEMPTS:
            analysis.status = Analysis.Status.FAILED
            analysis.error = gettext(
                "The analysis was lost with its worker %(count)s times; ask for it again."
            ) % {"count": analysis.attempts}
            analysis.finished = now
            analysis.save(update_fields=["status", "error", "finished"])
            after_commit(lambda: _publish(analysis), f"analysis {analysis_id}")
            return 1
        else:
            logger.warning("analysis %s: run %s lost; sent again", analysis_id, analysis.attempts)
            analysis.status = Analysis.Status.QUEUED
            analysis.claimed_by = ""
        analysis.sent_at = now
        analysis.save(update_fields=["status", "sent_at", "claimed_by"])
        enqueue(RUN_TASK, analysis.pk)
    return 1


def _lost(analysis: Analysis, now: datetime, dead: str | None) -> bool:
    """Whether a running analysis's run is lost: its heartbeat stale, or its process gone."""
    return _stale(analysis, now) or bool(dead and analysis.claimed_by == dead)


def _publish(analysis: Analysis) -> None:
    """Tell the owner's open pages (best effort: a page that misses it reads it over HTTP)."""
    message = {"type": "analysis", "analysis": analysis_document(analysis)}
    text = encode_json(message).decode()
    send_group(user_group(analysis.requested_by_id), {"type": "user.event", "text": text})


def _progress(analysis: Analysis, result: dict) -> None:
    """The work so far, for the page to show (best effort), and a sign of the run's life."""
    _write(analysis, best_effort=True, result=dict(result), heartbeat_at=timezone.now())


def _run_position(analysis: Analysis) -> None:
    position = engine.Position.from_string(analysis.position)
    lines: list[dict] = []

    def save(iteration) -> None:
        lines.append(
            {
                "depth": iteration.depth,
                "score": iteration.score,
                "pv": iteration.pv,
                "nodes": iteration.nodes,
            }
        )
        _progress(analysis, {"lines": lines, "best": iteration.pv[0] if iteration.pv else None})

    result = Searcher(marbles_to_win=analysis.marbles_to_win).search(
        position, seconds=analysis.seconds, on_iteration=save
    )
    best = result.move.notation if result.move else None
    _write(
        analysis,
        status=Analysis.Status.DONE,
        result={"lines": lines, "best": best},
        finished=timezone.now(),
    )


def _run_game(analysis: Analysis) -> None:
    from games.records import engine_game_of

    engine_game = engine_game_of(analysis.game)
    searcher = Searcher(marbles_to_win=analysis.marbles_to_win)
    evaluations = []
    positions = engine_game.positions[: GAME_PLY_LIMIT + 1]
    notations = (None, *engine_game.notations)
    for ply, position in enumerate(positions):
        placing = engine_game.settings.placement and ply < engine_game.settings.placements
        if placing or not position.has_legal_move():
            score = 0
        else:
            found = searcher.search(position, seconds=GAME_PLY_SECONDS, max_depth=3)
            score = found.score if position.side_to_move == engine.BLACK else -found.score
        evaluations.append(
            {"ply": ply, "score": score, "move": notations[ply], "position": position.to_string()}
        )
        if ply % 10 == 0:
            _progress(analysis, {"evaluations": evaluations})
    _write(
        analysis,
        status=Analysis.Status.DONE,
        result={"evaluations": evaluations, "drops": biggest_drops(evaluations)},
        finished=timezone.now(),
    )


def biggest_drops(evaluations: list[dict], count: int = 3) -> list[int]:
    """The plies whose move lost the mover the most (Black's view for Black's moves, White's
    for White's), at most ``count``, biggest first; only real losses (a drop of a tenth of a
    marble or more)."""
    drops = []
    for before, after in zip(evaluations, evaluations[1:], strict=False):
        mover_is_black = before["position"].startswith("b")
        change = after["score"] - before["score"]
        loss = -change if mover_is_black else change
        if loss >= 100:
            drops.append((loss, after["ply"]))
    return [ply for _, ply in sorted(drops, reverse=True)[:count]]
