/* Sumito: the analysis board (/analysis/): a position, or a game that is over, studied move by
 * move, as on lichess.
 *
 * The server is the only authority on the rules: the legal moves of every position, and where
 * each leads, come from the API (GET /api/v1/analysis/moves/); the page draws them and lets the
 * player pick one (from the list, or by clicking marbles and then a destination as on the game
 * page). The moves are a tree (tree.js): a game's moves are its main line, a move tried where
 * the line goes another way is a variation kept beside it; the arrow keys walk it (← →, Home,
 * End). The address keeps the game, the ply and the moves tried from there (or the position and
 * the moves tried from it), so it is the link to share. The evaluation bar shows the engine's
 * deepest score for the position shown, else the game's analysis at that ply; the chart of that
 * analysis (chart.js) is beside the board, a click on it goes to the ply. The engine's panel is
 * engine.js. A player of a correspondence game in play sees its moves without the engine and
 * saves conditional moves from its last position (conditional.js).
 */
import { call } from "sumito/api.js";
import { COLOUR_NAME, create, moveCells, parsePosition } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { drawChart } from "sumito/analysis/chart.js";
import { createConditional } from "sumito/analysis/conditional.js";
import { createEngine } from "sumito/analysis/engine.js";
import { renderEvalBar } from "sumito/analysis/evalbar.js";
import { element, formatScore } from "sumito/analysis/lines.js";
import {
  describe, filledLine, hideDirectionChoice, showDirectionChoice,
} from "sumito/analysis/moves.js";
import {
  childFor, createTree, gameNodeAt, lineEnd, pathTo, renderTree, splitAtGame,
} from "sumito/analysis/tree.js";

const $ = (id) => document.getElementById(id);
const groupKey = (marbles) => [...marbles].sort().join(",");
const readJson = (id) => ($(id) ? JSON.parse($(id).textContent) : null);

function start(root) {
  const urls = { analyses: root.dataset.analysesUrl, moves: root.dataset.movesUrl, page: root.dataset.pageUrl };
  const board = create($("board"));
  const answers = new Map(); // position string -> its moves document (a promise)
  const game = readJson("game-line"); // a game that is over: its moves and its analysis, or null
  const asked = readJson("board-start") || { ply: null, moves: [] };
  const gameScores = new Map(((game && game.analysis && game.analysis.evaluations) || []).map((entry) => [entry.ply, entry.score]));

  let tree = createTree(root.dataset.position, game ? game.moves : []);
  let node = null; // the node shown
  let doc = null; // its moves document
  let occupancy = new Map();
  let groups = new Map(); // sorted marble set -> the moves of those marbles
  let selection = [];
  let busy = false;
  let chart = null;
  let conditional = null; // one's own correspondence game in play: its conditional moves

  const current = () => ({ position: node.position, notation: node.notation, doc });
  const engine = createEngine({
    current,
    analysesUrl: urls.analyses,
    isBusy: () => busy,
    onBestShown: () => {
      selection = [];
      renderBoardMarks();
    },
    onScore: () => renderEval(),
  });

  function movesOf(position) {
    if (!answers.has(position)) {
      const answer = call("GET", `${urls.moves}?position=${encodeURIComponent(position)}`);
      answer.catch(() => answers.delete(position)); // a failure is not kept
      answers.set(position, answer);
    }
    return answers.get(position);
  }

  // --- the tree of moves ----------------------------------------------------------------------------

  /** Show `target` (a node of the tree): its moves asked of the server first. */
  async function goTo(target) {
    if (busy || !target) return false;
    setBusy(true);
    try {
      const answer = await movesOf(target.position);
      node = target;
      doc = answer;
      setStatus("");
      onPositionChange();
      return true;
    } catch (error) {
      setStatus(error.message, true);
      return false;
    } finally {
      setBusy(false);
    }
  }

  const tryMove = (move) => goTo(childFor(node, move.notation, move.position));

  /** A new start: a position pasted (its tree begins again, without the game). */
  async function restart(text) {
    if (busy) return;
    setBusy(true);
    let answer;
    try {
      answer = await movesOf(text);
    } catch (error) {
      setStatus(error.message, true);
      return;
    } finally {
      setBusy(false);
    }
    tree = createTree(answer.position);
    gameScores.clear(); // a position of its own: the game's line and analysis are left
    chart = null;
    if ($("game-analysis")) $("game-analysis").hidden = true;
    await goTo(tree);
  }

  /**
   * The moves named in the address, tried one by one from `from`: { at, problem }, `at` the
   * node after the last legal one, `problem` why it stopped before the others (or "").
   */
  async function playNamed(from, notations) {
    let at = from;
    for (const notation of notations) {
      const answer = await movesOf(at.position);
      const move = answer.moves.find((item) => item.notation === notation);
      if (!move) {
        return { at, problem: format(gettext("%(move)s is not a legal move there; the board stops before it."), { move: notation }) };
      }
      at = childFor(at, move.notation, move.position);
    }
    return { at, problem: "" };
  }

  function address() {
    if (game && tree.children.length && tree.children[0].game) {
      const { base, tried } = splitAtGame(node);
      const moves = tried.length ? `&moves=${tried.join(",")}` : "";
      return `${urls.page}?game=${game.id}&ply=${base.ply}${moves}`;
    }
    const moves = pathTo(node).map((step) => step.notation);
    return `${urls.page}?position=${encodeURIComponent(tree.position)}${moves.length ? `&moves=${moves.join(",")}` : ""}`;
  }

  function onPositionChange() {
    selection = [];
    engine.reset();
    $("share").hidden = true;
    hideDirectionChoice($("direction-choice"));
    history.replaceState(null, "", address());
    $("position-text").value = node.position;
    render();
  }

  // --- drawing ------------------------------------------------------------------------------------

  function render() {
    occupancy = parsePosition(node.position);
    groups = new Map();
    for (const move of doc.moves) {
      const described = { ...move, ...describe(move.notation, occupancy, doc.side_to_move) };
      const key = groupKey(described.marbles);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(described);
    }
    board.setPosition(node.position);
    $("board").dataset.position = node.position;
    $("board").dataset.ply = String(node.ply);
    renderBoardMarks();
    renderSide(doc);
    renderLegalMoves(doc);
    renderMoves();
    renderEval();
    if (chart) chart.mark(node.game || node === tree ? node.ply : null);
    engine.render();
    $("back").disabled = !node.parent || busy;
    $("first").disabled = !node.parent || busy;
    $("forward").disabled = !node.children.length || busy;
    $("last").disabled = !node.children.length || busy;
    if (conditional) conditional.update();
  }

  /** The moves tried after the game's last move on the path shown, or null if not after it. */
  function triedAfterGame() {
    if (!game || !node) return null;
    const { base, tried } = splitAtGame(node);
    return base.ply === game.moves.length ? tried : null;
  }

  /** The bar: the engine's score for this position, else the game's analysis at this ply. */
  function renderEval() {
    const found = engine.score();
    let score = found ? found.score : null;
    if (score === null && (node.game || node === tree) && gameScores.has(node.ply)) score = gameScores.get(node.ply);
    renderEvalBar($("eval-bar"), score);
  }

  function renderBoardMarks() {
    // The best move replaces the last move's marks: its marbles ringed, where they go tinted.
    const best = engine.shownBest();
    const bestCells = best ? describe(best, occupancy, doc.side_to_move) : { marbles: [], destinations: [] };
    const last = best ? { from: [], to: [] } : moveCells(node.notation || "");
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

  function renderMoves() {
    $("tried-empty").hidden = tree.children.length > 0;
    renderTree($("tree"), tree, node, goTo);
  }

  function renderGameAnalysis() {
    if (!game || !game.analysis || !$("chart")) return;
    const toPly = (ply) => goTo(gameNodeAt(tree, ply));
    chart = drawChart($("chart"), game.analysis, { onPick: toPly });
    const list = $("drops");
    list.replaceChildren();
    for (const ply of game.analysis.drops) {
      const after = game.analysis.evaluations.find((entry) => entry.ply === ply);
      const before = game.analysis.evaluations.find((entry) => entry.ply === ply - 1);
      if (!after || !before) continue;
      const text = format(gettext("ply %(ply)s (%(move)s), from %(before)s to %(after)s"), {
        ply, move: after.move, before: formatScore(before.score), after: formatScore(after.score),
      });
      const button = element("button", { type: "button", class: "link drop-link", "data-ply": String(ply) }, text);
      button.addEventListener("click", () => toPly(ply));
      list.appendChild(element("li")).appendChild(button);
    }
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
    const side = doc.side_to_move;
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
    if (node) render();
  }

  function setStatus(text, isError = false) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("error", Boolean(text) && isError);
  }

  async function share() {
    const link = `${window.location.origin}${address()}`;
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
    $("back").addEventListener("click", () => goTo(node.parent));
    $("forward").addEventListener("click", () => goTo(node.children[0]));
    $("first").addEventListener("click", () => goTo(tree));
    $("last").addEventListener("click", () => goTo(lineEnd(node)));
    $("share-button").addEventListener("click", share);
    $("position-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("position-text").value.trim();
      if (text) restart(text);
    });
    const keys = {
      ArrowLeft: () => node.parent, ArrowRight: () => node.children[0],
      Home: () => tree, End: () => lineEnd(node),
    };
    document.addEventListener("keydown", (event) => {
      if (!(event.key in keys) || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      event.preventDefault();
      goTo(keys[event.key]());
    });
  }

  async function begin() {
    renderGameAnalysis();
    const conditionalStart = readJson("conditional-start");
    if (conditionalStart && $("conditional")) {
      conditional = createConditional({ section: $("conditional"), start: conditionalStart, triedLine: triedAfterGame });
    }
    let from = tree;
    if (game) from = gameNodeAt(tree, asked.ply === null ? game.moves.length : asked.ply);
    let named = { at: from, problem: "" };
    try {
      named = await playNamed(from, asked.moves);
    } catch (error) {
      named.problem = error.message;
    }
    if (!(await goTo(named.at)) && named.at !== tree) await goTo(tree);
    if (named.problem) setStatus(named.problem, true);
    root.dataset.ready = "true";
  }

  bind();
  begin();
}

const root = document.getElementById("analysis-board");
if (root) start(root);
