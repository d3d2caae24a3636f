/* Sumito: a live table for three or four players. Plain ES2020, no build step.
 *
 * The server is the only authority: this script draws the table document it sends (embedded in
 * the page as #table-data, answered by GET /api/v1/tables/<id>/, pushed over
 * /ws/tables/<id>/ as {"type": "table", "table": doc}), offers only the moves listed in
 * doc.legal_moves, and sends each move with the ply it was drawn from. The clock of the seat to
 * move counts down from doc.deadline as seen from doc.server_time, measured on the monotonic
 * clock from the moment the document arrived; at zero the page waits for the server's decision
 * (a flag is adjudicated on the server), asking again only if none arrives. While the socket is
 * closed the page reads the table every few seconds instead.
 *
 * The board (four colours with their marks, move input by clicking) is table-board.js; this
 * script is the rest of the page: seats, clocks, moves, result, replay, buttons and the socket.
 */
(() => {
  "use strict";

  const STATUS_RANK = { open: 0, started: 1, finished: 2, aborted: 2 };
  const POLL_MS = 3000; // reading the table while the socket is closed
  const ZERO_GRACE_MS = 15000; // a clock at zero: ask once if the server's decision has not come

  const $ = (id) => document.getElementById(id);
  const root = $("table");
  const dataScript = $("table-data");
  if (!root || !dataScript || !window.SumitoBoard || !window.SumitoTableBoard) return;
  const { formatClock } = window.SumitoBoard;
  const { COLOUR_NAME, parsePosition, describe } = window.SumitoTableBoard;

  // Translated by the JavaScript catalog (/jsi18n/), loaded before every script. Places and
  // push-offs are whole phrases: an ordinal or a marble's case is the language's own.
  const format = (text, values) => interpolate(text, values, true);
  const YOUR_TURN = gettext("Your turn");
  const PLACE = { 1: gettext("1st place"), 2: gettext("2nd place"), 3: gettext("3rd place"),
    4: gettext("4th place") };
  const ORDINAL = { 1: pgettext("place", "1st"), 2: pgettext("place", "2nd"), 3: pgettext("place", "3rd"),
    4: pgettext("place", "4th") };
  const PUSHED_OFF = { b: gettext("pushed a black marble off"), w: gettext("pushed a white marble off"),
    r: gettext("pushed a red marble off"), g: gettext("pushed a green marble off") };

  const apiBase = root.dataset.apiBase;
  const wsPath = root.dataset.wsPath;
  const myUserId = root.dataset.userId ? Number(root.dataset.userId) : null;

  let doc = readEmbedded();
  let receivedAt = navigationResponseStart();
  let busy = false;
  let replayPly = null; // the ply shown once the game is over (null: the last)
  let socket = null;
  let socketLive = false;
  let everConnected = false;
  let reconnectAttempts = 0;
  let zeroAskedFor = null;
  const board = window.SumitoTableBoard.create($("board"), $("direction-choice"), {
    onPlay: (notation) => play(notation),
    onStatus: (text) => setStatus(text),
  });

  function readEmbedded() {
    const data = JSON.parse(dataScript.textContent);
    return data;
  }

  // --- who I am, whose turn ---------------------------------------------------------------------

  function mySeat() {
    if (myUserId === null) return null;
    return doc.seats.find((seat) => seat.user && seat.user.id === myUserId) || null;
  }

  const seatOf = (colour) => doc.seats.find((seat) => seat.colour === colour) || null;

  function myTurn() {
    const seat = mySeat();
    return Boolean(seat) && !seat.out && doc.status === "started" && doc.side_to_move === seat.colour;
  }

  const over = () => doc.status === "finished" || doc.status === "aborted";

  // --- talking to the server ---------------------------------------------------------------------

  const api = (method, path, body) => window.SumitoApi.call(method, apiBase + path, body);

  async function refresh() {
    try {
      apply(await api("GET", ""), performance.now());
    } catch (error) {
      if (error.code !== "network") setStatus(error.message, true);
    }
  }

  /** A write (a move, join, leave, resign): the answer is the new table. */
  async function act(path, body) {
    busy = true;
    setStatus("");
    render();
    try {
      apply(await api("POST", path, body), performance.now());
      return true;
    } catch (error) {
      setStatus(error.message, true);
      if (["stale_ply", "not_your_turn", "game_over", "time_out", "not_started", "table_full",
        "seat_taken", "not_open", "already_seated"].includes(error.code)) refresh();
      return false;
    } finally {
      busy = false;
      render();
    }
  }

  const play = (notation) => act("moves/", { move: notation, ply: doc.ply });

  function setStatus(text, isError = false) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("error", Boolean(text) && isError);
  }

  // --- applying a document ---------------------------------------------------------------------------

  function isNewer(next, current) {
    if (next.ply !== current.ply) return next.ply > current.ply;
    const rank = (STATUS_RANK[next.status] ?? 0) - (STATUS_RANK[current.status] ?? 0);
    if (rank) return rank > 0;
    return Date.parse(next.server_time) >= Date.parse(current.server_time);
  }

  function apply(next, arrivedAt) {
    if (!next || next.id !== doc.id || !isNewer(next, doc)) return false;
    const previous = doc;
    doc = next;
    receivedAt = arrivedAt;
    if (next.ply !== previous.ply || next.status !== previous.status) board.clearSelection();
    render();
    return true;
  }

  // --- drawing -----------------------------------------------------------------------------------------

  function render() {
    renderBoard();
    renderSeats();
    renderTurn();
    renderMoves();
    renderResult();
    renderActions();
    renderReplay();
    renderClocks();
  }

  /** The cells the move of `ply` left and reached (pushed marbles not included). */
  function movedCells(ply, before) {
    const move = (doc.moves || [])[ply - 1];
    if (!move || !before) return { from: [], to: [] };
    const described = describe(move.notation, parsePosition(before), move.colour, doc.players);
    return described ? { from: described.marbles, to: described.destinations } : { from: [], to: [] };
  }

  function shownPly() {
    const positions = doc.positions || [];
    if (!over() || positions.length < 2) return null; // nothing to replay
    return replayPly === null ? positions.length - 1 : Math.min(replayPly, positions.length - 1);
  }

  function renderBoard() {
    const ply = shownPly();
    const positions = doc.positions || [];
    const position = ply === null ? doc.position : positions[ply];
    const lastPly = ply === null ? doc.ply : ply;
    const before = lastPly > 0 ? positions[lastPly - 1] : null;
    const interactive = myTurn() && ply === null;
    // A seated player sees their own side at the bottom; spectators see Black's.
    const seat = mySeat();
    const turn = window.SumitoTableBoard.turnFor(doc.players, seat ? seat.colour : null);
    board.setTurn(turn);
    $("board").dataset.turn = String(turn);
    board.update({
      position,
      legalMoves: interactive ? doc.legal_moves || [] : [],
      mover: doc.side_to_move,
      players: doc.players,
      interactive,
      busy,
      last: movedCells(lastPly, before),
      replaying: ply !== null && ply !== positions.length - 1,
    });
    $("board").dataset.position = position;
    $("board").dataset.ply = String(lastPly);
  }

  const ordinal = (place) => ORDINAL[place] || `${place}.`;

  function renderSeats() {
    const me = mySeat();
    const canJoin = doc.status === "open" && myUserId !== null && !me;
    for (const seat of doc.seats) {
      const box = $(`seat-${seat.index}`);
      if (!box) continue;
      box.classList.toggle("to-move", doc.status === "started" && seat.colour === doc.side_to_move);
      box.classList.toggle("out", Boolean(seat.out));
      box.classList.toggle("open-seat", !seat.user);
      const name = $(`seat-player-${seat.index}`);
      name.classList.toggle("empty", !seat.user);
      if (seat.user) {
        const link = document.createElement("a");
        link.href = `/players/${encodeURIComponent(seat.user.username)}/`;
        link.textContent = seat.user.username;
        name.replaceChildren(link);
      } else name.textContent = gettext("Open seat");
      $(`seat-you-${seat.index}`).hidden = !(me && me.index === seat.index);
      box.querySelector(".pushed-count").textContent = String(seat.pushed_off);
      $(`pushed-${seat.index}`).dataset.count = String(seat.pushed_off);
      $(`marbles-${seat.index}`).textContent = format(gettext("%(marbles)s on the board"), { marbles: seat.marbles });
      const place = $(`place-${seat.index}`);
      place.textContent = seat.place ? PLACE[seat.place] || ordinal(seat.place)
        : seat.out && over() ? pgettext("seat", "out") : "";
      const delta = seat.user && doc.rating_changes ? doc.rating_changes[String(seat.user.id)] : undefined;
      const rating = $(`rating-${seat.index}`);
      rating.textContent = delta === undefined ? ""
        : format(gettext("rating %(change)s"), { change: `${delta > 0 ? "+" : delta < 0 ? "" : "±"}${delta}` });
      place.dataset.place = seat.place ? String(seat.place) : "";
      const join = $(`join-${seat.index}`);
      join.hidden = !(canJoin && !seat.user);
      join.disabled = busy;
    }
    $("login-to-join").hidden = !(doc.status === "open" && myUserId === null);
  }

  function renderTurn() {
    const turn = $("turn");
    const open = doc.seats.filter((seat) => !seat.user).length;
    turn.hidden = !(doc.status === "started" || doc.status === "open");
    if (doc.status === "open") {
      turn.textContent = format(gettext("Waiting for players: %(open)s of %(seats)s seats open"),
        { open, seats: doc.players });
    } else if (doc.status === "started") {
      const seat = seatOf(doc.side_to_move);
      const who = seat && seat.user ? ` (${seat.user.username})` : "";
      turn.textContent = myTurn() ? YOUR_TURN
        : format(gettext("%(colour)s to move"), { colour: `${COLOUR_NAME[doc.side_to_move]}${who}` });
    }
    turn.dataset.side = doc.side_to_move || "";
    const prefix = `${YOUR_TURN} · `;
    const base = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
    document.title = myTurn() ? `${prefix}${base}` : base;
  }

  function swatch(colour) {
    const mark = document.createElement("span");
    mark.className = "swatch";
    mark.dataset.colour = colour;
    mark.setAttribute("aria-hidden", "true");
    return mark;
  }

  function renderMoves() {
    const list = $("moves");
    const moves = doc.moves || [];
    list.replaceChildren();
    if (!moves.length) {
      const empty = document.createElement("li");
      empty.className = "empty muted";
      empty.textContent = doc.status === "open" ? gettext("The game starts when every seat is taken.")
        : gettext("No moves yet. Black moves first.");
      list.appendChild(empty);
      return;
    }
    let item = null;
    for (const move of moves) {
      if ((move.ply - 1) % doc.players === 0 || !item) {
        item = document.createElement("li");
        const number = document.createElement("span");
        number.className = "move-no";
        number.textContent = `${Math.ceil(move.ply / doc.players)}.`;
        item.appendChild(number);
        list.appendChild(item);
      }
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "move link";
      cell.dataset.ply = String(move.ply);
      cell.dataset.colour = move.colour;
      cell.append(swatch(move.colour), move.notation);
      const pushed = move.pushed_off ? PUSHED_OFF[move.pushed_off] : "";
      cell.setAttribute("aria-label",
        `${move.ply}: ${COLOUR_NAME[move.colour]} ${move.notation}${pushed ? `, ${pushed}` : ""}`);
      if (move.pushed_off) {
        cell.classList.add("pushed-off");
        cell.title = pushed;
      }
      if (move.ply === (shownPly() ?? doc.ply)) cell.classList.add("last");
      cell.addEventListener("click", () => {
        if (over()) showPly(move.ply);
      });
      item.appendChild(cell);
    }
    if (!over()) list.scrollTop = list.scrollHeight;
  }

  function resultText() {
    if (doc.status === "aborted") {
      return doc.termination === "expired" ? gettext("Not enough players came: the table was closed")
        : gettext("Table aborted");
    }
    const out = doc.seats.find((seat) => seat.out);
    const outName = out ? COLOUR_NAME[out.colour] : "";
    switch (doc.termination) {
      case "marbles": {
        const winners = (doc.result || []).filter((entry) => entry.place === 1).map((entry) => COLOUR_NAME[entry.colour]);
        if (winners.length < 2) {
          return format(gettext("%(winner)s wins by marbles pushed off"), { winner: winners[0] || "" });
        }
        return format(gettext("%(first)s and %(second)s win by marbles pushed off"),
          { first: winners.slice(0, -1).join(", "), second: winners[winners.length - 1] });
      }
      case "time": return format(gettext("%(colour)s ran out of time"), { colour: outName });
      case "resignation": return format(gettext("%(colour)s resigned"), { colour: outName });
      case "no_legal_moves": return format(gettext("%(colour)s had no legal move"), { colour: outName });
      case "move_cap": return gettext("The move limit was reached: places by marbles pushed off");
      case "repetition": return gettext("Threefold repetition: places by marbles pushed off");
      default: return gettext("Game over");
    }
  }

  function renderResult() {
    const banner = $("result");
    if (!over()) {
      banner.hidden = true;
      return;
    }
    banner.querySelector(".result-score").textContent = doc.status === "aborted" ? "–" : gettext("Final places");
    banner.querySelector(".result-text").textContent = resultText();
    banner.querySelector(".result-places").textContent = (doc.result || []).map((entry) => {
      const seat = seatOf(entry.colour);
      const who = seat && seat.user ? ` (${seat.user.username})` : "";
      return `${ordinal(entry.place)} ${COLOUR_NAME[entry.colour]}${who}`;
    }).join(" · ");
    banner.dataset.termination = doc.termination || "";
    banner.hidden = false;
  }

  function renderActions() {
    const me = mySeat();
    const show = (id, visible) => {
      $(id).hidden = !visible;
      $(id).disabled = busy;
    };
    show("leave", Boolean(me) && doc.status === "open");
    show("resign", Boolean(me) && !me.out && doc.status === "started");
    const form = $("move-form");
    form.hidden = !(me && doc.status === "started" && !me.out);
    $("move-input").disabled = !myTurn();
    $("move-submit").disabled = !myTurn() || busy;
    $("record").hidden = doc.status === "open";
  }

  function renderReplay() {
    const bar = $("replay");
    const positions = doc.positions || [];
    const ply = shownPly();
    bar.hidden = ply === null;
    if (ply === null) return;
    const last = positions.length - 1;
    const slider = $("replay-ply");
    slider.max = String(last);
    slider.value = String(ply);
    const move = ply > 0 ? (doc.moves || [])[ply - 1] : null;
    $("replay-label").textContent = move
      ? `${COLOUR_NAME[move.colour]} ${move.notation} · ${ply}/${last}` : `${gettext("Start")} · 0/${last}`;
    slider.setAttribute("aria-valuetext", $("replay-label").textContent);
    $("replay-first").disabled = $("replay-back").disabled = ply === 0;
    $("replay-forward").disabled = $("replay-last").disabled = ply === last;
  }

  function showPly(ply) {
    const last = (doc.positions || []).length - 1;
    if (last < 0) return;
    replayPly = Math.max(0, Math.min(last, ply));
    renderBoard();
    renderMoves();
    renderReplay();
  }

  // --- clocks ---------------------------------------------------------------------------------------

  function elapsed() {
    return Math.max(0, performance.now() - receivedAt);
  }

  /** The time left on a seat's clock now, in ms (null: no clock). */
  function remaining(seat) {
    if (doc.base_seconds === null || doc.base_seconds === undefined) return null;
    if (doc.status === "started" && seat.colour === doc.side_to_move && doc.deadline) {
      return Math.max(0, Date.parse(doc.deadline) - Date.parse(doc.server_time) - elapsed());
    }
    return seat.clock_ms;
  }

  function renderClocks() {
    let moverLeft = null;
    for (const seat of doc.seats) {
      const clock = $(`clock-${seat.index}`);
      if (!clock) continue;
      const left = remaining(seat);
      const active = doc.status === "started" && seat.colour === doc.side_to_move;
      clock.textContent = left === null ? "∞" : formatClock(left);
      clock.dataset.ms = left === null ? "" : String(Math.round(left));
      clock.classList.toggle("active", active);
      clock.classList.toggle("low", left !== null && left < 20000 && doc.status === "started");
      clock.classList.toggle("flagged", over() && doc.termination === "time" && Boolean(seat.out));
      if (active) moverLeft = left;
    }
    // At zero the server decides; if its word has not come after a while, ask (a read).
    if (moverLeft === 0) {
      const key = `${doc.ply}:${doc.deadline}`;
      if (zeroAskedFor !== key && Date.parse(doc.server_time) + elapsed() - Date.parse(doc.deadline) > ZERO_GRACE_MS) {
        zeroAskedFor = key;
        refresh();
      }
    }
  }

  // --- buttons, the move form, keys -----------------------------------------------------------------

  function bind() {
    for (const seat of doc.seats) {
      const join = $(`join-${seat.index}`);
      if (join) join.addEventListener("click", () => act("join/", { colour: join.dataset.colour }));
    }
    $("leave").addEventListener("click", () => act("leave/"));
    $("resign").addEventListener("click", () => {
      if (window.confirm(gettext("Resign? You finish last and the game ends."))) act("resign/");
    });
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("move-input");
      const notation = input.value.trim().toLowerCase().replace(/[\s,-]/g, "");
      if (!notation || !myTurn() || busy) return;
      play(notation).then((taken) => {
        if (taken) input.value = "";
      });
    });
    $("replay-first").addEventListener("click", () => showPly(0));
    $("replay-back").addEventListener("click", () => showPly(shownPly() - 1));
    $("replay-forward").addEventListener("click", () => showPly(shownPly() + 1));
    $("replay-last").addEventListener("click", () => showPly(Infinity));
    $("replay-ply").addEventListener("input", (event) => showPly(Number(event.target.value)));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") board.clearSelection();
      const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement && document.activeElement.tagName);
      if (typing || shownPly() === null) return;
      const keys = { ArrowLeft: () => showPly(shownPly() - 1), ArrowRight: () => showPly(shownPly() + 1),
        Home: () => showPly(0), End: () => showPly(Infinity) };
      if (keys[event.key]) {
        event.preventDefault();
        keys[event.key]();
      }
    });
  }

  // --- live updates ---------------------------------------------------------------------------------

  function setConnection(kind, text) {
    const badge = $("connection");
    badge.dataset.state = kind;
    badge.textContent = text;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    setConnection("connecting", everConnected ? gettext("Reconnecting…") : gettext("Connecting…"));
    try {
      socket = new WebSocket(scheme + window.location.host + wsPath);
    } catch (refused) {
      socket = null;
      setConnection("offline", gettext("Offline · reading every few seconds"));
      return;
    }
    socket.addEventListener("open", () => {
      const reconnected = everConnected;
      everConnected = true;
      socketLive = true;
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
      if (message.type === "table") apply(message.table, performance.now());
      else if (message.type === "error") setStatus(message.detail || message.error, true);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      socketLive = false;
      if (event.code === 4404) {
        setConnection("offline", gettext("Table not found"));
        return;
      }
      const delay = Math.min(15000, 500 * 2 ** reconnectAttempts) * (0.8 + Math.random() * 0.4);
      reconnectAttempts += 1;
      setConnection("offline",
        format(gettext("Offline · retrying in %(seconds)s s"), { seconds: Math.ceil(delay / 1000) }));
      setTimeout(connect, delay);
    });
  }

  function navigationResponseStart() {
    const [entry] = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return entry && entry.responseStart > 0 ? entry.responseStart : performance.now();
  }

  // --- start ----------------------------------------------------------------------------------------

  bind();
  render();
  setInterval(renderClocks, 100);
  // Without the socket the page stays correct by reading the table every few seconds.
  setInterval(() => {
    if (!socketLive && !over()) refresh();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  connect();
})();
