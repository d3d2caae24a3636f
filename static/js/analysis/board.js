/* Sumito: the analysis board (/analysis/board/): a position tried move by move.
 *
 * The server is the only authority on the rules: the legal moves of every position, and where
 * each leads, come from the API (GET /api/v1/analysis/moves/); the page draws them, lets the
 * player pick one (from the list, or by clicking marbles and then a destination as on the game
 * page), keeps the line tried so far (Back undoes the last move) and keeps the position in the
 * address, so the address is the link to share. The engine's panel is engine.js.
 */
import { call } from "sumito/api.js";
import { COLOUR_NAME, create, moveCells, parsePosition } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { createEngine } from "sumito/analysis/engine.js";
import { element } from "sumito/analysis/lines.js";
import {
  describe, filledLine, hideDirectionChoice, showDirectionChoice,
} from "sumito/analysis/moves.js";

const $ = (id) => document.getElementById(id);
const groupKey = (marbles) => [...marbles].sort().join(",");

function start(root) {
  const urls = { analyses: root.dataset.analysesUrl, moves: root.dataset.movesUrl, page: root.dataset.pageUrl };
  const board = create($("board"));
  const answers = new Map(); // position string -> its moves document (a promise)

  let line = []; // [{ position, notation, doc }]: the start (notation null), then each move tried
  let occupancy = new Map();
  let groups = new Map(); // sorted marble set -> the moves of those marbles
  let selection = [];
  let busy = false;

  const current = () => line[line.length - 1];
  const engine = createEngine({
    current,
    analysesUrl: urls.analyses,
    isBusy: () => busy,
    onBestShown: () => {
      selection = [];
      renderBoardMarks();
    },
  });

  function movesOf(position) {
    if (!answers.has(position)) {
      const answer = call("GET", `${urls.moves}?position=${encodeURIComponent(position)}`);
      answer.catch(() => answers.delete(position)); // a failure is not kept
      answers.set(position, answer);
    }
    return answers.get(position);
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
    engine.reset();
    $("share").hidden = true;
    hideDirectionChoice($("direction-choice"));
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
      const described = { ...move, ...describe(move.notation, occupancy, doc.side_to_move) };
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
    engine.render();
    $("back").disabled = line.length < 2 || busy;
  }

  function renderBoardMarks() {
    // The best move replaces the last move's marks: its marbles ringed, where they go tinted.
    const best = engine.shownBest();
    const bestCells = best ? describe(best, occupancy, current().doc.side_to_move) : { marbles: [], destinations: [] };
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

  function onCellClick(cell) {
    hideDirectionChoice($("direction-choice"));
    if (busy) return;
    const reachable = targets().get(cell);
    if (reachable) {
      if (reachable.length === 1) tryMove(reachable[0]);
      else showDirectionChoice($("direction-choice"), reachable, tryMove);
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
      : filledLine([...selection, cell], side, occupancy);
    if (!fits(candidate)) candidate = fits([cell]) && !selection.includes(cell) ? [cell] : [];
    if (candidate.length) setStatus("");
    else if (!selection.includes(cell)) setStatus(format(gettext("%(cell)s cannot move."), { cell }));
    selection = candidate;
    renderBoardMarks();
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

const root = document.getElementById("analysis-board");
if (root) start(root);
