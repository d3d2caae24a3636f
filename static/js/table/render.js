/* Sumito, a table's page: drawing the document (the board, seats, whose turn, the moves, the
 * result, the buttons and the replay of a finished game). The clocks are clocks.js's. */
import { format, gettext, pgettext } from "sumito/i18n.js";
import { renderMoveList } from "sumito/move-list.js";
import {
  COLOUR_NAME, create as createBoard, describe, parsePosition, turnFor,
} from "sumito/table-board.js";
import { renderClocks } from "sumito/table/clocks.js";
import { play, setStatus } from "sumito/table/server.js";
import {
  choosePly, current, isBusy, mySeat, myTurn, over, page, seatOf, shownPly,
} from "sumito/table/state.js";

// Places and push-offs are whole phrases: an ordinal or a marble's case is the language's own.
const YOUR_TURN = gettext("Your turn");
const PLACE = { 1: gettext("1st place"), 2: gettext("2nd place"), 3: gettext("3rd place"),
  4: gettext("4th place") };
const ORDINAL = { 1: pgettext("place", "1st"), 2: pgettext("place", "2nd"), 3: pgettext("place", "3rd"),
  4: pgettext("place", "4th") };
const PUSHED_OFF = { b: gettext("pushed a black marble off"), w: gettext("pushed a white marble off"),
  r: gettext("pushed a red marble off"), g: gettext("pushed a green marble off") };

const $ = (id) => document.getElementById(id);
const ordinal = (place) => ORDINAL[place] || `${place}.`;
let board = null;

/** Build the board (four colours, move input by clicking: table-board.js). */
export function startBoard() {
  board = createBoard($("board"), $("direction-choice"), {
    onPlay: (notation) => play(notation),
    onStatus: (text) => setStatus(text),
  });
  return board;
}

export function render() {
  renderBoard();
  renderSeats();
  renderTurn();
  renderMoves();
  renderResult();
  renderActions();
  renderReplay();
  renderClocks();
}

/** Show another ply of a finished game. */
export function showPly(ply) {
  if (!choosePly(ply)) return;
  renderBoard();
  renderMoves();
  renderReplay();
}

/** The cells the move of `ply` left and reached (pushed marbles not included). */
function movedCells(doc, ply, before) {
  const move = (doc.moves || [])[ply - 1];
  if (!move || !before) return { from: [], to: [] };
  const described = describe(move.notation, parsePosition(before), move.colour, doc.players);
  return described ? { from: described.marbles, to: described.destinations } : { from: [], to: [] };
}

function renderBoard() {
  const doc = current();
  const ply = shownPly();
  const positions = doc.positions || [];
  const position = ply === null ? doc.position : positions[ply];
  const lastPly = ply === null ? doc.ply : ply;
  const before = lastPly > 0 ? positions[lastPly - 1] : null;
  const interactive = myTurn() && ply === null;
  // A seated player sees their own side at the bottom; spectators see Black's.
  const seat = mySeat();
  const turn = turnFor(doc.players, seat ? seat.colour : null);
  board.setTurn(turn);
  $("board").dataset.turn = String(turn);
  board.update({
    position,
    legalMoves: interactive ? doc.legal_moves || [] : [],
    mover: doc.side_to_move,
    players: doc.players,
    interactive,
    busy: isBusy(),
    last: movedCells(doc, lastPly, before),
    replaying: ply !== null && ply !== positions.length - 1,
  });
  $("board").dataset.position = position;
  $("board").dataset.ply = String(lastPly);
}

function renderSeats() {
  const doc = current();
  const me = mySeat();
  const canJoin = doc.status === "open" && page.myUserId !== null && !me;
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
    join.disabled = isBusy();
  }
  $("login-to-join").hidden = !(doc.status === "open" && page.myUserId === null);
}

function renderTurn() {
  const doc = current();
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
  const doc = current();
  renderMoveList($("moves"), doc.moves || [], {
    perTurn: doc.players,
    emptyText: doc.status === "open" ? gettext("The game starts when every seat is taken.")
      : gettext("No moves yet. Black moves first."),
    lastPly: shownPly() ?? doc.ply,
    follow: !over(), // a finished game's list stays where the replay put it
    drawMove(move) {
      const item = document.createElement("button");
      item.type = "button";
      item.className = "link";
      item.dataset.colour = move.colour;
      item.append(swatch(move.colour), move.notation);
      const pushed = move.pushed_off ? PUSHED_OFF[move.pushed_off] : "";
      item.setAttribute("aria-label",
        `${move.ply}: ${COLOUR_NAME[move.colour]} ${move.notation}${pushed ? `, ${pushed}` : ""}`);
      if (move.pushed_off) {
        item.classList.add("pushed-off");
        item.title = pushed;
      }
      item.addEventListener("click", () => {
        if (over()) showPly(move.ply);
      });
      return item;
    },
  });
}

function resultText(doc) {
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
  const doc = current();
  const banner = $("result");
  if (!over()) {
    banner.hidden = true;
    return;
  }
  banner.querySelector(".result-score").textContent = doc.status === "aborted" ? "–" : gettext("Final places");
  banner.querySelector(".result-text").textContent = resultText(doc);
  banner.querySelector(".result-places").textContent = (doc.result || []).map((entry) => {
    const seat = seatOf(entry.colour);
    const who = seat && seat.user ? ` (${seat.user.username})` : "";
    return `${ordinal(entry.place)} ${COLOUR_NAME[entry.colour]}${who}`;
  }).join(" · ");
  banner.dataset.termination = doc.termination || "";
  banner.hidden = false;
}

function renderActions() {
  const doc = current();
  const me = mySeat();
  const show = (id, visible) => {
    $(id).hidden = !visible;
    $(id).disabled = isBusy();
  };
  show("leave", Boolean(me) && doc.status === "open");
  show("resign", Boolean(me) && !me.out && doc.status === "started");
  $("move-form").hidden = !(me && doc.status === "started" && !me.out);
  $("move-input").disabled = !myTurn();
  $("move-submit").disabled = !myTurn() || isBusy();
  $("record").hidden = doc.status === "open";
}

function renderReplay() {
  const doc = current();
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
