/* Sumito: the analysis board. Plain ES2020, no build step; the board comes from board.js.
 *
 * Three parts, each started only on the page that has its element:
 * - window.SumitoAnalysis: what the analysis pages share (the API with the session's CSRF token,
 *   following an analysis as the worker pushes it (and by polling, as a net), scores as marbles, the
 *   table of lines); analysis-chart.js (the result page) uses it;
 * - the replay page's "Analyse this game" button (#analyse-game): asks for the analysis of the
 *   finished game and opens its result page;
 * - the board page (#analysis-board): a position tried move by move. The server is the only
 *   authority on the rules: the legal moves of every position, and where each leads, come from
 *   the API (GET /api/v1/analysis/moves/); the page draws them, lets the player pick one (from
 *   the list, or by clicking marbles and then a destination as on the game page), keeps the line
 *   tried so far (Back undoes the last move) and keeps the position in the address, so the
 *   address is the link to share. "Analyse" asks the worker to search the position shown and
 *   draws each finished depth as it arrives.
 */
(() => {
  "use strict";

  const MARBLE = 1000; // evaluation units of one marble (games.engine.search)
  const WIN = 1_000_000; // a won position scores WIN minus the plies to the win
  const POLL_MS = 500;
  const LIVE_POLL_MS = 3000;
  const FINAL = new Set(["done", "failed"]);
  const DIRECTIONS = [[0, 1], [0, -1], [1, 1], [-1, -1], [1, 0], [-1, 0]];
  // Translated by the JavaScript catalog (/jsi18n/), loaded before every script.
  const format = (text, values) => interpolate(text, values, true);
  const $ = (id) => document.getElementById(id);

  // --- shared: the API, polling, scores ----------------------------------------------------------

  const { call: api, ApiError } = window.SumitoApi;

  /**
   * Follow an analysis: `onDoc(first)` at once, then each newer document as it comes. The
   * worker pushes every finished depth to the player's socket (/ws/me/, opened by notify.js,
   * heard here as "sumito:live" events of type "analysis"); a read of `url` every POLL_MS while
   * the analysis is queued or running (every LIVE_POLL_MS once pushes arrive) catches what a
   * lost push or a closed socket missed. A document older than the one shown is skipped. A
   * failed read is reported to `onError` and tried again a little later (a 404 stops it).
   * Returns a function that stops following.
   */
  function follow(url, first, onDoc, onError = () => {}) {
    let stopped = false;
    let timer = null;
    let failures = 0;
    let live = false;
    let shown = -1;
    const progressOf = (doc) => (FINAL.has(doc.status) ? 1e9 : 0) + (doc.status === "running" ? 1 : 0)
      + (Array.isArray(doc.lines) ? doc.lines.length : 0)
      + (Array.isArray(doc.evaluations) ? doc.evaluations.length : 0);
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener("sumito:live", onLive);
    };
    const show = (doc) => {
      const progress = progressOf(doc);
      if (progress < shown) return;
      shown = progress;
      onDoc(doc);
      if (FINAL.has(doc.status)) stop();
    };
    const next = (delay) => { if (!stopped) timer = window.setTimeout(read, delay); };
    async function read() {
      try {
        const doc = await api("GET", url);
        if (stopped) return;
        failures = 0;
        show(doc);
        next(live ? LIVE_POLL_MS : POLL_MS);
      } catch (error) {
        if (stopped) return;
        failures += 1;
        onError(error);
        if (error.status !== 404 && failures < 30) next(POLL_MS * Math.min(failures + 1, 6));
      }
    }
    function onLive(event) {
      const message = event.detail;
      if (stopped || !message || message.type !== "analysis" || !message.analysis) return;
      if (message.analysis.id !== first.id) return;
      live = true;
      show(message.analysis);
    }
    document.addEventListener("sumito:live", onLive);
    show(first);
    next(POLL_MS);
    return stop;
  }

  /** A score in evaluation units as marbles for a person: "+0.35", "-1.20", or a win in n plies. */
  function formatScore(score) {
    if (Math.abs(score) >= WIN / 2) {
      const plies = WIN - Math.abs(score);
      return score > 0 ? format(gettext("wins in %(plies)s"), { plies })
        : format(gettext("loses in %(plies)s"), { plies });
    }
    const marbles = score / MARBLE;
    if (Math.abs(marbles) < 0.005) return "0.00";
    return `${marbles > 0 ? "+" : "-"}${Math.abs(marbles).toFixed(2)}`;
  }

  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== "") node.textContent = text;
    return node;
  }

  /** The search's lines, deepest first, as rows of `tbody`: depth, score, best line, nodes. */
  function renderLines(tbody, lines) {
    tbody.replaceChildren();
    const deepest = [...lines].reverse();
    deepest.forEach((line, index) => {
      const row = element("tr", { "data-depth": String(line.depth) });
      if (index === 0) row.classList.add("deepest");
      row.append(
        element("td", { class: "depth" }, String(line.depth)),
        element("td", { class: "score", "data-score": String(line.score) }, formatScore(line.score)),
        element("td", { class: "pv" }, (line.pv || []).join(" ")),
        element("td", { class: "nodes" }, Number(line.nodes || 0).toLocaleString()),
      );
      tbody.appendChild(row);
    });
  }

  window.SumitoAnalysis = { api, ApiError, follow, formatScore, renderLines, element, FINAL };

  // --- the replay page: "Analyse this game" -------------------------------------------------------

  function startReplayButton() {
    const button = $("analyse-game");
    if (!button) return;
    const note = $("analyse-game-status");
    button.addEventListener("click", async () => {
      button.disabled = true;
      note.classList.remove("error");
      note.textContent = gettext("Asking for an analysis…");
      try {
        const doc = await api("POST", button.dataset.api, { game: Number(button.dataset.game) });
        window.location.assign(doc.url);
      } catch (error) {
        note.textContent = error.message;
        note.classList.add("error");
        button.disabled = false;
      }
    });
  }

  // --- the board page -----------------------------------------------------------------------------

  function startBoard() {
    const root = $("analysis-board");
    if (!root || !window.SumitoBoard) return;
    const { create, parseCell, cellName, isCell, moveCells, parsePosition, COLOUR_NAME } = window.SumitoBoard;
    const urls = { analyses: root.dataset.analysesUrl, moves: root.dataset.movesUrl, page: root.dataset.pageUrl };
    const board = create($("board"));
    const answers = new Map(); // position string -> its moves document (a promise)

    let line = []; // [{ position, notation, doc }]: the start (notation null), then each move tried
    let occupancy = new Map();
    let groups = new Map(); // sorted marble set -> the moves of those marbles
    let selection = [];
    let busy = false;
    let showingBest = false;
    let engine = null; // { position, doc, stop, startedAt }: the analysis of a position on the board

    const current = () => line[line.length - 1];
    const groupKey = (marbles) => [...marbles].sort().join(",");

    function movesOf(position) {
      if (!answers.has(position)) {
        const answer = api("GET", `${urls.moves}?position=${encodeURIComponent(position)}`);
        answer.catch(() => answers.delete(position)); // a failure is not kept
        answers.set(position, answer);
      }
      return answers.get(position);
    }

    function step(cell, [dr, dd]) {
      const [row, diagonal] = parseCell(cell);
      return isCell(row + dr, diagonal + dd) ? cellName(row + dr, diagonal + dd) : null;
    }

    /**
     * A move's marbles and destinations, read from its notation in the position it is played in:
     * an in-line move names its trailing marble and that marble's destination, and moves the run
     * of own marbles ahead of it (at most three); a broadside names both ends and where the first
     * goes (board.js moveCells); a placement names its cell.
     */
    function describe(notation) {
      const side = current().doc.side_to_move;
      if (notation.startsWith("@")) return { marbles: [], destinations: [notation.slice(1)], inline: true, push: false };
      if (notation.length === 6) {
        const cells = moveCells(notation);
        return { marbles: cells.from, destinations: cells.to, inline: false, push: false };
      }
      const trailing = notation.slice(0, 2);
      const [r0, d0] = parseCell(trailing);
      const [r1, d1] = parseCell(notation.slice(2, 4));
      const direction = [r1 - r0, d1 - d0];
      const marbles = [trailing];
      for (let ahead = step(trailing, direction); ahead && marbles.length < 3 && occupancy.get(ahead) === side;
        ahead = step(ahead, direction)) marbles.push(ahead);
      const destinations = marbles.map((cell) => step(cell, direction));
      const lead = destinations[destinations.length - 1];
      return { marbles, destinations, inline: true, push: Boolean(occupancy.get(lead)) && occupancy.get(lead) !== side };
    }

    // --- positions and the line tried -------------------------------------------------------------

    /**
     * Show `position`: as a new start (`notation` null: the page's position, or one pasted), the
     * line beginning again; or as the position after the move `notation`, added to the line.
     */
    async function load(position, notation = null) {
      if (busy) return;
      setBusy(true);
      try {
        const doc = await movesOf(position);
        const entry = { position: doc.position, notation, doc };
        line = notation === null ? [entry] : [...line, entry];
        setStatus("");
        onPositionChange();
      } catch (error) {
        setStatus(error.message, true);
      } finally {
        setBusy(false);
      }
    }

    const tryMove = (move) => load(move.position, move.notation);

    function back(toLength = line.length - 1) {
      if (busy || toLength < 1 || toLength >= line.length) return;
      line = line.slice(0, toLength);
      onPositionChange();
    }

    function onPositionChange() {
      selection = [];
      showingBest = false;
      $("share").hidden = true;
      hideDirectionChoice();
      const { position } = current();
      history.replaceState(null, "", `${urls.page}?position=${encodeURIComponent(position)}`);
      $("position-text").value = position;
      render();
    }

    // --- drawing ------------------------------------------------------------------------------------

    function render() {
      const { position, doc } = current();
      occupancy = parsePosition(position);
      groups = new Map();
      for (const move of doc.moves) {
        const described = { ...move, ...describe(move.notation) };
        const key = groupKey(described.marbles);
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(described);
      }
      board.setPosition(position);
      $("board").dataset.position = position;
      $("board").dataset.ply = String(line.length - 1);
      renderBoardMarks();
      renderSide(doc);
      renderLegalMoves(doc);
      renderTried();
      renderEngine();
      $("back").disabled = line.length < 2 || busy;
    }

    function renderBoardMarks() {
      // The best move replaces the last move's marks: its marbles ringed, where they go tinted.
      const best = showingBest ? bestMove() : null;
      const bestCells = best ? describe(best) : { marbles: [], destinations: [] };
      const last = best ? { from: [], to: [] } : moveCells(current().notation || "");
      board.highlight(last.from, last.to);
      const interactive = !busy;
      const reachable = interactive ? targets() : new Map();
      const movable = new Set();
      if (interactive) for (const moves of groups.values()) for (const move of moves) for (const cell of move.marbles) movable.add(cell);
      for (const [name, group] of board.cells) {
        group.classList.toggle("selected", selection.includes(name));
        group.classList.toggle("movable", movable.has(name));
        group.classList.toggle("target", reachable.has(name));
        group.classList.toggle("push", reachable.has(name) && reachable.get(name).some((move) => move.push));
        group.classList.toggle("best", bestCells.marbles.includes(name));
        group.classList.toggle("best-to", bestCells.destinations.includes(name));
        const clickable = movable.has(name) || reachable.has(name);
        if (clickable) {
          group.setAttribute("role", "button");
          group.setAttribute("tabindex", "0");
        } else {
          group.setAttribute("role", "img");
          group.removeAttribute("tabindex");
        }
      }
      $("board").classList.toggle("interactive", interactive);
      $("board").classList.toggle("busy", busy);
    }

    function renderSide(doc) {
      $("side-to-move").textContent = doc.moves.length
        ? format(gettext("%(colour)s to move"), { colour: COLOUR_NAME[doc.side_to_move] })
        : format(gettext("%(colour)s to move, and has no legal move"), { colour: COLOUR_NAME[doc.side_to_move] });
      $("side-to-move").dataset.side = doc.side_to_move;
      $("marbles-off").textContent = format(gettext("Marbles off the board: Black %(black)s, White %(white)s"),
        { black: doc.pushed_off.black, white: doc.pushed_off.white });
    }

    function renderLegalMoves(doc) {
      const list = $("legal-moves");
      list.replaceChildren();
      $("legal-count").textContent = String(doc.moves.length);
      for (const move of doc.moves) {
        const button = element("button", { type: "button", class: "small secondary move", "data-move": move.notation }, move.notation);
        button.disabled = busy;
        button.addEventListener("click", () => tryMove(move));
        list.appendChild(element("li")).appendChild(button);
      }
    }

    function renderTried() {
      const list = $("tried");
      list.replaceChildren();
      $("tried-empty").hidden = line.length > 1;
      line.slice(1).forEach((entry, index) => {
        const button = element("button", { type: "button", class: "link move", "data-ply": String(index + 1) }, entry.notation);
        button.title = gettext("Go back to the position after this move");
        if (index + 2 === line.length) button.setAttribute("aria-current", "step");
        button.addEventListener("click", () => back(index + 2));
        list.appendChild(element("li")).appendChild(button);
      });
    }

    // --- picking a move on the board (as on the game page) ------------------------------------------

    const placing = () => groups.has(groupKey([]));

    function targets() {
      const found = new Map();
      if (!selection.length && !placing()) return found;
      for (const move of groups.get(groupKey(selection)) || []) {
        // In-line: the leading marble's destination; broadside: every destination.
        const cells = move.inline ? [move.destinations[move.destinations.length - 1]] : move.destinations;
        for (const cell of cells) {
          if (!found.has(cell)) found.set(cell, []);
          found.get(cell).push(move);
        }
      }
      return found;
    }

    function isPartOfGroup(marbles) {
      for (const moves of groups.values()) {
        if (marbles.every((cell) => moves[0].marbles.includes(cell))) return true;
      }
      return false;
    }

    /** Two own marbles two steps apart on a line, with an own marble between: the three of them. */
    function filledLine(marbles, side) {
      if (marbles.length !== 2) return marbles;
      for (const direction of DIRECTIONS) {
        const middle = step(marbles[0], direction);
        if (middle && step(middle, direction) === marbles[1] && occupancy.get(middle) === side) {
          return [marbles[0], middle, marbles[1]];
        }
      }
      return marbles;
    }

    function onCellClick(cell) {
      hideDirectionChoice();
      if (busy) return;
      const reachable = targets().get(cell);
      if (reachable) {
        if (reachable.length === 1) tryMove(reachable[0]);
        else showDirectionChoice(reachable);
        return;
      }
      const side = current().doc.side_to_move;
      if (occupancy.get(cell) !== side) {
        selection = [];
        renderBoardMarks();
        return;
      }
      const fits = (marbles) => marbles.length > 0 && (groups.has(groupKey(marbles)) || isPartOfGroup(marbles));
      let candidate = selection.includes(cell)
        ? selection.filter((other) => other !== cell)
        : filledLine([...selection, cell], side);
      if (!fits(candidate)) candidate = fits([cell]) && !selection.includes(cell) ? [cell] : [];
      if (candidate.length) setStatus("");
      else if (!selection.includes(cell)) setStatus(format(gettext("%(cell)s cannot move."), { cell }));
      selection = candidate;
      renderBoardMarks();
    }

    /** Two broadsides can share a destination: ask which one. */
    function showDirectionChoice(moves) {
      const box = $("direction-choice");
      box.replaceChildren(element("span", { class: "direction-prompt" }, gettext("Which move?")));
      for (const move of moves) {
        const button = element("button", { type: "button", class: "small", "data-move": move.notation }, move.notation);
        button.addEventListener("click", () => {
          hideDirectionChoice();
          tryMove(move);
        });
        box.appendChild(button);
      }
      const cancel = element("button", { type: "button", class: "small secondary" }, gettext("Cancel"));
      cancel.addEventListener("click", hideDirectionChoice);
      box.appendChild(cancel);
      box.hidden = false;
      box.querySelector("button").focus();
    }

    function hideDirectionChoice() {
      const box = $("direction-choice");
      box.hidden = true;
      box.replaceChildren();
    }

    // --- the engine -------------------------------------------------------------------------------------

    const analysedHere = () => engine && engine.position === current().position;

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
      renderEngine();
      try {
        const doc = await api("POST", urls.analyses, { position, seconds: Number($("seconds").value) });
        if (engine !== asked) return;
        engine.stop = follow(`${urls.analyses}${doc.id}/`, doc, (next) => {
          if (engine !== asked) return;
          engine.doc = next;
          engine.error = "";
          renderEngine();
        }, (error) => {
          if (engine !== asked) return;
          engine.error = error.message;
          renderEngine();
        });
      } catch (error) {
        if (engine !== asked) return;
        engine.error = error.message;
        engine.refused = true;
        renderEngine();
      }
    }

    function renderEngine() {
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
      const running = status === "queued" || status === "running";
      const progress = $("engine-progress");
      progress.replaceChildren();
      if (running) {
        const depth = lines.length ? lines[lines.length - 1].depth : 0;
        const bar = element("progress", { max: String(doc ? doc.seconds : Number($("seconds").value)) });
        bar.value = (performance.now() - engine.startedAt) / 1000;
        progress.append(element("span", { class: "spinner", "aria-hidden": "true" }),
          element("span", {}, status === "queued" || !depth ? gettext("Waiting for the engine…")
            : format(gettext("Thinking… depth %(depth)s"), { depth })), bar);
      }
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
      if (!$("analyse")) return; // not logged in: the engine is not offered
      $("analyse").disabled = running || busy || !current().doc.moves.length;
      const best = bestMove();
      $("show-best").disabled = !best;
      $("show-best").textContent = showingBest && best ? gettext("Hide best move") : gettext("Show best move");
      $("show-best").setAttribute("aria-pressed", String(showingBest && Boolean(best)));
    }

    // --- the rest of the panel -----------------------------------------------------------------------

    function setBusy(value) {
      busy = value;
      if (line.length) render();
    }

    function setStatus(text, isError = false) {
      const status = $("status");
      status.textContent = text;
      status.classList.toggle("error", Boolean(text) && isError);
    }

    async function share() {
      const link = `${window.location.origin}${urls.page}?position=${encodeURIComponent(current().position)}`;
      const field = $("share-link");
      field.value = link;
      $("share").hidden = false;
      field.focus();
      field.select();
      let copied = Boolean(navigator.clipboard && window.isSecureContext);
      if (copied) await navigator.clipboard.writeText(link).catch(() => { copied = false; });
      $("share-note").textContent = copied ? gettext("Link copied.") : gettext("Copy this link:");
    }

    function bind() {
      const onCell = (event) => {
        const cell = event.target.closest("[data-cell]");
        if (!cell || (event.type === "keydown" && event.key !== "Enter" && event.key !== " ")) return;
        event.preventDefault();
        onCellClick(cell.dataset.cell);
      };
      board.svg.addEventListener("click", onCell);
      board.svg.addEventListener("keydown", onCell);
      $("back").addEventListener("click", () => back());
      $("share-button").addEventListener("click", share);
      if ($("analyse")) {
        $("analyse").addEventListener("click", analyse);
        $("show-best").addEventListener("click", () => {
          showingBest = !showingBest;
          selection = [];
          renderBoardMarks();
          renderEngine();
        });
      }
      $("position-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const text = $("position-text").value.trim();
        if (text) load(text);
      });
      document.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowLeft" || event.altKey || event.ctrlKey || event.metaKey) return;
        const target = event.target;
        if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
        event.preventDefault();
        back();
      });
    }

    bind();
    load(root.dataset.position).then(() => { root.dataset.ready = "true"; });
  }

  function startAll() {
    startReplayButton();
    startBoard();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
