/* Sumito, the analysis board: the engine. "Analyse" asks the worker to search the position
 * shown and draws each finished depth as it arrives (follow.js); "Show best move" marks the
 * best move found on the board.
 *
 * `createEngine({ current, analysesUrl, isBusy, onBestShown })`: `current()` is the position
 * shown ({ position, doc }), `onBestShown()` redraws the board when the best move is shown or
 * hidden. Returns { render, shownBest, reset }: shownBest() is the move to mark (null when
 * hidden or unknown); reset() hides it (a new position).
 */
import { COLOUR_NAME } from "sumito/board.js";
import { call } from "sumito/api.js";
import { format, gettext } from "sumito/i18n.js";
import { follow } from "sumito/analysis/follow.js";
import { element, renderLines } from "sumito/analysis/lines.js";

const $ = (id) => document.getElementById(id);

export function createEngine({ current, analysesUrl, isBusy, onBestShown, onScore = () => {} }) {
  let engine = null; // { position, side, doc, stop, startedAt, error, refused }: the analysis of a position
  let showingBest = false;

  const analysedHere = () => engine && engine.position === current().position;
  const seconds = () => Number($("seconds").value);

  function bestMove() {
    if (!analysedHere() || !engine.doc) return null;
    const lines = engine.doc.lines || [];
    const deepest = lines.length ? lines[lines.length - 1] : null;
    return engine.doc.best || (deepest && deepest.pv.length ? deepest.pv[0] : null);
  }

  async function analyse() {
    if (engine && engine.stop) engine.stop();
    const { position, doc: movesDoc } = current();
    engine = { position, side: movesDoc.side_to_move, doc: null, stop: null, startedAt: performance.now(), error: "" };
    const asked = engine;
    render();
    try {
      const doc = await call("POST", analysesUrl, { position, seconds: seconds() });
      if (engine !== asked) return;
      engine.stop = follow(`${analysesUrl}${doc.id}/`, doc, (next) => {
        if (engine !== asked) return;
        engine.doc = next;
        engine.error = "";
        render();
        onScore();
      }, (error) => {
        if (engine !== asked) return;
        engine.error = error.message;
        render();
      });
    } catch (error) {
      if (engine !== asked) return;
      engine.error = error.message;
      engine.refused = true;
      render();
    }
  }

  function renderProgress(status, doc, lines) {
    const progress = $("engine-progress");
    progress.replaceChildren();
    if (status !== "queued" && status !== "running") return;
    const depth = lines.length ? lines[lines.length - 1].depth : 0;
    const bar = element("progress", { max: String(doc ? doc.seconds : seconds()) });
    bar.value = (performance.now() - engine.startedAt) / 1000;
    progress.append(element("span", { class: "spinner", "aria-hidden": "true" }),
      element("span", {}, status === "queued" || !depth ? gettext("Waiting for the engine…")
        : format(gettext("Thinking… depth %(depth)s"), { depth })), bar);
  }

  function renderNote(here, status, doc, lines) {
    const note = $("engine-status");
    note.classList.remove("error");
    if (here && engine.error) {
      note.textContent = engine.error;
      note.classList.add("error");
    } else if (status === "failed") {
      note.textContent = format(gettext("The analysis failed: %(error)s"), { error: doc.error || "?" });
      note.classList.add("error");
    } else if (status === "done") {
      const best = bestMove();
      note.textContent = best
        ? format(gettext("Done: best move %(move)s, depth %(depth)s."), { move: best, depth: lines.length ? lines[lines.length - 1].depth : 0 })
        : gettext("Done: no move found.");
    } else {
      note.textContent = here || !$("analyse") ? "" : gettext("Press Analyse to let the engine search this position.");
    }
  }

  function render() {
    const here = analysedHere();
    const doc = here ? engine.doc : null;
    const status = doc ? doc.status : here && !engine.refused ? "queued" : "";
    const lines = doc ? doc.lines || [] : [];
    renderLines($("lines-body"), lines);
    $("lines").hidden = !lines.length;
    $("engine").dataset.status = status;
    $("engine-view").textContent = here && lines.length
      ? format(gettext("Scores in marbles, from %(colour)s’s side (to move)."), { colour: COLOUR_NAME[engine.side] })
      : "";
    renderProgress(status, doc, lines);
    renderNote(here, status, doc, lines);
    if (!$("analyse")) return; // not logged in: the engine is not offered
    const running = status === "queued" || status === "running";
    $("analyse").disabled = running || isBusy() || !current().doc.moves.length;
    const best = bestMove();
    $("show-best").disabled = !best;
    $("show-best").textContent = showingBest && best ? gettext("Hide best move") : gettext("Show best move");
    $("show-best").setAttribute("aria-pressed", String(showingBest && Boolean(best)));
  }

  function bind() {
    if (!$("analyse")) return;
    $("analyse").addEventListener("click", analyse);
    $("show-best").addEventListener("click", () => {
      showingBest = !showingBest;
      onBestShown();
      render();
    });
  }

  function score() {
    if (!analysedHere() || !engine.doc) return null;
    const lines = engine.doc.lines || [];
    if (!lines.length) return null;
    const deepest = lines[lines.length - 1];
    return { score: engine.side === "b" ? deepest.score : -deepest.score, depth: deepest.depth };
  }

  bind();
  return {
    render,
    score,
    /** The best move to mark on the board, when it is asked for. */
    shownBest: () => (showingBest ? bestMove() : null),
    reset() {
      showingBest = false;
    },
  };
}
