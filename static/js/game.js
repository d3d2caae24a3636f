/* Sumito: the live game page. Plain ES2020, no build step.
 *
 * The server is the only authority: this script draws the state document it sends (embedded in
 * the page, answered by the API, pushed over the WebSocket), offers only the legal moves listed
 * in it, and sends moves with the version (ply) it was drawn from. Clocks count down locally from
 * the server's values, measured on the monotonic clock from the moment the state arrived; at zero
 * the page asks the server to decide (claim-flag for the opponent, a read for everyone else).
 *
 * The page's other features (chat, rematch, sound, premoves, the spectator count: game-*.js,
 * loaded after this script) use only the small interface this one exposes as window.SumitoGame;
 * the socket connects once they have all registered (DOMContentLoaded).
 */
(() => {
  "use strict";

  const DIRECTIONS = { E: [0, 1], W: [0, -1], NE: [1, 1], SW: [-1, -1], NW: [1, 0], SE: [-1, 0] };
  // Arrows as seen from Black's side; White's view is turned by 180 degrees.
  const ARROWS = { E: "→", W: "←", NE: "↗", SW: "↙", NW: "↖", SE: "↘" };
  const TURNED = { E: "W", W: "E", NE: "SW", SW: "NE", NW: "SE", SE: "NW" };
  const COLOUR_NAME = { b: gettext("Black"), w: gettext("White") };
  const MARBLE_NAME = { b: gettext("black marble"), w: gettext("white marble") };
  // Translated by the JavaScript catalog (/jsi18n/), loaded before every script.
  const format = (text, values) => interpolate(text, values, true);
  const YOUR_TURN = gettext("Your turn");

  const $ = (id) => document.getElementById(id);
  const root = $("game");
  const stateScript = $("game-state");
  if (!root || !stateScript || !window.SumitoBoard) return;
  // Geometry and drawing are shared with the replay page (board.js).
  const { cellName, parseCell, isCell, parsePosition, moveCells, formatClock } = window.SumitoBoard;

  const myColour = root.dataset.myColour || "";
  const apiBase = root.dataset.apiBase;
  const wsPath = root.dataset.wsPath;
  const flipped = myColour === "w";

  let state = JSON.parse(stateScript.textContent);
  // When the embedded state left the server, on the performance.now() timeline: the first byte of
  // the page's response (the local wall clock is never used for timing).
  let receivedAt = navigationResponseStart();
  let occupancy = new Map();
  let groups = new Map(); // sorted marble set -> legal moves
  let selection = [];
  let lastMove = { from: [], to: [] };
  let busy = false;
  let flagHandledFor = null;
  let socket = null;
  let reconnectAttempts = 0;
  let unavailableAttempts = 0;
  let everConnected = false;
  let reconnectTimer = null;
  // Moves offered on the board other than the legal moves of my turn (premoves): { moves, onChoose }.
  let alternative = null;
  const stateListeners = [];
  const messageListeners = [];
  const cells = new Map(); // cell name -> its <g>

  // --- cells and geometry --------------------------------------------------------------------------

  function step(name, direction, times = 1) {
    const [row, diagonal] = parseCell(name);
    const [dr, dd] = DIRECTIONS[direction];
    const r = row + dr * times;
    const d = diagonal + dd * times;
    return isCell(r, d) ? cellName(r, d) : null;
  }

  const groupKey = (marbles) => [...marbles].sort().join(",");

  /** A placement phase: the offered moves place a marble (no marbles, one destination). */
  const placing = () => groups.has(groupKey([]));

  // --- the board (built once, updated in place) ---------------------------------------------------

  function buildBoard() {
    const board = window.SumitoBoard.create($("board"), { flipped });
    for (const [name, group] of board.cells) cells.set(name, group);
    const drawing = board.svg;
    drawing.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-cell]");
      if (cell) onCellClick(cell.dataset.cell);
      else clearSelection();
    });
    drawing.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const cell = event.target.closest("[data-cell]");
      if (!cell) return;
      event.preventDefault();
      onCellClick(cell.dataset.cell);
    });
  }

  // --- selecting and playing ------------------------------------------------------------------------

  function myTurn() {
    return Boolean(myColour) && state.status === "started" && state.side_to_move === myColour;
  }

  /** Offering the alternative moves: a player's game in play, on the opponent's turn. */
  function choosingAlternative() {
    return Boolean(alternative) && Boolean(myColour) && state.status === "started" && !myTurn();
  }

  /** Whether the board takes a selection now, and of which moves. */
  function selectable() {
    return (myTurn() || choosingAlternative()) && !busy;
  }

  function offeredMoves() {
    if (myTurn()) return state.legal_moves || [];
    return choosingAlternative() ? alternative.moves : [];
  }

  /** A move chosen on the board: played on my turn, handed to the alternative's owner otherwise. */
  function commit(move) {
    if (myTurn()) play(move.notation);
    else if (choosingAlternative()) {
      selection = [];
      alternative.onChoose(move);
      renderBoard();
    }
  }

  function targets() {
    const found = new Map();
    for (const move of groups.get(groupKey(selection)) || []) {
      // In-line: the leading marble's destination; broadside: every destination.
      const cellsOfMove = move.kind === "inline" ? [move.destinations[move.destinations.length - 1]] : move.destinations;
      for (const cell of cellsOfMove) {
        if (!found.has(cell)) found.set(cell, []);
        found.get(cell).push(move);
      }
    }
    return found;
  }

  /** Two own marbles two steps apart on a line, with an own marble between: the three of them. */
  function filledLine(marbles) {
    if (marbles.length !== 2) return marbles;
    for (const direction of Object.keys(DIRECTIONS)) {
      const middle = step(marbles[0], direction);
      if (middle && step(marbles[0], direction, 2) === marbles[1] && occupancy.get(middle) === myColour) {
        return [marbles[0], middle, marbles[1]];
      }
    }
    return marbles;
  }

  function onCellClick(cell) {
    hideDirectionChoice();
    if (!selectable()) return;
    const reachable = selection.length || placing() ? targets().get(cell) : null;
    if (reachable) {
      choose(reachable, cell);
      return;
    }
    if (occupancy.get(cell) !== myColour) {
      clearSelection();
      return;
    }
    // A selection stays if it is the marble set of a legal move, or part of one (a marble that
    // cannot move alone but can with its neighbours); otherwise it starts again from this marble.
    const fits = (marbles) => marbles.length > 0
      && (groups.has(groupKey(marbles)) || isPartOfGroup(marbles));
    let candidate = selection.includes(cell)
      ? selection.filter((other) => other !== cell)
      : filledLine([...selection, cell]);
    if (!fits(candidate)) candidate = fits([cell]) && !selection.includes(cell) ? [cell] : [];
    if (candidate.length) setStatus("");
    else if (!selection.includes(cell)) setStatus(format(gettext("%(cell)s cannot move."), { cell }));
    selection = candidate;
    renderBoard();
  }

  function isPartOfGroup(marbles) {
    for (const moves of groups.values()) {
      const members = moves[0].marbles;
      if (marbles.every((cell) => members.includes(cell))) return true;
    }
    return false;
  }

  function clearSelection() {
    hideDirectionChoice();
    if (!selection.length) return;
    selection = [];
    renderBoard();
  }

  function choose(moves, cell) {
    if (moves.length === 1) {
      commit(moves[0]);
      return;
    }
    // Two broadsides can share a destination: ask which way.
    window.SumitoBoard.askDirection($("direction-choice"), moves, {
      arrowOf: (move) => ARROWS[flipped ? TURNED[move.direction] : move.direction],
      anchor: cells.get(cell),
      width: $("board").getBoundingClientRect().width,
      onPick: commit,
    });
  }

  function hideDirectionChoice() {
    window.SumitoBoard.hideDirections($("direction-choice"));
  }

  /** Play a move on the current ply; resolves to whether the server took it. */
  async function play(notation) {
    busy = true;
    setStatus("");
    renderBoard();
    try {
      applyState(await post("moves/", { move: notation, ply: state.version }), performance.now());
      selection = [];
      return true;
    } catch (error) {
      showError(error);
      return false;
    } finally {
      busy = false;
      render();
    }
  }

  // --- talking to the server ------------------------------------------------------------------------

  const { call: api } = window.SumitoApi;

  const request = (method, path, body) => api(method, apiBase + path, body);

  const post = (path, body) => request("POST", path, body);

  async function refresh() {
    try {
      applyState(await request("GET", ""), performance.now());
    } catch (error) {
      showError(error);
    }
  }

  function showError(error) {
    setStatus(error.message || String(error), true);
    if (["stale_ply", "not_your_turn", "game_over", "time_out"].includes(error.code)) refresh();
  }

  function setStatus(text, isError = false) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("error", Boolean(text) && isError);
  }

  // --- applying a state -------------------------------------------------------------------------------

  function isNewer(next, current) {
    if (next.version !== current.version) return next.version > current.version;
    return Date.parse(next.clock.server_now) >= Date.parse(current.clock.server_now);
  }

  function applyState(next, arrivedAt) {
    if (!next || next.id !== state.id || !isNewer(next, state)) return false;
    const previous = state;
    state = next;
    receivedAt = arrivedAt;
    if (next.version !== previous.version) {
      lastMove = lastMoveCells(next, previous);
      selection = [];
      hideDirectionChoice();
    }
    prepare();
    if (selection.length && !groups.has(groupKey(selection))) selection = [];
    render();
    for (const listener of stateListeners) call(listener, state, previous);
    return true;
  }

  function prepare() {
    occupancy = parsePosition(state.position);
    groups = new Map();
    for (const move of offeredMoves()) {
      const key = groupKey(move.marbles);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(move);
    }
  }

  /** A feature's listener: its failure must not stop the page. */
  function call(listener, ...args) {
    try {
      listener(...args);
    } catch (error) {
      window.setTimeout(() => { throw error; }); // reported, not swallowed
    }
  }

  /**
   * A socket event's state lists only the moves after its `moves_after`: the earlier ones are
   * those this page has. Null when the page lacks one of them (it missed an event).
   */
  function withEarlierMoves(next) {
    if (!next || !next.moves_after) return next;
    const earlier = (state.moves || []).filter((move) => move.ply <= next.moves_after);
    if (earlier.length !== next.moves_after) return null;
    return { ...next, moves: earlier.concat(next.moves) };
  }

  /** The cells of the last move: exact when the previous state listed it, else from its notation. */
  function lastMoveCells(next, previous) {
    const moves = next.moves || [];
    if (!moves.length) return { from: [], to: [] };
    const notation = moves[moves.length - 1].notation;
    if (notation.startsWith("@")) return { from: [], to: [notation.slice(1)] }; // a placement
    if (previous && next.version === previous.version + 1) {
      const known = (previous.legal_moves || []).find((move) => move.notation === notation);
      if (known) return { from: known.marbles, to: known.destinations };
    }
    return moveCells(notation);
  }

  // --- drawing the page ---------------------------------------------------------------------------------

  function render() {
    renderBoard();
    renderPlayers();
    renderMoves();
    renderResult();
    renderActions();
    renderClocks();
  }

  function renderBoard() {
    const interactive = selectable();
    const reachable = interactive ? targets() : new Map();
    const selected = new Set(selection);
    const from = new Set(lastMove.from);
    const to = new Set(lastMove.to);
    const movable = new Set();
    if (interactive) for (const move of offeredMoves()) for (const cell of move.marbles) movable.add(cell);
    $("board").classList.toggle("interactive", interactive);
    $("board").classList.toggle("choosing-alternative", interactive && !myTurn());
    $("board").classList.toggle("busy", busy);
    for (const [name, group] of cells) {
      const owner = occupancy.get(name) || "";
      const target = reachable.has(name);
      const clickable = target || movable.has(name);
      group.classList.toggle("b", owner === "b");
      group.classList.toggle("w", owner === "w");
      group.classList.toggle("selected", selected.has(name));
      group.classList.toggle("target", target);
      group.classList.toggle("push", target && Boolean(owner));
      group.classList.toggle("movable", movable.has(name));
      group.classList.toggle("last-from", from.has(name) && !to.has(name));
      group.classList.toggle("last-to", to.has(name));
      const content = owner ? MARBLE_NAME[owner] : gettext("empty");
      const extra = selected.has(name) ? gettext(", selected") : target ? gettext(", move here") : "";
      group.setAttribute("aria-label", `${name}, ${content}${extra}`);
      if (clickable) {
        group.setAttribute("role", "button");
        group.setAttribute("tabindex", "0");
      } else {
        group.setAttribute("role", "img");
        group.removeAttribute("tabindex");
      }
    }
  }

  function renderPlayers() {
    const active = state.status === "started" ? state.side_to_move : null;
    for (const colour of ["b", "w"]) {
      $(`player-${colour}`).classList.toggle("to-move", colour === active);
      $(`clock-${colour}`).classList.toggle("active", colour === active && state.clock.running);
      // A side's score is the opponent's marbles it pushed off.
      const score = colour === "b" ? state.pushed_off.white : state.pushed_off.black;
      const box = $(`score-${colour}`);
      box.querySelector(".score-count").textContent = String(score);
      const captured = box.querySelector(".captured");
      captured.replaceChildren();
      for (let i = 0; i < state.marbles_to_win; i++) {
        const slot = document.createElement("span");
        slot.className = `slot${i < score ? ` taken ${colour === "b" ? "w" : "b"}` : ""}`;
        captured.appendChild(slot);
      }
      box.setAttribute("aria-label", format(gettext("%(colour)s pushed off %(score)s of %(total)s"),
        { colour: COLOUR_NAME[colour], score, total: state.marbles_to_win }));
    }
    const turn = $("turn");
    if (state.status !== "started") {
      turn.textContent = "";
      turn.hidden = true;
    } else {
      turn.hidden = false;
      turn.dataset.side = state.side_to_move;
      turn.textContent = state.side_to_move === myColour ? YOUR_TURN
        : format(gettext("%(colour)s to move"), { colour: COLOUR_NAME[state.side_to_move] });
    }
    const prefix = `${YOUR_TURN} · `;
    const base = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
    document.title = myTurn() ? `${prefix}${base}` : base;
  }

  function renderMoves() {
    const list = $("moves");
    const moves = state.moves || [];
    list.replaceChildren();
    if (!moves.length) {
      const empty = document.createElement("li");
      empty.className = "empty muted";
      empty.textContent = state.first_mover === "w" ? gettext("No moves yet. White moves first.")
        : gettext("No moves yet. Black moves first.");
      list.appendChild(empty);
      return;
    }
    let item = null;
    // Black's moves in the first column: a custom start may give White the first move.
    const offset = state.first_mover === "w" ? 1 : 0;
    for (const move of moves) {
      const turn = move.ply + offset;
      if (turn % 2 === 1 || !item) {
        item = document.createElement("li");
        const number = document.createElement("span");
        number.className = "move-no";
        number.textContent = `${Math.ceil(turn / 2)}.`;
        item.appendChild(number);
        if (turn % 2 === 0) item.appendChild(document.createElement("span")); // White first
        list.appendChild(item);
      }
      const cell = document.createElement("span");
      cell.className = "move";
      cell.dataset.ply = String(move.ply);
      cell.textContent = move.notation;
      if (move.pushed_off) {
        cell.classList.add("pushed-off");
        cell.title = gettext("pushed a marble off");
      }
      if (move.ply === moves[moves.length - 1].ply) cell.classList.add("last");
      item.appendChild(cell);
    }
    list.scrollTop = list.scrollHeight;
  }

  function resultText() {
    if (state.status === "aborted") return gettext("Game aborted");
    const winnerSide = state.result === "1-0" ? "b" : state.result === "0-1" ? "w" : null;
    const names = winnerSide
      ? { winner: COLOUR_NAME[winnerSide], loser: COLOUR_NAME[winnerSide === "b" ? "w" : "b"] }
      : {};
    const say = (text) => format(text, names);
    switch (state.termination) {
      case "marbles": return say(gettext("%(winner)s wins by marbles pushed off"));
      case "resignation": return say(gettext("%(winner)s wins by resignation"));
      case "time": return say(gettext("%(winner)s wins on time"));
      case "agreement": return gettext("Draw agreed");
      case "repetition": return gettext("Draw by threefold repetition");
      case "move_cap": return winnerSide ? say(gettext("%(winner)s wins at the move limit"))
        : gettext("Draw at the move limit");
      case "no_legal_moves": return say(gettext("%(winner)s wins: %(loser)s has no legal move"));
      case "abandoned": return say(gettext("%(winner)s wins: %(loser)s did not make a first move"));
      case "forfeit": return winnerSide ? say(gettext("%(winner)s wins by forfeit")) : gettext("Forfeit");
      default: return winnerSide ? say(gettext("%(winner)s wins")) : gettext("Draw");
    }
  }

  function renderResult() {
    const banner = $("result");
    if (state.status === "started") {
      banner.hidden = true;
      return;
    }
    const score = { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½" }[state.result] || "–";
    banner.querySelector(".result-score").textContent = score;
    banner.querySelector(".result-text").textContent = resultText();
    banner.dataset.result = state.result || "";
    const changes = state.rating_changes || {};
    const sign = (d) => (d > 0 ? `+${d}` : `${d}`);
    const parts = [["black", "b"], ["white", "w"]]
      .filter(([side]) => changes[side])
      .map(([side]) => `${state[side].username} ${changes[side].after} (${sign(changes[side].delta)})`);
    let line = banner.querySelector(".result-ratings");
    if (!line) {
      line = document.createElement("span");
      line.className = "result-ratings muted";
      banner.appendChild(line);
    }
    line.textContent = parts.join(" · ");
    banner.hidden = false;
  }

  function renderActions() {
    if (!myColour) return;
    const active = state.status === "started";
    const opponent = myColour === "b" ? "w" : "b";
    const bothMoved = state.version >= 2;
    const show = (id, visible) => {
      $(id).hidden = !visible;
      $(id).disabled = busy;
    };
    show("resign", active && bothMoved);
    show("abort", active && !bothMoved);
    show("draw-offer", active && bothMoved && !state.draw_offer);
    show("draw-accept", active && state.draw_offer === opponent);
    show("draw-decline", active && state.draw_offer === opponent);
    const info = $("draw-info");
    info.hidden = !(active && state.draw_offer);
    info.textContent = state.draw_offer === myColour ? gettext("You offered a draw.")
      : state.draw_offer ? format(gettext("%(colour)s offers a draw."), { colour: COLOUR_NAME[opponent] }) : "";
    const form = $("move-form");
    form.hidden = !active;
    $("move-input").disabled = !myTurn();
    $("move-submit").disabled = !myTurn() || busy;
  }

  // --- clocks ---------------------------------------------------------------------------------------------

  function elapsed() {
    return Math.max(0, performance.now() - receivedAt);
  }

  function remaining(colour) {
    const clock = state.clock;
    const stored = colour === "b" ? clock.black_ms : clock.white_ms;
    const ticking = state.status === "started" && clock.running && !clock.first_moves
      && colour === state.side_to_move;
    return ticking ? Math.max(0, stored - elapsed()) : stored;
  }

  function renderClocks() {
    const hasClock = state.time_control.base_seconds !== null;
    for (const colour of ["b", "w"]) {
      const clock = $(`clock-${colour}`);
      const left = remaining(colour);
      clock.textContent = hasClock ? formatClock(left) : "∞";
      clock.classList.toggle("low", hasClock && left < 20000 && state.status === "started");
    }
    const turn = $("turn");
    if (state.status === "started" && state.clock.first_moves && state.clock.first_move_ms_left !== null) {
      const left = Math.max(0, state.clock.first_move_ms_left - elapsed());
      let note = turn.querySelector(".first-move");
      if (!note) {
        note = document.createElement("span");
        note.className = "first-move";
        turn.appendChild(note);
      }
      note.textContent = ` · ${format(gettext("%(seconds)s s for the first move"), { seconds: Math.ceil(left / 1000) })}`;
    }
    checkFlag();
  }

  function checkFlag() {
    if (state.status !== "started" || !state.clock.running) return;
    const left = state.clock.first_moves
      ? (state.clock.first_move_ms_left ?? Infinity) - elapsed()
      : remaining(state.side_to_move);
    const key = `${state.version}:${state.clock.server_now}`;
    if (left > 0 || flagHandledFor === key) return;
    flagHandledFor = key;
    if (myColour && myColour !== state.side_to_move) {
      // The server decides; if it disagrees (our count ran early) read again a moment later.
      post("claim-flag/").then((next) => applyState(next, performance.now()))
        .catch(() => setTimeout(refresh, 1000));
    } else {
      refresh(); // a read adjudicates a passed deadline
    }
  }

  // --- buttons and the move form ---------------------------------------------------------------------

  function bindActions() {
    if (!myColour) return;
    const action = (id, path, question) => {
      $(id).addEventListener("click", async () => {
        if (question && !window.confirm(question)) return;
        busy = true;
        renderActions();
        try {
          applyState(await post(path), performance.now());
          setStatus("");
        } catch (error) {
          showError(error);
        } finally {
          busy = false;
          render();
        }
      });
    };
    action("resign", "resign/", gettext("Resign this game?"));
    action("abort", "abort/", gettext("Abort this game?"));
    action("draw-offer", "draw-offer/");
    action("draw-accept", "draw-accept/");
    action("draw-decline", "draw-decline/");
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("move-input");
      const notation = input.value.trim().toLowerCase().replace(/[\s,-]/g, "");
      if (!notation || !myTurn() || busy) return;
      play(notation).then(() => {
        if (!$("status").classList.contains("error")) input.value = "";
      });
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") clearSelection();
    });
  }

  // --- live updates -------------------------------------------------------------------------------------

  function setConnection(kind, text) {
    const badge = $("connection");
    badge.dataset.state = kind;
    badge.textContent = text;
  }

  function connect() {
    clearTimeout(reconnectTimer);
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    setConnection("connecting", everConnected ? gettext("Reconnecting…") : gettext("Connecting…"));
    socket = new WebSocket(scheme + window.location.host + wsPath);
    socket.addEventListener("open", () => {
      const reconnected = everConnected;
      everConnected = true;
      reconnectAttempts = 0;
      setConnection("live", gettext("Live"));
      if (reconnected) refresh(); // anything missed while away
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (parseError) {
        return;
      }
      for (const listener of messageListeners) call(listener, message);
      if (message.type === "state") {
        unavailableAttempts = 0;
        const next = withEarlierMoves(message.state);
        if (next) applyState(next, performance.now());
        else refresh(); // an event was missed: the page lacks a move
      } else if (message.type === "error") setStatus(message.detail || message.error, true);
      // The player's notifications share the tab's one socket; notify.js draws them.
      else if (["notification", "unread", "notifications"].includes(message.type)) {
        if (window.SumitoNotify) window.SumitoNotify.receive(message);
      }
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      if (event.code === 4404) {
        setConnection("offline", gettext("Game not found"));
        return;
      }
      // 4503: the server could not reach its live-update service; it was accepted, so "open"
      // reset the attempts: keep backing off instead of retrying every half second.
      if (event.code === 4503) reconnectAttempts = Math.max(reconnectAttempts, unavailableAttempts++);
      const delay = Math.min(15000, 500 * 2 ** reconnectAttempts) * (0.8 + Math.random() * 0.4);
      reconnectAttempts += 1;
      setConnection("offline", format(gettext("Offline · retrying in %(seconds)s s"), { seconds: Math.ceil(delay / 1000) }));
      reconnectTimer = setTimeout(connect, delay);
    });
  }

  function navigationResponseStart() {
    const [entry] = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return entry && entry.responseStart > 0 ? entry.responseStart : performance.now();
  }

  // --- the interface of the page's other scripts (game-*.js) ------------------------------------------

  window.SumitoGame = {
    state: () => state,
    myColour,
    /** The remaining time of a colour's clock now, in ms (as drawn). */
    remaining,
    myTurn,
    /** fn(state, previous) after every newer state is applied (not for the embedded one). */
    onState(fn) {
      stateListeners.push(fn);
    },
    /** fn(message) for every message of the game's socket, before this page handles it. */
    onMessage(fn) {
      messageListeners.push(fn);
    },
    play,
    /** The API with the session: api("POST", url, body) resolves to the JSON or throws an
     * error with status, code, message and retryAfter. `gameApi` is this game's base URL. */
    api,
    gameApi: apiBase,
    /**
     * On the opponent's turn, let the player select one of `moves` (legal-move documents) on
     * the board; `onChoose(move)` gets the choice. null: the board is inert on their turn.
     */
    selectFrom(moves, onChoose) {
      alternative = moves ? { moves, onChoose } : null;
      if (!myTurn()) selection = [];
      hideDirectionChoice();
      prepare();
      renderBoard();
    },
    setStatus,
  };

  // --- start ----------------------------------------------------------------------------------------------

  buildBoard();
  prepare();
  lastMove = lastMoveCells(state, null);
  bindActions();
  render();
  setInterval(renderClocks, 100);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  // The feature scripts (deferred, after this one) register their listeners before the socket's
  // first messages (the state, the spectator count) can arrive.
  document.addEventListener("DOMContentLoaded", connect, { once: true });
})();
