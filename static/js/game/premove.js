/* Sumito: premoves on the live game page.
 *
 * On the opponent's turn the player may choose one move on the board among the premove
 * candidates (GET premoves/: their legal moves in the current position as if it were their
 * turn). The queued move is marked on the board (classes premove-from and premove-to) with a
 * "Cancel premove" button; clicking its marbles again cancels it too. When the opponent's move
 * arrives and the queued notation is among the new state's legal moves, it is played at once
 * (the ordinary move request, with the new ply; the server checks it like any move); otherwise
 * it is dropped with a short note. One premove at a time.
 */
import { gettext, interpolate } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const box = document.getElementById("premove");
  const text = document.getElementById("premove-text");
  const cancelButton = document.getElementById("premove-cancel");
  const board = document.getElementById("board");
  if (!game || !game.myColour || !box || !board) return;

  const NOTE_MS = 4000;
  let candidates = null; // { version, moves } for the position of that version
  let loadingFor = null; // the version whose candidates are being fetched
  let queued = null; // the chosen move document
  let queuedFor = null; // the version it was chosen on (the opponent to move)
  let noteTimer = null;

  const inPlay = (state) => state.status === "started";

  function cellsOf(names) {
    return names.map((name) => board.querySelector(`[data-cell="${name}"]`)).filter(Boolean);
  }

  function mark(move, on) {
    if (!move) return;
    for (const cell of cellsOf(move.marbles)) cell.classList.toggle("premove-from", on);
    for (const cell of cellsOf(move.destinations)) cell.classList.toggle("premove-to", on);
  }

  function showQueued() {
    window.clearTimeout(noteTimer);
    box.classList.remove("note");
    if (queued) {
      text.textContent = interpolate(gettext("Premove: %(move)s"), { move: queued.notation }, true);
      cancelButton.hidden = false;
      box.hidden = false;
    } else {
      text.textContent = "";
      cancelButton.hidden = true;
      box.hidden = true;
    }
  }

  function note(message) {
    showQueued();
    text.textContent = message;
    box.classList.add("note");
    box.hidden = false;
    noteTimer = window.setTimeout(() => {
      if (!queued) showQueued();
    }, NOTE_MS);
  }

  /** Offer the candidates on the board when they are for the position shown and none is queued. */
  function offer() {
    const state = game.state();
    const usable = candidates && !queued && inPlay(state) && !game.myTurn()
      && candidates.version === state.version && candidates.moves.length;
    game.selectFrom(usable ? candidates.moves : null, choose);
  }

  function choose(move) {
    queued = move;
    queuedFor = game.state().version;
    mark(queued, true);
    showQueued();
    offer(); // one premove: the board is inert until it is played or cancelled
  }

  function drop() {
    mark(queued, false);
    queued = null;
    queuedFor = null;
  }

  function cancel() {
    drop();
    showQueued();
    offer();
  }

  async function load(version) {
    if (loadingFor === version || (candidates && candidates.version === version)) return;
    loadingFor = version;
    try {
      const answer = await game.api("GET", `${game.gameApi}premoves/`);
      if (answer && typeof answer.version === "number" && Array.isArray(answer.moves)) {
        candidates = { version: answer.version, moves: answer.moves };
      }
    } catch (error) {
      candidates = null; // no premoves this turn; moving on one's own turn still works
    } finally {
      if (loadingFor === version) loadingFor = null;
    }
    offer();
  }

  function onState(state) {
    if (!inPlay(state)) {
      if (queued) drop();
      showQueued();
      candidates = null;
      game.selectFrom(null);
      return;
    }
    if (!game.myTurn()) {
      // Still the opponent's turn. A newer position than the one the premove was chosen on
      // (events missed, a move from another tab) makes it meaningless.
      if (queued && state.version !== queuedFor) {
        drop();
        note(gettext("Premove cleared: the position changed."));
      }
      load(state.version);
      offer();
      return;
    }
    game.selectFrom(null);
    if (!queued) return;
    const move = queued;
    const expected = state.version === queuedFor + 1;
    drop();
    showQueued();
    const legal = (state.legal_moves || []).some((candidate) => candidate.notation === move.notation);
    if (expected && legal) {
      game.play(move.notation).then((played) => {
        if (!played) note(interpolate(gettext("Premove %(move)s was not played."), { move: move.notation }, true));
      });
    } else {
      note(interpolate(gettext("Premove %(move)s is no longer legal: cleared."), { move: move.notation }, true));
    }
  }

  cancelButton.addEventListener("click", cancel);
  // Clicking a queued marble again cancels the premove; input.js does not see that click.
  board.addEventListener("click", (event) => {
    if (!queued) return;
    const cell = event.target.closest("[data-cell]");
    if (!cell || !queued.marbles.includes(cell.dataset.cell)) return;
    event.stopPropagation();
    cancel();
  }, { capture: true });

  game.onState(onState);
  const initial = game.state();
  if (inPlay(initial) && !game.myTurn()) load(initial.version);
}

start();
