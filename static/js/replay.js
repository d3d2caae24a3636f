/* Sumito: replaying a finished game; the board comes from board.js.
 *
 * The page embeds every ply's frame (position, both clocks, marbles lost) as JSON; this script
 * only shows one frame at a time: the buttons, the move list and the keys ← → Home End choose it.
 * The ply shown is kept in the address (#ply-12), so a position can be linked to.
 */
import { COLOUR_NAME, create, moveCells } from "sumito/board.js";
import { formatClock } from "sumito/clock.js";
import { format, gettext } from "sumito/i18n.js";

const $ = (id) => document.getElementById(id);

function start(root, data) {
  const frames = data.frames;
  const last = frames.length - 1;
  const board = create($("board"));
  let ply = -1;

  function plyFromHash() {
    const match = /^#ply-(\d+)$/.exec(window.location.hash);
    return match ? Math.min(Number(match[1]), last) : null;
  }

  function go(target, { updateHash = true } = {}) {
    const next = Math.max(0, Math.min(last, target));
    if (next === ply) return;
    ply = next;
    render();
    if (updateHash) history.replaceState(null, "", `#ply-${ply}`);
  }

  function render() {
    const frame = frames[ply];
    const move = ply > 0 ? data.moves[ply - 1] : null;
    board.setPosition(frame.position);
    // The analysis board opens on the position shown: the game's, at this ply (its moves on it),
    // or, for a record without a game here, the position alone.
    const analyse = $("analyse-position");
    if (analyse) {
      analyse.href = analyse.dataset.game
        ? `${analyse.dataset.boardUrl}?game=${analyse.dataset.game}&ply=${ply}`
        : `${analyse.dataset.boardUrl}?position=${encodeURIComponent(frame.position)}`;
    }
    const cells = moveCells(move ? move.notation : "");
    board.highlight(cells.from, cells.to);
    $("board").dataset.ply = String(ply);
    renderPlayers(frame);
    renderMoves();
    const label = $("ply-label");
    label.textContent = move
      ? `${Math.ceil(ply / 2)}${move.mover === "w" ? "…" : "."} ${move.notation} · ${ply}/${last}`
      : `${gettext("Start")} · 0/${last}`;
    $("first").disabled = $("back").disabled = ply === 0;
    $("forward").disabled = $("last").disabled = ply === last;
  }

  function renderPlayers(frame) {
    for (const colour of ["b", "w"]) {
      const toMove = ply < last && frame.side_to_move === colour;
      $(`player-${colour}`).classList.toggle("to-move", toMove);
      const clockMs = colour === "b" ? frame.black_ms : frame.white_ms;
      const clock = $(`clock-${colour}`);
      clock.textContent = clockMs === null ? "–" : formatClock(clockMs);
      clock.dataset.ms = clockMs === null ? "" : String(clockMs);
      // A side's score is the opponent's marbles it pushed off.
      const score = colour === "b" ? frame.white_lost : frame.black_lost;
      const box = $(`score-${colour}`);
      box.dataset.score = String(score);
      box.querySelector(".score-count").textContent = String(score);
      const captured = box.querySelector(".captured");
      captured.replaceChildren();
      for (let i = 0; i < data.marbles_to_win; i++) {
        const slot = document.createElement("span");
        slot.className = `slot${i < score ? ` taken ${colour === "b" ? "w" : "b"}` : ""}`;
        captured.appendChild(slot);
      }
      box.setAttribute("aria-label", format(gettext("%(colour)s pushed off %(score)s of %(total)s"),
        { colour: COLOUR_NAME[colour], score, total: data.marbles_to_win }));
    }
  }

  let moveButtons = [];

  function buildMoves() {
    const list = $("moves");
    list.replaceChildren();
    if (!data.moves.length) {
      const empty = document.createElement("li");
      empty.className = "empty muted";
      empty.textContent = gettext("No moves were played.");
      list.appendChild(empty);
      return;
    }
    let item = null;
    for (const move of data.moves) {
      if (move.mover === "b" || !item) {
        item = document.createElement("li");
        const number = document.createElement("span");
        number.className = "move-no";
        number.textContent = `${Math.ceil(move.ply / 2)}.`;
        item.appendChild(number);
        if (move.mover === "w") item.appendChild(document.createElement("span"));
        list.appendChild(item);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.ply = String(move.ply);
      button.textContent = move.notation;
      if (move.pushed_off) {
        button.classList.add("pushed-off");
        button.title = gettext("pushed a marble off");
      }
      button.addEventListener("click", () => go(move.ply));
      item.appendChild(button);
      moveButtons.push(button);
    }
  }

  function renderMoves() {
    for (const button of moveButtons) {
      const current = Number(button.dataset.ply) === ply;
      button.classList.toggle("current", current);
      if (current) {
        button.setAttribute("aria-current", "step");
        const list = $("moves");
        const top = button.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - button.offsetHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      } else {
        button.removeAttribute("aria-current");
      }
    }
  }

  function bind() {
    $("first").addEventListener("click", () => go(0));
    $("back").addEventListener("click", () => go(ply - 1));
    $("forward").addEventListener("click", () => go(ply + 1));
    $("last").addEventListener("click", () => go(last));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      const steps = { ArrowLeft: () => go(ply - 1), ArrowRight: () => go(ply + 1),
        Home: () => go(0), End: () => go(last) };
      const action = steps[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    });
    window.addEventListener("hashchange", () => {
      const wanted = plyFromHash();
      if (wanted !== null) go(wanted, { updateHash: false });
    });
  }

  buildMoves();
  bind();
  const wanted = plyFromHash();
  go(wanted === null ? last : wanted, { updateHash: false });
  root.dataset.ready = "true";
}

const root = $("replay");
const dataScript = $("replay-data");
if (root && dataScript) start(root, JSON.parse(dataScript.textContent));
